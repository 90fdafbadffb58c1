/**
 * End-to-end tests: the nodes run in n8n's engine against the real local service over HTTP,
 * with no nock. Only time is bent: the nodes' clock runs SCALE times faster than the wall
 * clock, so the spec's 3–5 s poll interval becomes 30–50 ms while the service's tasks (short,
 * on the real clock) still need a few polls.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { clock } from '../../nodes/shared/core/clock';
import type { RunningService, ServiceOptions } from '../../service/server.ts';
import { startService } from '../../service/server.ts';

export const SCALE = 100;
/** Ids are 64-bit; the service hands out ids above 2^53, which a JS number cannot hold. */
export const TWO_POW_53 = BigInt(2) ** BigInt(53);

const realClock = { ...clock };

/** The nodes' clock at SCALE× speed: timeouts and the request budget stay consistent with the sleeps. */
export function useFastClock(): void {
	const origin = Date.now();
	clock.now = () => origin + (Date.now() - origin) * SCALE;
	clock.sleep = async (ms: number, signal?: AbortSignal) => await sleep(ms / SCALE, signal);
}

export function restoreClock(): void {
	Object.assign(clock, realClock);
}

/**
 * Waits, checking every few milliseconds, until `condition` holds; fails the test saying what never
 * happened if it has not within `deadlineMs` of the real clock.
 */
export async function waitUntil(
	condition: () => boolean,
	what: string,
	deadlineMs = 10_000,
): Promise<void> {
	const deadline = Date.now() + deadlineMs;
	while (!condition()) {
		if (Date.now() > deadline) {
			throw new Error(`Gave up after ${deadlineMs / 1000} s waiting for ${what}`);
		}
		await sleep(5);
	}
}

export async function startE2eService(options: ServiceOptions = {}): Promise<RunningService> {
	return await startService({ taskDurationMs: 60, workers: 8, ...options });
}

/**
 * The hooks of a test file run against the local service: the nodes' clock sped up and the
 * service started once for the file (handed to `started`), every test from full balances and
 * zero counters, and the clock put back and the service closed after the last test.
 */
export function eachTestOnTheLocalService(
	options: ServiceOptions,
	started: (service: RunningService) => unknown,
): void {
	let service: RunningService | undefined;
	beforeAll(async () => {
		useFastClock();
		service = await startE2eService(options);
		await started(service);
	});
	afterAll(async () => {
		restoreClock();
		await service?.close();
	});
	beforeEach(() => service!.reset());
}

export function credentialsFor(
	service: RunningService,
	apiKey = service.apiKey,
): ICredentialDataDecryptedObject {
	return { apiKey, baseUrl: service.baseUrl };
}

export function sampleUrl(service: RunningService, name: string): string {
	return `${service.baseUrl}/samples/${name}`;
}

export async function sampleBytes(service: RunningService, name: string): Promise<Buffer> {
	const response = await fetch(sampleUrl(service, name));
	if (!response.ok) throw new Error(`sample ${name}: HTTP ${response.status}`);
	return Buffer.from(await response.arrayBuffer());
}

/** An incoming item that carries a file, as a Read File or HTTP Request node would emit it. */
export function itemWithBinary(
	property: string,
	bytes: Buffer,
	fileName = 'mask.png',
): INodeExecutionData {
	return {
		json: {},
		binary: { [property]: { data: bytes.toString('base64'), mimeType: 'image/png', fileName } },
	};
}

/** Width and height from a PNG's IHDR chunk; throws if the bytes are not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) throw new Error('not a PNG');
	if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error('PNG without IHDR first');
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export function tasksOf(service: RunningService, apiKey = service.apiKey) {
	return service.stats().tasks.filter((task) => task.apiKey === apiKey);
}

/** The task a node emitted, checked for the things every emitted task must satisfy. */
export function expectExactId(json: IDataObject): string {
	const id = json.id;
	expect(typeof id).toBe('string');
	expect(id).toMatch(/^\d+$/);
	expect(BigInt(id as string) > TWO_POW_53).toBe(true);
	return id as string;
}

/** Photo Enhancer's HDR merge of three brackets, each a binary property of the item. */
export const HDR_FROM_FILES = {
	operation: 'enhance',
	imageBinaryProperty: 'under,normal,over',
	presetId: 'hdr-merge-hdr-merge',
	imageSize: '512',
};

/** The three sample brackets under the properties `HDR_FROM_FILES` names. */
export function hdrBrackets(samples: Record<string, Buffer>): Record<string, Buffer> {
	return {
		under: samples['bracket-1.png'],
		normal: samples['bracket-2.png'],
		over: samples['bracket-3.png'],
	};
}

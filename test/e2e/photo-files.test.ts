/**
 * Photos that are files, end to end: the nodes in n8n's engine, a real S3-compatible store on
 * loopback (s3rver, behind a proxy that verifies every signature), and the local service, which
 * downloads each `imageUrl` itself. What the service fetched through the presigned link is
 * compared with the file byte for byte (by SHA-256), and the bucket is checked afterwards.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { RunningService } from '../../service/server.ts';
import { runNode, type NodeName } from '../../dev/harness/engine';
import { startTestStorage, type StorageRequest, type TestStorage } from '../helpers/s3-storage';
import {
	credentialsFor,
	eachTestOnTheLocalService,
	expectExactId,
	HDR_FROM_FILES,
	hdrBrackets,
	sampleBytes,
	tasksOf,
} from './helpers';

let service: RunningService;
let storage: TestStorage;
const samples: Record<string, Buffer> = {};

eachTestOnTheLocalService({}, async (started) => {
	service = started;
	for (const name of [
		'living-room.png',
		'exterior.png',
		'bracket-1.png',
		'bracket-2.png',
		'bracket-3.png',
	]) {
		samples[name] = await sampleBytes(service, name);
	}
});
beforeAll(async () => {
	storage = await startTestStorage();
});
afterAll(async () => await storage.close());
beforeEach(() => {
	storage.requests.length = 0;
	storage.fault = undefined;
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function fileItem(files: Record<string, Buffer>) {
	return {
		json: {},
		binary: Object.fromEntries(
			Object.entries(files).map(([name, bytes]) => [
				name,
				{ data: bytes.toString('base64'), mimeType: 'image/png', fileName: `${name}.png` },
			]),
		),
	};
}

/** A run of `node` on the local service whose photos are the item's files, sent through the store. */
function runWithFiles(node: NodeName, parameters: IDataObject, files: Record<string, Buffer>) {
	return runNode({
		node,
		credentials: credentialsFor(service),
		storageCredentials: storage.credentials,
		parameters: { imageSource: 'binary', ...parameters },
		items: [fileItem(files)],
	});
}

const byMethod = (method: string) =>
	storage.requests.filter((request) => request.method === method);
/** The service's downloads: presigned GETs of an object (not the tests' own listing). */
const serviceFetches = (): StorageRequest[] =>
	byMethod('GET').filter((request) => request.verdict.ok && request.verdict.presigned);

async function objectsLeft(): Promise<string[]> {
	const uploaded = byMethod('PUT').map((put) => put.path.replace(`/${storage.bucket}/`, ''));
	const keys = await storage.keys();
	return uploaded.filter((key) => keys.includes(key));
}

describe('a file on the item reaches the service through the bucket', () => {
	test('Photo Enhancer: the service received the file itself, and the object is gone afterwards', async () => {
		const photo = samples['exterior.png'];

		const { items, error } = await runWithFiles(
			'photoEnhancer',
			{ operation: 'enhance', presetId: 'sky-replacement-sunset-sky', imageSize: '1K' },
			{ data: photo },
		);

		expect(error).toBeUndefined();
		const json = items[0].json as IDataObject;
		const id = expectExactId(json);
		expect(json).toMatchObject({ status: 'Success', creditsCharged: 10 });
		// The result keeps the source's aspect ratio: the service read this photo (1536 × 1024).
		expect(json.output).toMatchObject({ width: 1024, height: 683 });

		const [put] = byMethod('PUT');
		expect(put).toMatchObject({ status: 200, sha256: sha256(photo), verdict: { ok: true } });
		const [task] = tasksOf(service);
		expect(task.id).toBe(id);
		expect(new URL(String(task.imageUrl)).pathname).toBe(put.path);
		const fetched = serviceFetches();
		expect(fetched).toHaveLength(1);
		expect(fetched[0]).toMatchObject({ path: put.path, status: 200, sha256: sha256(photo) });
		expect(byMethod('DELETE')).toMatchObject([{ path: put.path, status: 204 }]);
		expect(await objectsLeft()).toEqual([]);
		// Nothing reached the store unsigned or badly signed.
		expect(storage.requests.every((request) => request.verdict.ok)).toBe(true);
	});

	test('Photo Enhancer HDR: three brackets from three properties, one task, three fetches', async () => {
		const brackets = hdrBrackets(samples);

		const { items, error } = await runWithFiles('photoEnhancer', HDR_FROM_FILES, brackets);

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('Success');
		expect(tasksOf(service)).toHaveLength(1);
		expect(tasksOf(service)[0].imageUrl).toHaveLength(3);
		expect(
			serviceFetches()
				.map((fetch) => fetch.sha256)
				.sort(),
		).toEqual(Object.values(brackets).map(sha256).sort());
		expect(await objectsLeft()).toEqual([]);
	});

	test('Object Remover and Ideal House AI take the file the same way', async () => {
		const photo = samples['living-room.png'];

		const removed = await runWithFiles(
			'objectRemover',
			{ operation: 'remove', emptyType: 'whole_house' },
			{ data: photo },
		);
		const staged = await runWithFiles(
			'idealHouse',
			{ resource: 'virtualStaging', operation: 'create', imageBinaryProperty: 'room' },
			{ room: photo },
		);

		expect(removed.error).toBeUndefined();
		expect(staged.error).toBeUndefined();
		expect(removed.items[0].json.status).toBe('Success');
		expect(staged.items[0].json.status).toBe('Success');
		expect(
			tasksOf(service)
				.map((task) => task.kind)
				.sort(),
		).toEqual(['objectRemover', 'virtualStaging'].sort());
		expect(serviceFetches().map((fetch) => fetch.sha256)).toEqual([sha256(photo), sha256(photo)]);
		expect(await objectsLeft()).toEqual([]);
	});

	test('without waiting, the service has fetched the file and the object is kept until its link expires', async () => {
		const photo = samples['living-room.png'];

		const { items } = await runWithFiles(
			'objectRemover',
			{ operation: 'remove', emptyType: 'whole_house', waitForCompletion: false },
			{ data: photo },
		);

		const upload = items[0].json.upload as { keys: string[]; expiresAt: string };
		expect(items[0].json.status).toBe('Unprocessed');
		expect(serviceFetches()).toHaveLength(1);
		expect(await objectsLeft()).toEqual(upload.keys);
		expect(Date.parse(upload.expiresAt)).toBeGreaterThan(Date.now());
		expect(byMethod('DELETE')).toEqual([]);
	});

	test('the store refuses the upload: no task, no credit, the error names the storage', async () => {
		storage.fault = ({ method }) =>
			method === 'PUT' ? { status: 403, code: 'AccessDenied' } : undefined;
		const balance = service.balance(service.apiKey);

		const { error } = await runWithFiles(
			'objectRemover',
			{ operation: 'remove', emptyType: 'whole_house' },
			{ data: samples['living-room.png'] },
		);

		expect(error?.message).toMatch(
			/^Upload storage \(bucket "listing-photos" at 127\.0\.0\.1:\d+\).*AccessDenied/,
		);
		expect(tasksOf(service)).toEqual([]);
		expect(service.stats().requests.total).toBe(0);
		expect(service.balance(service.apiKey)).toBe(balance);
	});
});

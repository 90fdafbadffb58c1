/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
// Shared by the service's tests: HTTP calls that keep the raw response text (64-bit ids must be
// checked there, JSON.parse would round them), a fake clock, a second local server for input
// images, and hand-built image headers.
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import type { CatalogApi } from '../../service/apis.ts';
import type { RunningService, ServiceOptions } from '../../service/server.ts';
import { startService } from '../../service/server.ts';

export interface ApiResponse {
	status: number;
	headers: Headers;
	text: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	json: any;
}

export class FakeClock {
	time = 1_800_000_000_000;

	readonly now = (): number => this.time;

	advance(ms: number): void {
		this.time += ms;
	}
}

/** Short tasks by default, so that tests using the real clock stay fast. */
export function start(options: ServiceOptions = {}): Promise<RunningService> {
	return startService({ taskDurationMs: 50, ...options });
}

export interface CallOptions {
	apiKey?: string | null;
	body?: unknown;
	rawBody?: string;
	contentType?: string | null;
}

export async function call(
	service: RunningService,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<ApiResponse> {
	const headers: Record<string, string> = {};
	const apiKey = options.apiKey === undefined ? service.apiKey : options.apiKey;
	if (apiKey !== null) headers.APIKEY = apiKey;
	let body: string | undefined;
	if (options.rawBody !== undefined || options.body !== undefined) {
		body = options.rawBody ?? JSON.stringify(options.body);
		const contentType =
			options.contentType === undefined ? 'application/json' : options.contentType;
		if (contentType !== null) headers['Content-Type'] = contentType;
	}
	const response = await fetch(`${service.baseUrl}${path}`, { method, headers, body });
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, json };
}

export type Kind = 'photoEnhancer' | 'objectRemover' | CatalogApi;

export function generate(
	service: RunningService,
	kind: Kind,
	body: unknown,
	options: CallOptions = {},
): Promise<ApiResponse> {
	return call(service, 'POST', `/api/v1/${kind}/generate`, { ...options, body });
}

export function result(
	service: RunningService,
	kind: Kind,
	taskId: string,
	options: CallOptions = {},
): Promise<ApiResponse> {
	return call(service, 'GET', `/api/v1/${kind}/result?taskId=${taskId}`, options);
}

/** The task id exactly as written in the create response's text. */
export function idOf(response: ApiResponse): string {
	const match = /^\{"code":0,"message":"[^"]*","data":(\d+)\}$/.exec(response.text);
	if (!match) throw new Error(`not a successful create response: ${response.text}`);
	return match[1];
}

export function expectEnvelopeError(
	response: ApiResponse,
	code: number,
	messagePart?: RegExp,
): void {
	expect(response.status).toBe(200);
	expect(response.json).toEqual({ code, message: expect.any(String), data: null });
	if (messagePart) expect(response.json.message).toMatch(messagePart);
}

export function sample(service: RunningService, name: string): string {
	return `${service.baseUrl}/samples/${name}`;
}

export async function download(url: string): Promise<Buffer> {
	const response = await fetch(url);
	expect(response.status).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

/** Decodes the PNGs this service writes (8-bit, filters None/Sub/Up) into rows of pixel bytes. */
export function decodePng(png: Buffer): {
	width: number;
	height: number;
	bpp: number;
	rows: Buffer[];
} {
	expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
	const width = png.readUInt32BE(16);
	const height = png.readUInt32BE(20);
	const bpp = png[25] === 2 ? 3 : 1;
	const idat: Buffer[] = [];
	let offset = 8;
	let sawEnd = false;
	while (offset < png.length) {
		const length = png.readUInt32BE(offset);
		const type = png.toString('latin1', offset + 4, offset + 8);
		if (type === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length));
		if (type === 'IEND') sawEnd = true;
		offset += 12 + length;
	}
	expect(sawEnd).toBe(true);
	const raw = inflateSync(Buffer.concat(idat));
	const stride = width * bpp;
	expect(raw.length).toBe(height * (stride + 1));
	const rows: Buffer[] = [];
	for (let y = 0; y < height; y++) {
		const filter = raw[y * (stride + 1)];
		expect([0, 1, 2]).toContain(filter);
		const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
		if (filter === 1) for (let i = bpp; i < stride; i++) line[i] = (line[i] + line[i - bpp]) & 0xff;
		if (filter === 2 && y > 0)
			for (let i = 0; i < stride; i++) line[i] = (line[i] + rows[y - 1][i]) & 0xff;
		rows.push(line);
	}
	return { width, height, bpp, rows };
}

/** Width and height of a PNG, after checking that the whole file decodes to that many pixels. */
export function decodePngSize(png: Buffer): { width: number; height: number } {
	const { width, height } = decodePng(png);
	return { width, height };
}

// ---- hand-built image headers (only what the service reads: magic bytes and dimensions) ----

/** A PNG signature and IHDR, then filler: a "PNG" of any size without encoding its pixels. */
export function fakePng(width: number, height: number, totalBytes = 64): Buffer {
	const bytes = Buffer.alloc(Math.max(totalBytes, 33));
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
	bytes.writeUInt32BE(13, 8);
	bytes.write('IHDR', 12, 'latin1');
	bytes.writeUInt32BE(width, 16);
	bytes.writeUInt32BE(height, 20);
	bytes[24] = 8;
	bytes[25] = 2;
	return bytes;
}

function segment(marker: number, payload: Buffer): Buffer {
	const head = Buffer.alloc(4);
	head[0] = 0xff;
	head[1] = marker;
	head.writeUInt16BE(payload.length + 2, 2);
	return Buffer.concat([head, payload]);
}

/** SOI, APP0 (JFIF), DQT, a fill byte, SOFn with the size, DHT, SOS, EOI. */
export function fakeJpeg(width: number, height: number, sofMarker = 0xc0): Buffer {
	const sof = Buffer.alloc(15);
	sof[0] = 8;
	sof.writeUInt16BE(height, 1);
	sof.writeUInt16BE(width, 3);
	sof[5] = 3;
	return Buffer.concat([
		Buffer.from([0xff, 0xd8]),
		segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
		segment(0xdb, Buffer.alloc(65, 1)),
		Buffer.from([0xff]), // fill byte, allowed before any marker
		segment(sofMarker, sof),
		segment(0xc4, Buffer.alloc(20, 2)),
		segment(0xda, Buffer.alloc(10, 3)),
		Buffer.from([0x12, 0x34, 0xff, 0xd9]),
	]);
}

function riff(chunkType: string, payload: Buffer): Buffer {
	const head = Buffer.alloc(20);
	head.write('RIFF', 0, 'latin1');
	head.writeUInt32LE(12 + payload.length, 4);
	head.write('WEBP', 8, 'latin1');
	head.write(chunkType, 12, 'latin1');
	head.writeUInt32LE(payload.length, 16);
	return Buffer.concat([head, payload]);
}

/** Lossy WebP: frame tag, start code 9d 01 2a, 14-bit width and height (2 scale bits set here). */
export function fakeWebpVp8(width: number, height: number): Buffer {
	const payload = Buffer.alloc(30);
	payload[3] = 0x9d;
	payload[4] = 0x01;
	payload[5] = 0x2a;
	payload.writeUInt16LE(width | 0x4000, 6);
	payload.writeUInt16LE(height | 0x8000, 8);
	return riff('VP8 ', payload);
}

/** Lossless WebP: signature 0x2f, then width-1 and height-1 in 14 bits each. */
export function fakeWebpVp8l(width: number, height: number): Buffer {
	const payload = Buffer.alloc(30);
	payload[0] = 0x2f;
	payload.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
	return riff('VP8L', payload);
}

/** Extended WebP: flags, then canvas width-1 and height-1 in 24 bits each. */
export function fakeWebpVp8x(width: number, height: number): Buffer {
	const payload = Buffer.alloc(30);
	payload[0] = 0x10;
	payload.writeUIntLE(width - 1, 4, 3);
	payload.writeUIntLE(height - 1, 7, 3);
	return riff('VP8X', payload);
}

// ---- a second local server, for inputs the service's samples do not cover ----

export interface Route {
	status?: number;
	body?: Buffer | string;
	headers?: Record<string, string>;
	/** Send the body without Content-Length (chunked), so only counting bytes can catch a big one. */
	chunked?: boolean;
}

export interface ImageServer {
	url(path: string): string;
	requests: string[];
	close(): Promise<void>;
}

export async function startImageServer(routes: Record<string, Route>): Promise<ImageServer> {
	const requests: string[] = [];
	const server = http.createServer((request, response) => {
		requests.push(request.url ?? '');
		const route = routes[request.url ?? ''];
		if (!route) {
			response.writeHead(404).end('not found');
			return;
		}
		const body = route.body ?? '';
		const headers: Record<string, string> = { 'content-type': 'image/png', ...route.headers };
		if (!route.chunked) headers['content-length'] = String(Buffer.byteLength(body));
		response.writeHead(route.status ?? 200, headers);
		if (route.chunked) {
			const bytes = Buffer.from(body);
			for (let i = 0; i < bytes.length; i += 1 << 20)
				response.write(bytes.subarray(i, i + (1 << 20)));
			response.end();
		} else {
			response.end(body);
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: (path) => `http://127.0.0.1:${port}${path}`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** A port that was just free: nothing listens there. */
export async function closedPort(): Promise<number> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/**
 * Node's arguments to run a TypeScript file. Node 22.18 and later strip the types themselves;
 * older ones (Node 20, which n8n 1.x still runs on) load it through tsx's loader, in the same
 * process, so that signals reach the CLI directly.
 */
function runTypeScript(): string[] {
	return process.features.typescript
		? []
		: ['--import', pathToFileURL(require.resolve('tsx')).href];
}

/** The service's CLI (`service/main.ts`) with these arguments, once it says where it listens. */
export interface RunningCli {
	baseUrl: string;
	/** What it printed so far, stdout and stderr. */
	output(): string;
	/** SIGTERM, then its exit code. */
	stop(): Promise<number | null>;
}

export async function startCli(args: string[]): Promise<RunningCli> {
	// eslint-disable-next-line @n8n/community-nodes/no-dangerous-functions
	const child = spawn(
		process.execPath,
		[...runTypeScript(), join(__dirname, '../../service/main.ts'), '--port', '0', ...args],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const baseUrl = await new Promise<string>((resolve, reject) => {
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
			if (match && output.includes('Ctrl+C')) resolve(match[1]);
		});
		child.on('exit', () => reject(new Error(`exited early: ${output}`)));
	});
	return {
		baseUrl,
		output: () => output,
		stop: async () => {
			child.kill('SIGTERM');
			return await exited;
		},
	};
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * A result image reaches n8n's binary data as it arrives: in filesystem mode it is written to
 * disk while the download is still running, never held whole in memory first.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { clock as nodeClock } from '../nodes/shared/core/clock';
import { runNode } from './helpers/engine';

const storage = mkdtempSync(join(tmpdir(), 'ideal-house-binary-'));
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
process.env.N8N_BINARY_DATA_STORAGE_PATH = storage;

/** n8n-core's own copy of its DI container and binary data service, set up as n8n starts them. */
function binaryDataService(): { init(): Promise<void> } {
	const coreDir = dirname(require.resolve('n8n-core/package.json'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] })) as {
		Container: { get<T>(type: unknown): T };
	};
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { BinaryDataService } = require('n8n-core') as { BinaryDataService: unknown };
	return Container.get(BinaryDataService);
}

/** Bytes of every file under `dir` (n8n writes to a temporary name, then renames it). */
function bytesOnDisk(dir: string): number {
	if (!existsSync(dir)) return 0;
	let total = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (entry.isFile() && !entry.name.endsWith('.metadata')) {
			total += statSync(join(entry.parentPath, entry.name)).size;
		}
	}
	return total;
}

const SIZE = 48 * 2 ** 20;
const CHUNK = 2 ** 20;
const HELD_BACK = 8 * CHUNK;

/**
 * Sends all but the last 8 MB of a 48 MB PNG-headed body, then waits until at least 32 MB of it
 * are on disk before it sends the rest. A client that buffers the body before storing it never
 * writes anything until the end, so the server gives up waiting and says so.
 *
 * The file is sent once. A download that broke off would be tried again by the node, and a retry
 * that succeeds would hide the break: a second request is answered at once with an error that
 * says so, and the node's error then names it.
 */
function imageServer(): Promise<{
	url: string;
	baseUrl: string;
	sawDiskWrites: Promise<boolean>;
	close(): void;
}> {
	let report: (value: boolean) => void = () => {};
	const sawDiskWrites = new Promise<boolean>((resolve) => (report = resolve));
	const chunk = Buffer.alloc(CHUNK, 0x5a);
	const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	let url = '';
	let requestsForTheFile = 0;
	const server = http.createServer((request, response) => {
		// The API itself, so the test needs no HTTP mock on the wire (mocks re-wrap the socket and
		// drop backpressure: see test/setup-shared-http.ts).
		request.resume();
		if (request.url?.startsWith('/api/v1/photoEnhancer/generate')) {
			response.end('{"code":0,"message":"success","data":71}');
			return;
		}
		if (request.url?.startsWith('/api/v1/photoEnhancer/result')) {
			const output = { resultUrl: url, width: 4096, height: 3072 };
			const task = { status: 'Success', waitNumber: 0, percentage: 100, input: {}, output };
			response.end(
				`{"code":0,"message":"success","data":{"id":71,${JSON.stringify(task).slice(1)}}`,
			);
			return;
		}
		if (++requestsForTheFile > 1) {
			response.writeHead(410, { 'content-type': 'text/plain' });
			response.end('asked for again: the first download of this file broke off');
			return;
		}
		response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(SIZE) });
		void (async () => {
			let sent = 0;
			const write = async (part: Buffer) => {
				sent += part.length;
				if (!response.write(part)) await new Promise((resolve) => response.once('drain', resolve));
			};
			await write(Buffer.concat([head, chunk.subarray(head.length)]));
			while (sent < SIZE - HELD_BACK) await write(chunk);
			const deadline = Date.now() + 20_000;
			while (bytesOnDisk(storage) < SIZE - 2 * HELD_BACK && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
			report(bytesOnDisk(storage) >= SIZE - 2 * HELD_BACK);
			while (sent < SIZE) await write(chunk);
			response.end();
		})();
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			url = `http://127.0.0.1:${port}/results/big.png`;
			resolve({
				url,
				baseUrl: `http://127.0.0.1:${port}`,
				sawDiskWrites,
				close: () => server.close(),
			});
		});
	});
}

beforeAll(async () => {
	await binaryDataService().init();
});
beforeEach(() => {
	nodeClock.sleep = async () => {};
});
afterAll(() => {
	rmSync(storage, { recursive: true, force: true });
});

test('filesystem mode: a 48 MB result is on disk before its last bytes have arrived', async () => {
	const server = await imageServer();
	try {
		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: {
				operation: 'enhance',
				imageUrl: 'https://photos.example.com/a.jpg',
				presetId: 'exterior-enhancement-curb-appeal',
				options: { downloadResult: true },
			},
			credentials: { apiKey: 'test-key', baseUrl: server.baseUrl },
		});

		expect(error).toBeUndefined();
		expect(await server.sawDiskWrites).toBe(true);
		const binary = items[0].binary?.data;
		expect(binary).toMatchObject({
			mimeType: 'image/png',
			fileName: 'big.png',
			bytes: SIZE,
			data: 'filesystem-v2',
		});
		expect(binary?.id).toMatch(/^filesystem-v2:/);
		const stored = join(storage, String(binary?.id).slice('filesystem-v2:'.length));
		const bytes = readFileSync(stored);
		expect(bytes.length).toBe(SIZE);
		expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
		expect(bytes[SIZE - 1]).toBe(0x5a);
	} finally {
		server.close();
	}
}, 60_000);

test('a helper that hands back a finished body (older n8n, mocks) still gets the image stored', async () => {
	const png = Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		Buffer.alloc(100, 1),
	]);
	const stored: unknown[] = [];
	const ctx = {
		getNode: () => ({ name: 'Ideal House' }),
		getItemIndex: () => 0,
		getExecutionCancelSignal: () => undefined,
		getCredentials: async () => ({ apiKey: 'test-key', baseUrl: 'https://api.ideal.house' }),
		helpers: {
			httpRequest: async () => ({
				statusCode: 200,
				headers: { 'content-type': 'application/octet-stream' },
				body: png.buffer.slice(png.byteOffset, png.byteOffset + png.length),
			}),
			prepareBinaryData: async (data: unknown, fileName: string, mimeType: string) => {
				stored.push(data);
				return { data: '', fileName, mimeType };
			},
		},
	};
	const { downloadResultFile } = await import('../nodes/shared/output/download');

	const binary = await downloadResultFile(ctx as never, '72', 'https://cdn.example.com/r/72', {
		localServiceHost: undefined,
		timeoutMs: 120_000,
		accept: 'image',
	});

	expect(binary).toEqual({ data: '', fileName: 'ideal-house-72.png', mimeType: 'image/png' });
	expect(stored).toEqual([png]);
});

test("a small result, already fully received, reaches a consumer that reads with 'data' events (n8n 1.x's memory mode)", async () => {
	const png = Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		Buffer.alloc(5000, 7),
	]);
	const server = http.createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
		response.end(png);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/results/73.png`;
	const ctx = {
		getNode: () => ({ name: 'Ideal House' }),
		getItemIndex: () => 0,
		getExecutionCancelSignal: () => undefined,
		getCredentials: async () => ({ apiKey: 'test-key', baseUrl: 'http://127.0.0.1:8787' }),
		helpers: {
			// The response as n8n's helper hands it back with `encoding: 'stream'`.
			httpRequest: async () =>
				await new Promise((resolve, reject) => {
					http
						.get(url, (response) => {
							// Let the whole body arrive before anyone reads it.
							setTimeout(
								() =>
									resolve({
										statusCode: response.statusCode,
										headers: response.headers,
										body: response,
									}),
								100,
							);
						})
						.on('error', reject);
				}),
			// What n8n 1.x's binary data service does in its default (memory) mode.
			prepareBinaryData: async (
				data: NodeJS.ReadableStream,
				fileName: string,
				mimeType: string,
			) => {
				const bytes = await new Promise<Buffer>((resolve) => {
					const chunks: Buffer[] = [];
					data.on('data', (chunk: Buffer) => chunks.push(chunk));
					data.on('end', () => resolve(Buffer.concat(chunks)));
				});
				return { data: bytes.toString('base64'), fileName, mimeType };
			},
		},
	};
	const { downloadResultFile } = await import('../nodes/shared/output/download');
	let giveUp: NodeJS.Timeout | undefined;
	try {
		const binary = await Promise.race([
			downloadResultFile(ctx as never, '73', url, {
				localServiceHost: new URL(url).hostname,
				timeoutMs: 120_000,
				accept: 'image',
			}),
			new Promise<never>((_resolve, reject) => {
				giveUp = setTimeout(() => reject(new Error('the download never ended')), 5000);
			}),
		]);
		expect(binary).toEqual({
			data: png.toString('base64'),
			fileName: '73.png',
			mimeType: 'image/png',
		});
	} finally {
		clearTimeout(giveUp);
		server.close();
	}
});

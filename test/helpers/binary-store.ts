/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * n8n's binary data in filesystem mode, as n8n runs it by default outside queue mode: an item's
 * file is then an id, and the nodes read it through n8n's stream and buffer helpers. Every read is
 * counted, so that a test can tell a file streamed from one loaded whole.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform, pipeline, type Readable } from 'node:stream';

import type { IBinaryData } from 'n8n-workflow';

export interface BinaryDataService {
	init(): Promise<void>;
	store(location: object, bytes: Buffer, data: IBinaryData): Promise<IBinaryData>;
	getAsStream(id: string, chunkSize?: number): Promise<Readable>;
	getAsBuffer(data: IBinaryData): Promise<Buffer>;
	getMetadata(id: string): Promise<{ mimeType?: string; fileName?: string; fileSize: number }>;
	validateSignedToken(token: string): string;
}

/** n8n-core's own copy of its DI container and binary data service, as n8n starts them. */
function binaryDataService(): BinaryDataService {
	const coreDir = dirname(require.resolve('n8n-core/package.json'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] })) as {
		Container: { get<T>(type: unknown): T };
	};
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { BinaryDataService } = require('n8n-core') as { BinaryDataService: unknown };
	return Container.get(BinaryDataService);
}

/** Where n8n stores a file: an execution's own folder, or `temp` for one a webhook trigger received. */
export interface FileLocation {
	workflowId: string;
	executionId: string;
}

export interface BinaryStore {
	/** Starts the service; the mode must have been set before (see `filesystemBinaryData`). */
	init(): Promise<void>;
	/** Stores the bytes as n8n does: the item's binary entry then holds an id, not the bytes. */
	store(bytes: Buffer, fileName: string, location?: FileLocation): Promise<IBinaryData>;
	/** What n8n's signed link opens, by n8n's own check of its token: the file's id (throws if invalid). */
	idOfToken(token: string): string;
	/** n8n-core's binary data service itself, for a stand-in of n8n's signed-link endpoint. */
	readonly service: BinaryDataService;
	/** The files n8n stored in an execution's folder. */
	storedUnder(location: FileLocation): string[];
	/** A stored file's bytes and the content type n8n keeps with it. */
	read(id: string): Promise<{ bytes: Buffer; mimeType?: string }>;
	/** What the nodes read since the last `resetReads`: bytes through streams, whole loads of a stored file. */
	reads: { streamedBytes: number; wholeLoads: number };
	resetReads(): void;
	close(): void;
}

/** Filesystem binary data for the whole test file that calls it: set up before its tests, closed after. */
export function filesForThisFile(): BinaryStore {
	const files = filesystemBinaryData();
	beforeAll(async () => await files.init());
	afterAll(() => files.close());
	return files;
}

/**
 * Sets filesystem mode at once (call it at the top of a test file, before anything asks n8n-core
 * for its binary data service), in a directory of its own.
 */
export function filesystemBinaryData(): BinaryStore {
	const dir = mkdtempSync(join(tmpdir(), 'ideal-house-files-'));
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	process.env.N8N_BINARY_DATA_STORAGE_PATH = dir;
	const reads = { streamedBytes: 0, wholeLoads: 0 };
	let stored = 0;
	return {
		reads,
		async init() {
			const service = binaryDataService();
			await service.init();
			const getAsStream = service.getAsStream.bind(service);
			const getAsBuffer = service.getAsBuffer.bind(service);
			service.getAsStream = async (id, chunkSize) => {
				const counter = new Transform({
					transform(chunk: Buffer, _encoding, done) {
						reads.streamedBytes += chunk.length;
						done(null, chunk);
					},
				});
				// Destroying what the node holds stops the file's own stream too.
				return pipeline(await getAsStream(id, chunkSize), counter, () => {});
			};
			service.getAsBuffer = async (data) => {
				if (data.id) reads.wholeLoads++;
				return await getAsBuffer(data);
			};
		},
		async store(bytes, fileName, location) {
			return await binaryDataService().store(
				{
					type: 'execution',
					...(location ?? { workflowId: 'tests', executionId: `files-${++stored}` }),
				},
				bytes,
				{ data: '', mimeType: 'application/octet-stream', fileName },
			);
		},
		storedUnder: ({ workflowId, executionId }) => {
			const folder = join(dir, 'workflows', workflowId, 'executions', executionId, 'binary_data');
			return existsSync(folder)
				? readdirSync(folder).filter((name) => !name.endsWith('.metadata'))
				: [];
		},
		get service() {
			return binaryDataService();
		},
		idOfToken: (token) => binaryDataService().validateSignedToken(token),
		async read(id) {
			const service = binaryDataService();
			const { mimeType } = await service.getMetadata(id);
			const chunks: Buffer[] = [];
			for await (const chunk of await service.getAsStream(id)) chunks.push(chunk as Buffer);
			return { bytes: Buffer.concat(chunks), mimeType };
		},
		resetReads() {
			reads.streamedBytes = 0;
			reads.wholeLoads = 0;
		},
		close() {
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

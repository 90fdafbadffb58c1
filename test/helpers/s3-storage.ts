/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets */
/**
 * A real S3-compatible store on loopback for the tests: s3rver (from npm) keeps the objects, and a
 * small proxy in front of it does what s3rver does not: it verifies every request's SigV4
 * signature with the tests' own verifier and refuses a bad one as S3 would, with S3's XML error.
 * It records every request (and what a GET sent back), and can inject faults.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: object) => {
	run(): Promise<AddressInfo>;
	close(): Promise<void>;
};

import { s3ErrorXml, verifySigV4, type Verdict } from './sigv4-verifier';

export const STORAGE_KEY_ID = 'IHTESTKEY0000000001';
export const STORAGE_SECRET = 'ih-test-secret/6c1f+a9e0d7b4c3f';
export const READ_ONLY_KEY_ID = 'IHREADONLY00000001';
export const READ_ONLY_SECRET = 'ih-read-only-secret/0a7e91c4';
export const STORAGE_REGION = 'eu-west-1';
export const STORAGE_BUCKET = 'listing-photos';

export interface StorageRequest {
	method: string;
	/** Path without the query. */
	path: string;
	query: URLSearchParams;
	verdict: Verdict;
	/** What the proxy answered. */
	status: number;
	/** SHA-256 of a PUT's body as it arrived, or of a GET's answer as it left. */
	sha256?: string;
	bytes?: number;
	headers: IncomingMessage['headers'];
}

/** A fault for one request: an S3 error answer, a dropped connection, or an answer held back. */
export type StorageFault =
	| { status: number; code: string; message?: string; headers?: Record<string, string> }
	| { reset: true }
	| { holdMs: number };

export interface TestStorage {
	endpoint: string;
	bucket: string;
	/** The credential a node gets (path style, the right key and region). */
	credentials: ICredentialDataDecryptedObject;
	requests: StorageRequest[];
	/** Decides a fault for a request before it reaches the store; undefined lets it through. */
	fault?: (request: {
		method: string;
		path: string;
		query: URLSearchParams;
	}) => StorageFault | undefined;
	/** Keys of the objects in the bucket now. */
	keys(): Promise<string[]>;
	close(): Promise<void>;
}

function sha256(data: Buffer): string {
	return createHash('sha256').update(data).digest('hex');
}

export async function startTestStorage(): Promise<TestStorage> {
	const directory = mkdtempSync(join(tmpdir(), 'ih-s3rver-'));
	const store = new S3rver({
		port: 0,
		address: '127.0.0.1',
		silent: true,
		directory,
		configureBuckets: [{ name: STORAGE_BUCKET }],
	});
	const { port: storePort } = await store.run();
	const requests: StorageRequest[] = [];
	const holds = new Set<ReturnType<typeof setTimeout>>();

	const storage: TestStorage = {
		endpoint: '',
		bucket: STORAGE_BUCKET,
		credentials: {},
		requests,
		keys: async () => await listKeys(),
		close: async () => undefined,
	};

	const server: Server = createServer((req, res) => {
		const parts: Buffer[] = [];
		req.on('data', (part: Buffer) => parts.push(part));
		req.on('end', () => {
			const body = Buffer.concat(parts);
			const url = new URL(req.url ?? '/', 'http://x');
			const verdict = verifySigV4(
				{
					method: req.method ?? 'GET',
					rawUrl: req.url ?? '/',
					headers: req.headers,
					bodySha256: sha256(body),
				},
				{
					secrets: { [STORAGE_KEY_ID]: STORAGE_SECRET, [READ_ONLY_KEY_ID]: READ_ONLY_SECRET },
					region: STORAGE_REGION,
				},
			);
			const entry: StorageRequest = {
				method: req.method ?? '',
				path: url.pathname,
				query: url.searchParams,
				verdict,
				status: 0,
				headers: req.headers,
				...(req.method === 'PUT' ? { sha256: sha256(body), bytes: body.length } : {}),
			};
			requests.push(entry);
			const answer = (status: number, code: string, message: string, headers = {}) => {
				entry.status = status;
				res.writeHead(status, { 'content-type': 'application/xml', ...headers });
				res.end(s3ErrorXml(code, message));
			};
			if (!verdict.ok) return answer(verdict.status, verdict.code, verdict.message);
			if (
				verdict.accessKeyId === READ_ONLY_KEY_ID &&
				(req.method === 'PUT' || req.method === 'DELETE')
			) {
				return answer(403, 'AccessDenied', 'Access Denied');
			}
			const fault = storage.fault?.({
				method: entry.method,
				path: entry.path,
				query: url.searchParams,
			});
			if (fault && 'reset' in fault) {
				entry.status = -1;
				req.socket.destroy();
				return;
			}
			const forward = () => {
				// Verified here: s3rver gets the request without its signature.
				const query = [...url.searchParams].filter(([name]) => !name.startsWith('X-Amz-'));
				const search = query.length ? `?${new URLSearchParams(query).toString()}` : '';
				const headers = { ...req.headers, host: `127.0.0.1:${storePort}` };
				delete headers.authorization;
				const upstream = httpRequest(
					{
						host: '127.0.0.1',
						port: storePort,
						method: req.method,
						path: `${url.pathname}${search}`,
						headers,
					},
					(upstreamRes) => {
						const answerParts: Buffer[] = [];
						upstreamRes.on('data', (part: Buffer) => answerParts.push(part));
						upstreamRes.on('end', () => {
							const answerBody = Buffer.concat(answerParts);
							entry.status = upstreamRes.statusCode ?? 0;
							if (
								req.method === 'GET' &&
								entry.status === 200 &&
								entry.path !== `/${STORAGE_BUCKET}`
							) {
								entry.sha256 = sha256(answerBody);
								entry.bytes = answerBody.length;
							}
							res.writeHead(entry.status, upstreamRes.headers);
							res.end(answerBody);
						});
					},
				);
				upstream.on('error', () => res.destroy());
				upstream.end(body);
			};
			if (fault && 'holdMs' in fault) {
				const hold = setTimeout(() => {
					holds.delete(hold);
					forward();
				}, fault.holdMs);
				holds.add(hold);
				res.on('close', () => clearTimeout(hold));
				return;
			}
			if (fault)
				return answer(fault.status, fault.code, fault.message ?? fault.code, fault.headers);
			forward();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	storage.endpoint = `http://127.0.0.1:${port}`;
	storage.credentials = {
		endpoint: storage.endpoint,
		region: STORAGE_REGION,
		bucket: STORAGE_BUCKET,
		accessKeyId: STORAGE_KEY_ID,
		secretAccessKey: STORAGE_SECRET,
		forcePathStyle: true,
	};

	async function listKeys(): Promise<string[]> {
		const response = await fetch(`http://127.0.0.1:${storePort}/${STORAGE_BUCKET}?list-type=2`);
		const xml = await response.text();
		return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1]);
	}

	storage.close = async () => {
		for (const hold of holds) clearTimeout(hold);
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
		await store.close();
		rmSync(directory, { recursive: true, force: true });
	};
	return storage;
}

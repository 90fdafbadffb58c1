/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * A private S3 bucket on loopback, for the recipe that gives Ideal House a photo file through the
 * user's own bucket (docs/photos-without-public-n8n.md). s3rver (from npm) keeps the objects;
 * a proxy in front of it answers as a private bucket does whose policy lets anyone read objects
 * under one prefix: a request without a signature (no Authorization header, no X-Amz-Signature in
 * the query) is refused with 403 AccessDenied, unless it reads (GET, HEAD) an object under that
 * prefix. s3rver itself checks the key id (its own, S3RVER), not the signature. s3rver has no
 * ListParts, which n8n's AWS S3 node asks for in the middle of a multipart upload (the one it
 * makes of a file n8n stores by id): the proxy answers it from the parts it passed on.
 *
 * Every request is recorded: who sent it (User-Agent), how it was signed, what the proxy
 * answered, and the SHA-256 of the bytes that went up (PUT) or came back (GET).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** s3rver's own key pair: it knows no other. */
export const BUCKET_KEY_ID = 'S3RVER';
export const BUCKET_SECRET = 'S3RVER';
export const BUCKET_REGION = 'us-east-1';

export interface BucketRequest {
	method: string;
	/** `/<bucket>/<key>`, without the query. */
	path: string;
	/** How the request proved who sent it. */
	signed: 'header' | 'query' | 'none';
	userAgent: string;
	status: number;
	/** What went up (PUT) or came back (a GET answered 200). */
	sha256?: string;
	bytes?: number;
	/** A PUT's body: a whole object, or one part of a multipart upload. */
	body?: Buffer;
}

export interface PrivateBucket {
	/** The proxy's address: what the AWS credential's custom S3 endpoint names. */
	endpoint: string;
	bucket: string;
	requests: BucketRequest[];
	/** Keys of the objects in the bucket now. */
	keys(): Promise<string[]>;
	close(): Promise<void>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

function s3Error(code: string, message: string): string {
	return `${XML_DECLARATION}\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

interface Part {
	number: number;
	etag: string;
	size: number;
}

/** S3's ListParts answer for the parts of one multipart upload, in order. */
function listPartsXml(uploadId: string, parts: Part[]): string {
	const entries = [...parts]
		.sort((a, b) => a.number - b.number)
		.map(
			(part) =>
				`<Part><PartNumber>${part.number}</PartNumber><ETag>${part.etag}</ETag><Size>${part.size}</Size></Part>`,
		)
		.join('');
	return `${XML_DECLARATION}\n<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><UploadId>${uploadId}</UploadId>${entries}</ListPartsResult>`;
}

/**
 * `bucket` is the bucket's name; one with a dot, since n8n's AWS S3 node sends a bucket without
 * one to `<bucket>.s3.<region>.amazonaws.com` whatever the credential's custom endpoint says.
 * `openPrefix`: the keys the bucket's policy lets anyone read (`ideal-house-uploads/`).
 */
export async function startPrivateBucket(
	bucket: string,
	openPrefix: string,
): Promise<PrivateBucket> {
	const directory = mkdtempSync(join(tmpdir(), 'ih-private-bucket-'));
	const S3rver = createRequire(__filename)('s3rver') as new (options: object) => {
		run(): Promise<AddressInfo>;
		close(): Promise<void>;
	};
	const store = new S3rver({
		port: 0,
		address: '127.0.0.1',
		silent: true,
		directory,
		configureBuckets: [{ name: bucket }],
	});
	const { port: storePort } = await store.run();
	const requests: BucketRequest[] = [];
	const open = `/${bucket}/${openPrefix}`;
	/** The parts s3rver took, by multipart upload. */
	const uploadParts = new Map<string, Part[]>();

	const server: Server = createServer((req, res) => {
		const parts: Buffer[] = [];
		req.on('data', (part: Buffer) => parts.push(part));
		req.on('end', () => {
			const body = Buffer.concat(parts);
			const url = new URL(req.url ?? '/', 'http://bucket');
			const method = req.method ?? 'GET';
			const signed = req.headers.authorization
				? 'header'
				: url.searchParams.has('X-Amz-Signature')
					? 'query'
					: 'none';
			const entry: BucketRequest = {
				method,
				path: decodeURIComponent(url.pathname),
				signed,
				userAgent: String(req.headers['user-agent'] ?? ''),
				status: 0,
				...(method === 'PUT' ? { sha256: sha256(body), bytes: body.length, body } : {}),
			};
			requests.push(entry);
			const reads = method === 'GET' || method === 'HEAD';
			if (signed === 'none' && !(reads && entry.path.startsWith(open))) {
				entry.status = 403;
				res.writeHead(403, { 'content-type': 'application/xml' });
				res.end(s3Error('AccessDenied', 'Access Denied'));
				return;
			}
			const uploadId = url.searchParams.get('uploadId');
			if (method === 'GET' && uploadId !== null) {
				entry.status = 200;
				res.writeHead(200, { 'content-type': 'application/xml' });
				res.end(listPartsXml(uploadId, uploadParts.get(uploadId) ?? []));
				return;
			}
			const upstream = httpRequest(
				{
					host: '127.0.0.1',
					port: storePort,
					method,
					path: req.url,
					headers: { ...req.headers, host: `127.0.0.1:${storePort}` },
				},
				(answer) => {
					const answerParts: Buffer[] = [];
					answer.on('data', (part: Buffer) => answerParts.push(part));
					answer.on('end', () => {
						const answerBody = Buffer.concat(answerParts);
						entry.status = answer.statusCode ?? 0;
						if (method === 'GET' && entry.status === 200) {
							entry.sha256 = sha256(answerBody);
							entry.bytes = answerBody.length;
						}
						const partNumber = Number(url.searchParams.get('partNumber'));
						if (method === 'PUT' && uploadId !== null && entry.status === 200) {
							const taken = uploadParts.get(uploadId) ?? [];
							const etag = String(answer.headers.etag ?? '');
							uploadParts.set(uploadId, [
								...taken,
								{ number: partNumber, etag, size: body.length },
							]);
						}
						res.writeHead(entry.status, answer.headers);
						res.end(answerBody);
					});
				},
			);
			upstream.on('error', () => res.destroy());
			upstream.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		endpoint: `http://127.0.0.1:${port}`,
		bucket,
		requests,
		keys: async () => {
			const listing = await fetch(`http://127.0.0.1:${storePort}/${bucket}?list-type=2`);
			const xml = await listing.text();
			return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1]);
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await store.close();
			rmSync(directory, { recursive: true, force: true });
		},
	};
}

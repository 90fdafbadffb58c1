/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * An S3 stand-in over https on loopback, behind the certificate a real S3 endpoint has: it names
 * the endpoint's host and `*.<host>`, and nothing deeper, as `*.s3.eu-west-1.amazonaws.com` does.
 * So `listing-photos.<host>` passes the client's certificate check and `listing.photos.eu.<host>`
 * fails it, exactly as it would against AWS. The certificate and its CA are made with openssl
 * when the stand-in starts; while it runs, Node's TLS clients trust that CA for those names, and the endpoint's
 * host and every name under it resolve to 127.0.0.1 (node code cannot be given a resolver).
 *
 * The stand-in verifies every request's SigV4 signature with the tests' own verifier, keeps the
 * objects in memory (the bucket from the host, virtual-hosted, or from the first path segment),
 * answers a PUT as S3 does (200, a strong ETag, no body), lists a bucket, and records each
 * request.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import dns from 'node:dns';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { STORAGE_KEY_ID, STORAGE_REGION, STORAGE_SECRET } from './s3-storage';
import { s3ErrorXml, verifySigV4, type Verdict } from './sigv4-verifier';

export interface TlsStorageRequest {
	method: string;
	/** The Host header as it arrived. */
	host: string;
	/** Path without the query. */
	path: string;
	query: URLSearchParams;
	verdict: Verdict;
	status: number;
	/** SHA-256 of a PUT's body, or of a GET's answer. */
	sha256?: string;
}

export interface TlsStorage {
	/** `https://<host>:<port>`. */
	endpoint: string;
	requests: TlsStorageRequest[];
	/** A credential for `bucket` at the stand-in, Force Path Style off. */
	credentials(bucket: string): ICredentialDataDecryptedObject;
	/** `<bucket>/<key>` of the objects held now. */
	keys(): string[];
	/** The status of a GET of `link`, sent as any https client sends it (as the service would). */
	fetch(link: string): Promise<number>;
	close(): Promise<void>;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A CA, and a server certificate it signed for `host` and `*.host` only. */
function certificateFor(host: string): { ca: string; key: string; cert: string } {
	const directory = mkdtempSync(join(tmpdir(), 'ih-tls-storage-'));
	// Run in the directory, so that every argument is a word without spaces.
	const openssl = (args: string) =>
		execFileSync('openssl', args.split(' '), { cwd: directory, stdio: 'pipe' });
	const newKey = 'ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';
	try {
		openssl(`req -x509 -newkey ${newKey} -subj /CN=ih-test-ca -days 2 -keyout ca.key -out ca.crt`);
		openssl(`req -new -newkey ${newKey} -subj /CN=${host} -keyout server.key -out server.csr`);
		writeFileSync(
			join(directory, 'server.ext'),
			`subjectAltName=DNS:${host},DNS:*.${host}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
		);
		openssl(
			'x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext -out server.crt',
		);
		const read = (name: string) => readFileSync(join(directory, name), 'utf8');
		return { ca: read('ca.crt'), key: read('server.key'), cert: read('server.crt') };
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
}

type LookupCallback = (
	error: NodeJS.ErrnoException | null,
	address: string | dns.LookupAddress[],
	family?: number,
) => void;

/** `host` and the names under it resolve to 127.0.0.1 until the returned function is called. */
function resolveToLoopback(host: string): () => void {
	const original = dns.lookup;
	const mapped = (name: string) => name === host || name.endsWith(`.${host}`);
	const lookup = (name: string, options: unknown, callback?: LookupCallback) => {
		const done = (typeof options === 'function' ? options : callback) as LookupCallback;
		if (!mapped(name)) return (original as (...args: unknown[]) => void)(name, options, callback);
		const all = typeof options === 'object' && options !== null && 'all' in options && options.all;
		process.nextTick(() =>
			all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4),
		);
	};
	dns.lookup = lookup as typeof dns.lookup;
	return () => {
		dns.lookup = original;
	};
}

/**
 * TLS connections to `host` and the names under it trust `ca` besides Node's own roots, until the
 * returned function is called. Node's https agent opens every connection through `tls.connect`;
 * the default CA list cannot be changed on Node 20.
 */
function trustForHost(host: string, ca: string): () => void {
	const original = tls.connect;
	const roots = [...tls.rootCertificates, ca];
	const mapped = (name: unknown) =>
		typeof name === 'string' && (name === host || name.endsWith(`.${host}`));
	tls.connect = function (this: unknown, ...args: unknown[]) {
		const options = args.find((arg) => typeof arg === 'object' && arg !== null) as
			| tls.ConnectionOptions
			| undefined;
		if (options && !options.ca && mapped(options.servername ?? options.host)) options.ca = roots;
		return (original as (...all: unknown[]) => tls.TLSSocket).apply(this, args);
	} as typeof tls.connect;
	return () => {
		tls.connect = original;
	};
}

export async function startTlsStorage(host: string): Promise<TlsStorage> {
	const { ca, key, cert } = certificateFor(host);
	const untrust = trustForHost(host, ca);
	const unresolve = resolveToLoopback(host);
	const objects = new Map<string, Buffer>();
	const requests: TlsStorageRequest[] = [];

	const server: Server = createServer({ key, cert }, (req, res) => {
		const parts: Buffer[] = [];
		req.on('data', (part: Buffer) => parts.push(part));
		req.on('end', () => {
			const body = Buffer.concat(parts);
			const url = new URL(req.url ?? '/', 'https://x');
			const hostHeader = req.headers.host ?? '';
			const verdict = verifySigV4(
				{
					method: req.method ?? 'GET',
					rawUrl: req.url ?? '/',
					headers: req.headers,
					bodySha256: sha256(body),
				},
				{ secrets: { [STORAGE_KEY_ID]: STORAGE_SECRET }, region: STORAGE_REGION },
			);
			const entry: TlsStorageRequest = {
				method: req.method ?? '',
				host: hostHeader,
				path: url.pathname,
				query: url.searchParams,
				verdict,
				status: 0,
			};
			requests.push(entry);
			const answer = (status: number, headers: Record<string, string>, data?: Buffer | string) => {
				entry.status = status;
				res.writeHead(status, headers);
				res.end(data);
			};
			const fail = (status: number, code: string, message: string) =>
				answer(status, { 'content-type': 'application/xml' }, s3ErrorXml(code, message));
			if (!verdict.ok) return fail(verdict.status, verdict.code, verdict.message);
			const hostName = hostHeader.replace(/:\d+$/, '');
			const path = decodeURIComponent(url.pathname);
			const objectName =
				hostName === host ? path.slice(1) : `${hostName.slice(0, -host.length - 1)}${path}`;
			if (req.method === 'PUT') {
				entry.sha256 = sha256(body);
				objects.set(objectName, body);
				const etag = createHash('md5').update(body).digest('hex');
				return answer(200, { etag: `"${etag}"` });
			}
			if (req.method === 'DELETE') {
				objects.delete(objectName);
				return answer(204, {});
			}
			const [bucket, ...keyParts] = objectName.split('/');
			if (req.method === 'GET' && keyParts.join('/') === '') {
				const prefix = `${bucket}/${url.searchParams.get('prefix') ?? ''}`;
				const contents = [...objects.keys()]
					.filter((name) => name.startsWith(prefix))
					.map((name) => `<Contents><Key>${name.slice(bucket.length + 1)}</Key></Contents>`);
				return answer(
					200,
					{ 'content-type': 'application/xml' },
					`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name>${contents.join('')}</ListBucketResult>`,
				);
			}
			if (req.method === 'GET') {
				const held = objects.get(objectName);
				if (!held) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
				entry.sha256 = sha256(held);
				return answer(200, { 'content-type': 'application/octet-stream' }, held);
			}
			return fail(405, 'MethodNotAllowed', 'The specified method is not allowed.');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const endpoint = `https://${host}:${port}`;
	return {
		endpoint,
		requests,
		credentials: (bucket) => ({
			endpoint,
			region: STORAGE_REGION,
			bucket,
			accessKeyId: STORAGE_KEY_ID,
			secretAccessKey: STORAGE_SECRET,
			forcePathStyle: false,
		}),
		keys: () => [...objects.keys()],
		fetch: async (link) =>
			await new Promise((resolve, reject) => {
				const req = httpsRequest(link, (res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode ?? 0));
				});
				req.on('error', reject);
				req.end();
			}),
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			unresolve();
			untrust();
		},
	};
}

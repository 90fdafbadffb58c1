/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * A photo file on n8n's own link, as the real-n8n drivers check it: the service gets n8n's own
 * signed link to the photo file (`<n8n>/rest/binary-data/signed?token=…`, served by n8n's main
 * without a login) and fetches the photo from n8n itself.
 *
 * n8n's public address (`WEBHOOK_URL`) is a reverse proxy in front of n8n, as a public n8n
 * usually sits behind one. It passes every request on unchanged and notes, for each GET of the
 * signed link, who asked (the local service names itself in its User-Agent), n8n's status and
 * the SHA-256 of the bytes n8n answered: what the service received, byte for byte. The link's
 * token is never printed (`withoutLinkTokens`, report.ts).
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';

import { sha256 } from './form-upload.ts';
import type { Report } from './report.ts';

/** The path n8n serves its signed links on, under its REST endpoint. */
export const SIGNED_PATH = '/rest/binary-data/signed';
/** The User-Agent the local service fetches image URLs with (service/images.ts). */
export const SERVICE_USER_AGENT = 'ideal-house-local-service';

/** One GET of n8n's signed link, as the proxy passed n8n's answer back. */
export interface LinkFetch {
	/** The query's token, to tell the links apart; never printed. */
	token: string;
	userAgent: string;
	status: number;
	bytes: number;
	sha256: string;
	contentType: string;
}

export interface FrontProxy {
	/** n8n's public address as WEBHOOK_URL gives it: `http://127.0.0.1:<port>/`. */
	url: string;
	/** Every GET of the signed link, in the order the answers ended. */
	fetches: LinkFetch[];
	/** Points the proxy at n8n's port (known once the process that serves it is chosen). */
	setTarget(port: number): void;
	close(): Promise<void>;
}

/** A reverse proxy on loopback in front of n8n's port `target` (or one set later). */
export async function startFrontProxy(target?: number): Promise<FrontProxy> {
	let targetPort = target;
	const fetches: LinkFetch[] = [];
	const server: Server = createServer((req, res) => {
		if (!targetPort) {
			res.writeHead(502).end('no n8n behind the proxy yet');
			return;
		}
		const url = new URL(req.url ?? '/', 'http://proxy');
		const upstream = httpRequest(
			{
				host: '127.0.0.1',
				port: targetPort,
				method: req.method,
				path: req.url,
				headers: req.headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				if (req.method !== 'GET' || url.pathname !== SIGNED_PATH) {
					answer.pipe(res);
					return;
				}
				const hash = createHash('sha256');
				let bytes = 0;
				answer.on('data', (chunk: Buffer) => {
					hash.update(chunk);
					bytes += chunk.length;
					res.write(chunk);
				});
				answer.on('end', () => {
					fetches.push({
						token: url.searchParams.get('token') ?? '',
						userAgent: String(req.headers['user-agent'] ?? ''),
						status: answer.statusCode ?? 0,
						bytes,
						sha256: hash.digest('hex'),
						contentType: String(answer.headers['content-type'] ?? ''),
					});
					res.end();
				});
			},
		);
		upstream.on('error', (error) => {
			if (!res.headersSent) res.writeHead(502);
			res.end(`proxy: ${error.message}`);
		});
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: `http://127.0.0.1:${port}/`,
		fetches,
		setTarget: (next) => (targetPort = next),
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** The token of a signed link, or '' when the URL is not one. */
export function linkToken(link: string): string {
	try {
		return new URL(link).searchParams.get('token') ?? '';
	} catch {
		return '';
	}
}

/**
 * The link as the node's items and messages show it: its address, the token left out (the node
 * writes `[redacted]` in its place).
 */
export function shownLink(link: string): string {
	const token = linkToken(link);
	return token ? link.replace(token, '[redacted]') : link;
}

export interface LinkClaims {
	/** The binary data id the link opens. */
	id?: string;
	lifetimeSeconds?: number;
	/** When the link stops working, in ms since the epoch. */
	expiresAt?: number;
}

/**
 * What n8n signed into the token: the binary data id it opens and the link's lifetime. Read from
 * the token's payload (a JWT; n8n checks its signature when the link is opened).
 */
export function linkClaims(link: string): LinkClaims {
	const payload = linkToken(link).split('.')[1];
	if (!payload) return {};
	try {
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
			id?: string;
			iat?: number;
			exp?: number;
		};
		return {
			id: claims.id,
			lifetimeSeconds:
				claims.exp !== undefined && claims.iat !== undefined ? claims.exp - claims.iat : undefined,
			expiresAt: claims.exp !== undefined ? claims.exp * 1000 : undefined,
		};
	} catch {
		return {};
	}
}

/** Opens a signed link as anyone holding it would, through n8n's public address. */
export async function openLink(link: string): Promise<{ status: number; bytes: Buffer }> {
	const response = await fetch(link);
	return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * The photo went to the service through n8n's own link: the service was given a signed link at
 * n8n's public address (the proxy), fetched it once itself, and n8n answered it with the
 * submitted file's exact bytes, as an image. Returns the link's claims for the summary.
 */
export function checkThroughN8nLink(
	report: Report,
	group: string,
	proxy: FrontProxy,
	sentUrl: string,
	photo: Buffer,
): LinkClaims {
	let link: URL | undefined;
	try {
		link = new URL(sentUrl);
	} catch {
		// reported below
	}
	const token = linkToken(sentUrl);
	report.check(
		group,
		`the service got n8n's own signed link (${new URL(proxy.url).origin}${SIGNED_PATH}?token=…, n8n's public address)`,
		!!link &&
			`${link.origin}/` === proxy.url &&
			link.pathname === SIGNED_PATH &&
			token.length > 0 &&
			[...link.searchParams.keys()].join() === 'token',
		sentUrl,
	);
	const byService = proxy.fetches.filter(
		(entry) => entry.token === token && entry.userAgent === SERVICE_USER_AGENT,
	);
	report.equal(
		group,
		"the service's input: it fetched the link once, from n8n, and n8n answered with the submitted file's bytes (SHA-256, size, type)",
		byService.map((entry) => [entry.status, entry.sha256, entry.bytes, entry.contentType]),
		[[200, sha256(photo), photo.length, 'image/png']],
	);
	return linkClaims(sentUrl);
}

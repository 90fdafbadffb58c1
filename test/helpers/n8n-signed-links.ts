/**
 * n8n's `GET /rest/binary-data/signed?token=…` as its main process serves it, on loopback: the
 * token checked by n8n-core's own `validateSignedToken` (400 when bad or expired), the file
 * streamed from n8n-core's binary data service with its stored content type (404 when gone).
 * Every request is recorded with what was sent, so a test can tell what the service received.
 */
import { createHash } from 'node:crypto';

import type { BinaryStore } from './binary-store';
import { startServer, type LocalServer } from './local-server';

export interface SignedLinkFetch {
	status: number;
	/** The binary data id the token opened, when it was valid. */
	id?: string;
	/** SHA-256 of the bytes sent, on a 200. */
	sha256?: string;
}

export interface SignedLinkServer {
	/** n8n's REST address, as `additionalData.restApiUrl` gives it to the nodes. */
	restApiUrl: string;
	fetches: SignedLinkFetch[];
	/** Ids whose files are gone (as after n8n pruned the execution): 404. */
	gone: Set<string>;
	close(): Promise<void>;
}

export async function startSignedLinkServer(files: BinaryStore): Promise<SignedLinkServer> {
	const fetches: SignedLinkFetch[] = [];
	const gone = new Set<string>();
	const server: LocalServer = await startServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://n8n');
		if (req.method !== 'GET' || url.pathname !== '/rest/binary-data/signed') {
			res.writeHead(404).end();
			return;
		}
		let id: string;
		try {
			id = files.idOfToken(url.searchParams.get('token') ?? '');
		} catch {
			fetches.push({ status: 400 });
			res.writeHead(400).end('Invalid token');
			return;
		}
		if (gone.has(id)) {
			fetches.push({ status: 404, id });
			res.writeHead(404).end();
			return;
		}
		void files.read(id).then(
			({ bytes, mimeType }) => {
				fetches.push({ status: 200, id, sha256: createHash('sha256').update(bytes).digest('hex') });
				res.writeHead(200, {
					'content-type': mimeType ?? 'application/octet-stream',
					'content-length': bytes.length,
					'content-disposition': 'attachment',
				});
				res.end(bytes);
			},
			() => {
				fetches.push({ status: 404, id });
				res.writeHead(404).end();
			},
		);
	});
	return {
		restApiUrl: `${server.url}/rest`,
		fetches,
		gone,
		close: async () => await server.close(),
	};
}

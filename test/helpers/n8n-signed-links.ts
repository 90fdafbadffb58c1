/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * n8n's `GET /rest/binary-data/signed?token=…` for the tests and the bench, on loopback, in the
 * process that runs the node, as n8n's main process serves it in regular mode: the token checked
 * by n8n-core's own `validateSignedToken`, the id checked as n8n's controller checks it, the
 * headers n8n sets (its stored size, type and file name), then the file streamed from n8n-core's
 * binary data service, never held whole. 400 for a bad or expired token, 404 for a file that is
 * gone. Every answer is recorded with the SHA-256 of what went out.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, type Readable } from 'node:stream';

/** What the stand-in uses of n8n-core's `BinaryDataService`. */
export interface SignedFiles {
	validateSignedToken(token: string): string;
	getMetadata(id: string): Promise<{ fileName?: string; mimeType?: string; fileSize: number }>;
	getAsStream(id: string, chunkSize?: number): Promise<Readable>;
}

/** One answer: its status, the id its token opened, and on a 200 the SHA-256 of what went out. */
export interface SignedLinkFetch {
	status: number;
	id?: string;
	sha256?: string;
}

export interface SignedLinkStandIn {
	/** n8n's REST address, as `additionalData.restApiUrl` gives it to the nodes. */
	restApiUrl: string;
	/** Answers by status (`ok`: the whole file went out), the bytes sent, and answers cut short. */
	answered: { ok: number; refused: number; gone: number; bytes: number; cut: string[] };
	/** Every answer, in order. */
	fetches: SignedLinkFetch[];
	/** Ids whose files are gone (as after n8n pruned the execution): 404. */
	gone: Set<string>;
	close(): Promise<void>;
}

/** A stored id as n8n's controller accepts it: `<mode>:<path>`, a stored mode, no `..`. */
function validId(id: unknown): id is string {
	if (typeof id !== 'string') return false;
	const separator = id.indexOf(':');
	if (separator <= 0) return false;
	const mode = id.slice(0, separator);
	const path = id.slice(separator + 1);
	return (
		['filesystem', 'filesystem-v2', 'database', 's3'].includes(mode) &&
		!['', '/', '//'].includes(path) &&
		!path.split(/[/\\]/).includes('..')
	);
}

export async function startSignedLinkStandIn(files: SignedFiles): Promise<SignedLinkStandIn> {
	const answered = { ok: 0, refused: 0, gone: 0, bytes: 0, cut: [] as string[] };
	const fetches: SignedLinkFetch[] = [];
	const gone = new Set<string>();
	const server: Server = createServer((req, res) => {
		req.resume();
		const url = new URL(req.url ?? '/', 'http://n8n');
		if (req.method !== 'GET' || url.pathname !== '/rest/binary-data/signed') {
			res.writeHead(404).end();
			return;
		}
		let id: string;
		try {
			id = files.validateSignedToken(url.searchParams.get('token') ?? '');
			if (!validId(id)) throw new Error('Malformed binary data ID');
		} catch (error) {
			answered.refused++;
			fetches.push({ status: 400 });
			res.writeHead(400).end((error as Error).message);
			return;
		}
		void (async () => {
			try {
				if (gone.has(id)) throw new Error('gone');
				const metadata = await files.getMetadata(id);
				const stream = await files.getAsStream(id);
				res.writeHead(200, {
					'content-length': metadata.fileSize,
					'content-type': metadata.mimeType ?? 'application/octet-stream',
					'content-disposition': metadata.fileName
						? `attachment; filename="${encodeURIComponent(metadata.fileName)}"`
						: 'attachment',
				});
				let sent = 0;
				const hash = createHash('sha256');
				let digest: string | undefined;
				// Recorded as the file's last bytes are read, before they are written on: whoever got
				// the whole file finds its fetch already recorded.
				const record = () => {
					if (digest !== undefined) return;
					digest = hash.digest('hex');
					fetches.push({ status: 200, id, sha256: digest });
				};
				stream.on('data', (chunk: Buffer) => {
					sent += chunk.length;
					hash.update(chunk);
					if (sent >= metadata.fileSize) record();
				});
				pipeline(stream, res, (error) => {
					answered.bytes += sent;
					record();
					if (sent === metadata.fileSize) answered.ok++;
					else
						answered.cut.push(
							`${sent} of ${metadata.fileSize} bytes: ${error?.message ?? 'no error'}`,
						);
				});
			} catch {
				answered.gone++;
				fetches.push({ status: 404, id });
				if (!res.headersSent) res.writeHead(404);
				res.end();
			}
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		restApiUrl: `http://127.0.0.1:${port}/rest`,
		answered,
		fetches,
		gone,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * A real HTTP server on loopback, for what nock cannot stand in for: redirects followed by the
 * HTTP client, answers that never come, and whether the client really dropped a request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
	method: string;
	path: string;
	headers: IncomingMessage['headers'];
	/** True once the client closed the connection before an answer was sent. */
	abandoned: boolean;
	/** Settles when the exchange is over: answered, or dropped by either side. */
	closed: Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void;

export interface LocalServer {
	url: string;
	seen: SeenRequest[];
	close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<LocalServer> {
	const seen: SeenRequest[] = [];
	const open = new Set<ServerResponse>();
	const server: Server = createServer((req, res) => {
		let ended = () => {};
		const entry: SeenRequest = {
			method: req.method ?? '',
			path: req.url ?? '',
			headers: req.headers,
			abandoned: false,
			closed: new Promise<void>((resolve) => (ended = resolve)),
		};
		seen.push(entry);
		open.add(res);
		res.on('close', () => {
			if (!res.writableFinished) entry.abandoned = true;
			open.delete(res);
			ended();
		});
		req.resume();
		req.on('end', () => handler(req, res, entry));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () => {
			for (const res of open) res.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Leaves a request unanswered until the client drops it or the server closes (no socket timeout). */
export function hold(res: ServerResponse): void {
	res.setTimeout(0);
}

/** Leaves a request unanswered, then drops it (so that a client that never gives up cannot hang a test). */
export function stall(res: ServerResponse, ms: number): void {
	setTimeout(() => res.destroy(), ms);
}

/** Answers with a JSON text, exactly as given. */
export function sendJson(res: ServerResponse, text: string, status = 200): void {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(text);
}

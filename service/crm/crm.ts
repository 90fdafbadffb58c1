/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// A small stand-in for a brokerage CRM's REST API, the other end of a "listing ready for photos"
// automation: `PATCH /api/v1/listings/{id}/photos` stores the photo results the automation sends
// back, `GET /api/v1/listings/{id}` reads the record, both behind a bearer token. Tests read back
// every write as it arrived. It is not part of the Ideal House stand-in and imports nothing of it.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface CrmWrite {
	listingId: string;
	/** The JSON body as received. */
	body: unknown;
	receivedAt: number;
}

export interface CrmStubOptions {
	port?: number;
	host?: string;
	/** Default 'local-crm-token'. */
	token?: string;
}

export interface RunningCrmStub {
	baseUrl: string;
	token: string;
	/** Every accepted write, in arrival order. */
	writes(): CrmWrite[];
	/** Requests refused (bad token, bad body, unknown path), with the reason given. */
	refused(): Array<{ method: string; url: string; status: number; reason: string }>;
	close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

function answer(response: http.ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify(body));
}

async function readBody(request: http.IncomingMessage): Promise<string | undefined> {
	const parts: Buffer[] = [];
	let size = 0;
	for await (const part of request as AsyncIterable<Buffer>) {
		size += part.length;
		if (size > MAX_BODY) return undefined;
		parts.push(part);
	}
	return Buffer.concat(parts).toString('utf8');
}

export async function startCrmStub(options: CrmStubOptions = {}): Promise<RunningCrmStub> {
	const token = options.token ?? 'local-crm-token';
	const writes: CrmWrite[] = [];
	const refused: Array<{ method: string; url: string; status: number; reason: string }> = [];
	const records = new Map<string, { listingId: string; photos: unknown; updatedAt: string }>();

	const refuse = (
		request: http.IncomingMessage,
		response: http.ServerResponse,
		status: number,
		reason: string,
	) => {
		refused.push({ method: request.method ?? '', url: request.url ?? '', status, reason });
		answer(response, status, { error: reason });
	};

	const server = http.createServer((request, response) => {
		void (async () => {
			const url = new URL(request.url ?? '/', 'http://crm.invalid');
			const match = /^\/api\/v1\/listings\/([^/]+)(\/photos)?$/.exec(url.pathname);
			if (!match) return refuse(request, response, 404, `no route ${url.pathname}`);
			if (request.headers.authorization !== `Bearer ${token}`)
				return refuse(request, response, 401, 'a valid bearer token is required');
			const listingId = decodeURIComponent(match[1]);
			if (!match[2] && request.method === 'GET') {
				const record = records.get(listingId);
				return record
					? answer(response, 200, record)
					: refuse(request, response, 404, `no listing ${listingId}`);
			}
			if (!match[2] || request.method !== 'PATCH')
				return refuse(request, response, 405, 'use PATCH /api/v1/listings/{id}/photos');
			if (!/^application\/json\b/i.test(request.headers['content-type'] ?? ''))
				return refuse(request, response, 415, 'Content-Type must be application/json');
			const text = await readBody(request);
			if (text === undefined) return refuse(request, response, 413, 'body larger than 1 MB');
			let body: unknown;
			try {
				body = JSON.parse(text);
			} catch {
				return refuse(request, response, 400, 'the body is not JSON');
			}
			const photos = (body as { photos?: unknown } | null)?.photos;
			if (!Array.isArray(photos))
				return refuse(request, response, 422, 'the body needs a "photos" list');
			writes.push({ listingId, body, receivedAt: Date.now() });
			const record = { listingId, photos, updatedAt: new Date().toISOString() };
			records.set(listingId, record);
			answer(response, 200, record);
		})().catch((error: Error) => {
			if (!response.headersSent) answer(response, 500, { error: error.message });
		});
	});
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://${options.host ?? '127.0.0.1'}:${port}`,
		token,
		writes: () => structuredClone(writes),
		refused: () => structuredClone(refused),
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

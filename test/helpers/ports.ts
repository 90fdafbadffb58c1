/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development code, not part of the package */
import { createServer } from 'node:net';

/** A TCP port on the loopback that is free right now. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as { port: number };
			server.close(() => resolve(port));
		});
	});
}

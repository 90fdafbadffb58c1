/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console */
// CLI: `npm run crm` starts the CRM stand-in on a fixed port, for the CRM example
// (examples/crm-webhook-enhance.json) in a local n8n; it prints every write it receives.
import { startCrmStub } from './crm.ts';

async function main(): Promise<void> {
	const port = Number(process.env.CRM_PORT ?? 8789);
	const crm = await startCrmStub({ port, token: process.env.CRM_TOKEN });
	console.log(
		`CRM stand-in on ${crm.baseUrl}: PATCH /api/v1/listings/{id}/photos, GET /api/v1/listings/{id}`,
	);
	console.log(`  bearer token: ${crm.token}`);
	console.log('Ctrl+C stops it.');
	let seen = 0;
	const timer = setInterval(() => {
		const writes = crm.writes();
		for (const write of writes.slice(seen))
			console.log(`write for ${write.listingId}: ${JSON.stringify(write.body)}`);
		seen = writes.length;
	}, 500);
	const stop = () => {
		clearInterval(timer);
		void crm.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();

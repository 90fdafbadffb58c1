/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console */
// CLI: `npm run mls-feed` starts the MLS feed stand-in on a fixed port with two sample listings,
// for the scheduled example (examples/scheduled-mls-enhance.json) in a local n8n.
import { startMlsFeed } from './feed.ts';

async function main(): Promise<void> {
	const port = Number(process.env.MLS_FEED_PORT ?? 8788);
	const feed = await startMlsFeed({ port, token: process.env.MLS_FEED_TOKEN });
	feed.addListing({
		listingKey: 'L1001',
		address: '12 Harbour View',
		photos: ['Photo', 'Photo', 'Photo'],
	});
	feed.addListing({ listingKey: 'L1002', address: '7 Orchard Lane', photos: ['Photo', 'Photo'] });
	console.log(`MLS feed stand-in (RESO Web API shape) on ${feed.baseUrl}`);
	console.log(
		`  service root: ${feed.serviceRoot}  (GET /Property?$filter=...&$expand=Media&$top=...)`,
	);
	console.log(`  bearer token: ${feed.token}`);
	console.log(
		`  listings: ${feed
			.listings()
			.map((listing) => `${listing.ListingKey} (${listing.Media.length} photos)`)
			.join(', ')}`,
	);
	console.log('Ctrl+C stops it.');
	const stop = () => void feed.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

void main();

// The MLS feed stand-in: the RESO Web API shape (OData Property with $filter on
// ModificationTimestamp, $expand=Media, $top and @odata.nextLink paging, bearer token), its
// changes (new listings, added and replaced photos), its request log, and photos the local
// Ideal House service accepts.
import { type RunningMlsFeed, startMlsFeed } from '../../service/mls/feed.ts';
import { parseFilter } from '../../service/mls/filter.ts';
import { decodePngSize, idOf } from './helpers.ts';
import { useService } from './local-service.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TOKEN = 'feed-test-token';

async function get(feed: RunningMlsFeed, pathOrUrl: string, token: string | null = TOKEN) {
	const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${feed.serviceRoot}${pathOrUrl}`;
	const response = await fetch(url, {
		headers: token === null ? {} : { Authorization: `Bearer ${token}` },
	});
	return {
		status: response.status,
		headers: response.headers,
		json: (await response.json()) as Json,
	};
}

const query = (options: Record<string, string>) =>
	`/Property?${new URLSearchParams(options).toString()}`;

describe('MLS feed stand-in', () => {
	let feed: RunningMlsFeed;
	let time: number;

	beforeEach(async () => {
		time = Date.parse('2026-11-23T10:00:00.000Z');
		feed = await startMlsFeed({ token: TOKEN, photoWidth: 320, photoHeight: 240, now: () => time });
	});
	afterEach(() => feed.close());

	it('refuses requests without the bearer token, with an OData error and WWW-Authenticate', async () => {
		for (const token of [null, 'wrong']) {
			const answer = await get(feed, '/Property', token);
			expect(answer.status).toBe(401);
			expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
			expect(answer.json).toEqual({ error: { code: 'Unauthorized', message: expect.any(String) } });
		}
	});

	it('returns Property records with their Media when $expand=Media, and without it otherwise', async () => {
		feed.addListing({ listingKey: 'A1', address: '1 Quay', photos: ['Photo', 'Floor Plan'] });
		const expanded = await get(feed, query({ $expand: 'Media' }));
		expect(expanded.status).toBe(200);
		expect(expanded.headers.get('odata-version')).toBe('4.0');
		expect(expanded.json['@odata.context']).toBe(`${feed.baseUrl}/reso/odata/$metadata#Property`);
		expect(expanded.json.value).toEqual([
			{
				ListingKey: 'A1',
				ListingId: 'MLS-A1',
				StandardStatus: 'Active',
				UnparsedAddress: '1 Quay',
				ListPrice: 450000,
				PhotosCount: 2,
				ModificationTimestamp: '2026-11-23T10:00:00.000Z',
				Media: [1, 2].map((order) => ({
					MediaKey: `A1-M${order}`,
					ResourceRecordKey: 'A1',
					ResourceName: 'Property',
					MediaURL: `${feed.baseUrl}/media/A1-M${order}/1.png`,
					MediaCategory: order === 1 ? 'Photo' : 'Floor Plan',
					MediaType: 'png',
					Order: order,
					ImageWidth: 320,
					ImageHeight: 240,
					ModificationTimestamp: '2026-11-23T10:00:00.000Z',
				})),
			},
		]);
		const plain = await get(feed, '/Property');
		expect(plain.json.value[0].Media).toBeUndefined();
		expect(plain.json.value[0].PhotosCount).toBe(2);
	});

	it('filters on ModificationTimestamp and pages with $top and @odata.nextLink', async () => {
		for (const key of ['A', 'B', 'C', 'D', 'E']) {
			feed.addListing({ listingKey: key, photos: ['Photo'] });
			time += 60_000;
		}
		const filter = 'ModificationTimestamp gt 2026-11-23T10:00:30Z';
		const pages: string[][] = [];
		let answer = await get(feed, query({ $filter: filter, $expand: 'Media', $top: '2' }));
		for (;;) {
			expect(answer.status).toBe(200);
			pages.push(answer.json.value.map((property: Json) => property.ListingKey));
			const next = answer.json['@odata.nextLink'];
			if (!next) break;
			expect(new URL(next).searchParams.get('$filter')).toBe(filter);
			answer = await get(feed, next);
		}
		expect(pages).toEqual([
			['B', 'C'],
			['D', 'E'],
		]);
		const between = await get(
			feed,
			query({
				$filter:
					'ModificationTimestamp ge 2026-11-23T10:01:00Z and ModificationTimestamp lt 2026-11-23T10:03:00Z',
			}),
		);
		expect(between.json.value.map((property: Json) => property.ListingKey)).toEqual(['B', 'C']);
		const counted = await get(feed, query({ $filter: filter, $count: 'true', $top: '1' }));
		expect(counted.json['@odata.count']).toBe(4);
	});

	it('moves the timestamps and MediaURL when a photo is replaced or added, and keeps the rest', async () => {
		feed.addListing({ listingKey: 'A1', photos: ['Photo', 'Photo'] });
		feed.addListing({ listingKey: 'B1', photos: ['Photo'] });
		time += 5_000;
		const replaced = feed.replacePhoto('A1-M2');
		expect(replaced).toMatchObject({
			MediaKey: 'A1-M2',
			MediaURL: `${feed.baseUrl}/media/A1-M2/2.png`,
			ModificationTimestamp: '2026-11-23T10:00:05.000Z',
		});
		const added = feed.addPhoto('B1', 'Photo');
		expect(added).toMatchObject({
			MediaKey: 'B1-M2',
			Order: 2,
			ModificationTimestamp: '2026-11-23T10:00:05.001Z',
		});
		const changed = await get(
			feed,
			query({ $filter: 'ModificationTimestamp gt 2026-11-23T10:00:01Z', $expand: 'Media' }),
		);
		const byKey = Object.fromEntries(changed.json.value.map((p: Json) => [p.ListingKey, p]));
		expect(Object.keys(byKey)).toEqual(['A1', 'B1']);
		expect(byKey.A1.Media.map((m: Json) => m.ModificationTimestamp)).toEqual([
			'2026-11-23T10:00:00.000Z',
			'2026-11-23T10:00:05.000Z',
		]);
		// The old link stays online (as a CDN's does); both are different pictures.
		const [oldBytes, newBytes] = await Promise.all(
			[1, 2].map(async (revision) =>
				Buffer.from(
					await (await fetch(`${feed.baseUrl}/media/A1-M2/${revision}.png`)).arrayBuffer(),
				),
			),
		);
		expect(decodePngSize(newBytes)).toEqual({ width: 320, height: 240 });
		expect(oldBytes.equals(newBytes)).toBe(false);
		expect((await fetch(`${feed.baseUrl}/media/A1-M2/3.png`)).status).toBe(404);
		expect(() => feed.replacePhoto('nope')).toThrow('no media nope');
		expect(() => feed.addListing({ listingKey: 'A1' })).toThrow('exists already');
	});

	it('answers unsupported or repeated query options with 400 and the reason', async () => {
		const cases: Array<[string, RegExp]> = [
			[query({ $filter: 'ListPrice gt 5' }), /not supported/],
			[query({ $expand: 'Rooms' }), /Media only/],
			[query({ $top: 'ten' }), /\$top must be a whole number/],
			[query({ $select: 'ListingKey' }), /unsupported query option \$select/],
			[query({ $orderby: 'ListPrice desc' }), /\$orderby/],
			['/Property?$top=1&$top=2', /\$top is given twice/],
		];
		for (const [path, reason] of cases) {
			const answer = await get(feed, path);
			expect(answer.status).toBe(400);
			expect(answer.json.error.message).toMatch(reason);
		}
	});

	it('logs every request with its query options and the listings returned, and counts downloads', async () => {
		feed.addListing({ listingKey: 'A1', photos: ['Photo'] });
		await get(feed, query({ $expand: 'Media', $top: '5' }));
		await get(feed, '/Property', 'wrong');
		await fetch(`${feed.baseUrl}/media/A1-M1/1.png`);
		expect(
			feed
				.requests()
				.map(({ status, query: options, returned }) => ({ status, options, returned })),
		).toEqual([
			{ status: 200, options: { $expand: 'Media', $top: '5' }, returned: ['A1'] },
			{ status: 401, options: undefined, returned: undefined },
			{ status: 200, options: undefined, returned: undefined },
		]);
		expect(feed.downloads()).toEqual({ [`${feed.baseUrl}/media/A1-M1/1.png`]: 1 });
	});

	describe('its photos in the local Ideal House service', () => {
		const service = useService();

		it('are fetched and accepted as photos to enhance', async () => {
			const listing = feed.addListing({ listingKey: 'A1', photos: ['Photo'] });
			const created = await service.generate('photoEnhancer', {
				imageUrl: listing.Media[0].MediaURL,
				presetId: 'image-optimization-mls-photo-enhancement',
				imageSize: '1K',
			});
			expect(idOf(created)).toMatch(/^\d+$/);
			expect(feed.downloads()[listing.Media[0].MediaURL]).toBe(1);
		});
	});
});

describe('parseFilter', () => {
	it('reads comparisons of ModificationTimestamp joined by and', () => {
		expect(parseFilter('ModificationTimestamp gt 2026-11-23T10:00:00Z')).toEqual([
			{ operator: 'gt', time: Date.parse('2026-11-23T10:00:00Z') },
		]);
		expect(
			parseFilter(
				'(ModificationTimestamp ge 2026-11-23T10:00:00.123+01:00) and ModificationTimestamp le 2026-11-24T00:00Z',
			),
		).toEqual([
			{ operator: 'ge', time: Date.parse('2026-11-23T09:00:00.123Z') },
			{ operator: 'le', time: Date.parse('2026-11-24T00:00Z') },
		]);
	});

	it('refuses other fields, quoted dates and or', () => {
		for (const filter of [
			"ModificationTimestamp gt '2026-11-23T10:00:00Z'",
			'ModificationTimestamp gt 2026-11-23',
			'ModificationTimestamp gt 2026-11-23T10:00:00Z or ModificationTimestamp lt 2026-11-23T11:00:00Z',
			'StandardStatus eq Active',
		])
			expect(parseFilter(filter)).toEqual(expect.stringContaining('is not supported'));
	});
});

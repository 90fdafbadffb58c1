// The rate limit per API key: off by default, HTTP 429 with Retry-After beyond it, counted by the
// service's clock over any one-second window, settable in every way the other settings are.
import type { RunningService } from '../../service/server.ts';
import { call, FakeClock, generate, idOf, result, sample, start, startCli } from './helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let service: RunningService | undefined;
afterEach(async () => {
	await service?.close();
	service = undefined;
});

const read = (running: RunningService, apiKey?: string) =>
	result(running, 'photoEnhancer', '1', apiKey === undefined ? {} : { apiKey });

/** A create the service would accept. */
const enhancement = (running: RunningService) => ({
	imageUrl: sample(running, 'living-room.png'),
	presetId: 'image-optimization-mls-photo-enhancement',
	imageSize: '512',
});

async function stats(running: RunningService): Promise<Json> {
	return (await (await fetch(`${running.baseUrl}/__admin/stats`)).json()) as Json;
}

describe('rate limit per API key', () => {
	it('is off by default: 60 requests in one instant are all answered', async () => {
		const clock = new FakeClock();
		service = await start({ now: clock.now });
		const answers = await Promise.all(Array.from({ length: 60 }, () => read(service!)));

		expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(200));
		expect(service.stats().rateLimited).toEqual({ total: 0, byKey: {} });
	});

	it('beyond the limit answers HTTP 429 with Retry-After and a 1003 envelope, acting on nothing', async () => {
		const clock = new FakeClock();
		service = await start({ now: clock.now, rateLimit: 3, accounts: { k: 100 } });
		for (let i = 0; i < 3; i++) expect((await read(service, 'k')).status).toBe(200);
		clock.advance(400);
		const refused = await generate(service, 'photoEnhancer', enhancement(service), { apiKey: 'k' });

		expect(refused.status).toBe(429);
		// The first accepted request leaves the window 600 ms from now: a whole second, rounded up.
		expect(refused.headers.get('retry-after')).toBe('1');
		expect(refused.json).toEqual({
			code: 1003,
			message: 'too many requests: at most 3 a second per API key; retry after 1 s',
			data: null,
		});
		expect(service.balance('k')).toBe(100);
		expect(service.stats().tasks).toEqual([]);
		expect(service.stats().rateLimited).toEqual({ total: 1, byKey: { k: 1 } });
		expect(service.stats().requests.byStatus).toEqual({ '200': 3, '429': 1 });
	});

	it('counts any one-second window by arrival, and a refused request takes no place in it', async () => {
		const clock = new FakeClock();
		service = await start({ now: clock.now, rateLimit: 2, accounts: { k: 100 } });
		const statusAt = async (ms: number) => {
			clock.advance(ms);
			return (await read(service!, 'k')).status;
		};

		// Accepted at 0 and 500; refused at 900 and 999; at 1000 the first has left the window.
		expect([
			await statusAt(0),
			await statusAt(500),
			await statusAt(400),
			await statusAt(99),
		]).toEqual([200, 200, 429, 429]);
		expect(await statusAt(1)).toBe(200);
		// Now 500 and 1000 are in it: 1499 is refused, 1500 accepted.
		expect([await statusAt(499), await statusAt(1)]).toEqual([429, 200]);
		expect(service.stats().rateLimited.total).toBe(3);
	});

	it('keeps each key to its own limit, and leaves requests without a known key to their 5002', async () => {
		const clock = new FakeClock();
		service = await start({ now: clock.now, rateLimit: 1, accounts: { a: 10, b: 10 } });

		expect((await read(service, 'a')).status).toBe(200);
		expect((await read(service, 'b')).status).toBe(200);
		expect((await read(service, 'a')).status).toBe(429);
		for (let i = 0; i < 3; i++) {
			const unknown = await read(service, 'nobody');
			expect([unknown.status, unknown.json.code]).toEqual([200, 5002]);
		}
		expect(service.stats().rateLimited).toEqual({ total: 1, byKey: { a: 1 } });
	});

	it('a create refused by the limit charges nothing; the same create a second later does', async () => {
		const clock = new FakeClock();
		service = await start({ now: clock.now, rateLimit: 1, accounts: { k: 100 } });
		const body = enhancement(service);
		await read(service, 'k');

		expect((await generate(service, 'photoEnhancer', body, { apiKey: 'k' })).status).toBe(429);
		clock.advance(1000);
		const created = await generate(service, 'photoEnhancer', body, { apiKey: 'k' });

		expect(created.status).toBe(200);
		expect(idOf(created)).toMatch(/^\d+$/);
		expect(service.balance('k')).toBe(90);
		expect(service.stats().tasks).toHaveLength(1);
	});

	it('is set with POST /__admin/config like the other settings, checked, and kept across a reset', async () => {
		const clock = new FakeClock();
		service = await start({ now: clock.now });
		const config = async (body: unknown) => {
			const response = await fetch(`${service!.baseUrl}/__admin/config`, {
				method: 'POST',
				body: JSON.stringify(body),
			});
			return { status: response.status, json: (await response.json()) as Json };
		};

		for (const bad of [-1, 1.5, '5', null]) {
			const refused = await config({ rateLimit: bad });
			expect(refused.status).toBe(400);
			expect(refused.json.error).toMatch(/rateLimit/);
		}
		expect((await config({ rateLimit: 2 })).json.config.rateLimit).toBe(2);
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await read(service)).status);
		expect(statuses).toEqual([200, 200, 429]);
		expect((await stats(service)).rateLimited.total).toBe(1);

		// A reset goes back to the start options (no limit) and clears the counts.
		await fetch(`${service.baseUrl}/__admin/reset`, { method: 'POST' });
		expect((await stats(service)).rateLimited).toEqual({ total: 0, byKey: {} });
		const afterReset = await Promise.all(Array.from({ length: 5 }, () => read(service!)));
		expect(afterReset.map((answer) => answer.status)).toEqual(Array(5).fill(200));
	});

	it('counts the style config and unknown methods of a key too', async () => {
		const clock = new FakeClock();
		service = await start({ now: clock.now, rateLimit: 2 });

		expect((await call(service, 'GET', '/api/v1/style/landscaping/getStyles')).status).toBe(200);
		expect((await call(service, 'DELETE', '/api/v1/photoEnhancer/generate')).status).toBe(405);
		expect((await read(service)).status).toBe(429);
	});
});

describe('rate limit from the CLI', () => {
	it('--rate-limit N sets the limit and says so at start-up', async () => {
		const cli = await startCli(['--rate-limit', '7']);
		try {
			expect(cli.output()).toContain('Rate limit: 7 requests a second per API key');
			const config = (await (await fetch(`${cli.baseUrl}/__admin/config`)).json()) as Json;
			expect(config.config.rateLimit).toBe(7);
		} finally {
			expect(await cli.stop()).toBe(0);
		}
	});
});

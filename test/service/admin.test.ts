// Admin endpoints, programmatic controls, sample images and the CLI.
import type { RunningService } from '../../service/server.ts';
import { startService } from '../../service/server.ts';
import { sampleBytes } from '../../service/samples.ts';
import { inspectImage } from '../../service/images.ts';
import { decodePng, expectEnvelopeError, idOf, startCli } from './helpers.ts';
import { useService } from './local-service.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function admin(service: RunningService, method: string, path: string, body?: unknown) {
	const response = await fetch(`${service.baseUrl}/__admin/${path}`, {
		method,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, json: (await response.json()) as Json };
}

describe('admin endpoints', () => {
	const service = useService({ accounts: { first: 50, second: 20 } });

	const enhance = (apiKey = 'first') =>
		service.generate(
			'photoEnhancer',
			{ imageUrl: service.sample('kitchen.png'), prompt: 'x' },
			{ apiKey },
		);

	it('defaults: port 0 on 127.0.0.1, local-dev-key with 1000 credits', async () => {
		const defaults = await startService();
		expect(defaults.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(defaults.apiKey).toBe('local-dev-key');
		expect(defaults.balance('local-dev-key')).toBe(1000);
		await defaults.close();
	});

	it('peakPerSecond is the most API requests that arrived within any one second', async () => {
		const id = idOf(await enhance());
		service.clock.advance(500);
		await service.result('photoEnhancer', id);
		await service.result('photoEnhancer', id);
		// 999 ms after the first: all three within one second.
		service.clock.advance(499);
		await service.result('photoEnhancer', id);
		expect(service.stats().requests.peakPerSecond).toBe(4);
		// One second after the first, it has left the window: still four at most.
		service.clock.advance(1);
		await service.result('photoEnhancer', id);
		expect(service.stats().requests.peakPerSecond).toBe(4);
		service.clock.advance(1);
		for (let k = 0; k < 4; k++) await service.result('photoEnhancer', id);
		expect(service.stats().requests.peakPerSecond).toBe(8);
		// Admin calls, samples and result images are not API requests.
		await admin(service, 'GET', 'stats');
		expect(service.stats().requests.peakPerSecond).toBe(8);
	});

	it('GET /__admin/stats reports the counters, needs no APIKEY and is not counted', async () => {
		const id = idOf(await enhance());
		await service.result('photoEnhancer', id);
		await service.result('photoEnhancer', id, { apiKey: 'wrong' });
		const { status, json } = await admin(service, 'GET', 'stats');
		expect(status).toBe(200);
		expect(json).toEqual(service.stats());
		expect(json.requests).toEqual({
			total: 3,
			byEndpoint: {
				'photoEnhancer.generate': { total: 1, byStatus: { 200: 1 } },
				'photoEnhancer.result': { total: 2, byStatus: { 200: 2 } },
			},
			byStatus: { 200: 3 },
			byCode: { 0: 2, 5002: 1 },
			peakPerSecond: 3,
		});
		expect(json.tasksCreated).toEqual({
			total: 1,
			byKey: { first: 1 },
			byEndpoint: { 'photoEnhancer.generate': 1 },
		});
		expect(json.credits).toEqual({
			charged: 10,
			refunded: 0,
			byKey: { first: { charged: 10, refunded: 0 } },
		});
		expect(json.balances).toEqual({ first: 40, second: 20 });
		expect(json.tasks).toEqual([
			expect.objectContaining({
				id,
				apiKey: 'first',
				kind: 'photoEnhancer',
				cost: 10,
				refunded: false,
			}),
		]);
	});

	it('POST /__admin/config merges settings and faults; bad input is refused whole', async () => {
		let response = await admin(service, 'POST', 'config', {
			workers: 1,
			faults: { http503: 0.25 },
		});
		expect(response.status).toBe(200);
		response = await admin(service, 'POST', 'config', {
			faults: { reset: 0.1 },
			bannedWords: ['foo'],
		});
		expect(response.json.config).toMatchObject({
			workers: 1,
			bannedWords: ['foo'],
			faults: { http503: 0.25, reset: 0.1 },
		});
		const refused = await admin(service, 'POST', 'config', { workers: 2, failureRate: 5 });
		expect(refused.status).toBe(400);
		expect(refused.json.error).toMatch(/failureRate/);
		expect((await admin(service, 'GET', 'config')).json.config.workers).toBe(1);
		expect((await admin(service, 'POST', 'config', { port: 1 })).json.error).toMatch(
			/port cannot be changed/,
		);
		expect((await admin(service, 'POST', 'config', { nonsense: 1 })).json.error).toMatch(
			/unknown setting "nonsense"/,
		);
		expect((await admin(service, 'POST', 'config', { faults: null })).json.config.faults).toEqual(
			{},
		);
		expectEnvelopeError(
			await service.generate(
				'photoEnhancer',
				{ imageUrl: service.sample('kitchen.png'), prompt: 'some foo' },
				{ apiKey: 'first' },
			),
			9010,
		);
	});

	it('POST /__admin/accounts sets balances and adds keys', async () => {
		const response = await admin(service, 'POST', 'accounts', { second: 0, third: 15 });
		expect(response.json).toEqual({ ok: true, balances: { first: 50, second: 0, third: 15 } });
		expectEnvelopeError(await enhance('second'), 9051);
		expect((await enhance('third')).json.code).toBe(0);
		expect(service.balance('third')).toBe(5);
		expect((await admin(service, 'POST', 'accounts', { x: -1 })).status).toBe(400);
		expect((await admin(service, 'POST', 'accounts', { x: 1.5 })).status).toBe(400);
	});

	it('POST /__admin/reset returns to the starting state', async () => {
		service.configure({ failureRate: 1 });
		service.setAccount('new', 9);
		const id = idOf(await enhance());
		expect((await admin(service, 'POST', 'reset')).json).toEqual({ ok: true });
		const stats = service.stats();
		expect(stats.balances).toEqual({ first: 50, second: 20 });
		expect(stats.tasks).toEqual([]);
		expect(stats.requests.total).toBe(0);
		expect((await admin(service, 'GET', 'config')).json.config.failureRate).toBe(0);
		expectEnvelopeError(await service.result('photoEnhancer', id), 1001);
		// Ids start again from the same seed: a reset run repeats the same ids.
		expect(idOf(await enhance())).toBe(id);
	});

	it('answers unknown admin paths 404 with the list of endpoints', async () => {
		const { status, json } = await admin(service, 'GET', 'nothing');
		expect(status).toBe(404);
		expect(json.endpoints).toContain('GET /__admin/stats');
	});

	it('configure() and setAccount() work programmatically, and validate', () => {
		service.configure({ workers: 3, taskDurationMs: 10, accounts: { fourth: 4 } });
		service.setAccount('first', 7);
		expect(service.stats().balances).toEqual({ first: 7, second: 20, fourth: 4 });
		expect(() => service.configure({ workers: 0 })).toThrow(/workers/);
		expect(() => service.setAccount('first', -3)).toThrow(/credits/);
	});
});

describe('sample images', () => {
	const service = useService({}, 'the suite');

	it('lists them at GET /samples with their real sizes', async () => {
		const { samples } = (await (await fetch(`${service.baseUrl}/samples`)).json()) as Json;
		const byName = Object.fromEntries(samples.map((item: { name: string }) => [item.name, item]));
		expect(Object.keys(byName)).toEqual(
			expect.arrayContaining([
				'living-room.png',
				'living-room-mask.png',
				'kitchen.png',
				'exterior.png',
				'bracket-1.png',
				'bracket-2.png',
				'bracket-3.png',
				'tiny.png',
				'not-an-image.png',
			]),
		);
		expect(byName['living-room.png']).toMatchObject({
			width: 1600,
			height: 1200,
			url: service.sample('living-room.png'),
		});
		expect(byName['living-room-mask.png']).toMatchObject({ width: 1600, height: 1200 });
		expect(byName['tiny.png']).toMatchObject({ width: 64, height: 64 });
		expect(byName['not-an-image.png']).toMatchObject({ image: false });
	});

	it('serves them; the mask is black on the sofa and white elsewhere', async () => {
		const response = await fetch(service.sample('living-room-mask.png'));
		expect(response.headers.get('content-type')).toBe('image/png');
		const bytes = Buffer.from(await response.arrayBuffer());
		expect(bytes).toEqual(sampleBytes('living-room-mask.png'));
		expect(inspectImage(bytes)).toMatchObject({ format: 'png', width: 1600, height: 1200 });
		const { rows } = decodePng(bytes);
		expect(rows).toHaveLength(1200);
		expect(rows[800][1000]).toBe(0); // on the sofa of living-room.png
		expect(rows[800][799]).toBe(255);
		expect(rows[100][1000]).toBe(255);
		expect((await fetch(service.sample('nope.png'))).status).toBe(404);
	});
});

describe('CLI (service/main.ts)', () => {
	it('prints the base URL, key and samples, serves, and stops on SIGTERM', async () => {
		// The CLI with fixed arguments, to check startup output and signal handling.
		const cli = await startCli(['--key', 'cli-key=33']);
		const { baseUrl } = cli;
		const output = cli.output();
		expect(output).toContain('API key:  cli-key');
		expect(output).toContain(`${baseUrl}/samples/living-room.png`);
		const stats = (await (await fetch(`${baseUrl}/__admin/stats`)).json()) as Json;
		expect(stats.balances).toEqual({ 'cli-key': 33 });
		expect(await cli.stop()).toBe(0);
	});
});

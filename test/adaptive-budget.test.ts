/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The account's request budget adapts to the service's throttling, through n8n's engine, on
 * virtual time (test/helpers/virtual-time.ts): a 429 lowers the rate at once and answers that go
 * through raise it again; a Retry-After holds every request of the account, other executions'
 * included, until the rate has settled, and then only the refused request; and two processes on
 * one account, each with a budget of its own, settle under the local service's limit per key.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

import { runNode, logLines } from './helpers/engine';
import { clock as nodeClock } from '../nodes/shared/core/clock';
import type { RunningService } from '../service/server.ts';
import { startService } from '../service/server.ts';
import { allowLoopback, api, created, envelope, PE, recorded, requestsTo } from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance } from './helpers/params';
import { VirtualTime } from './helpers/virtual-time';

eachTestOnAFreshWire();

const T0 = 1_000_000;
let time: VirtualTime;
beforeEach(() => {
	time = new VirtualTime(T0);
	time.drive(nodeClock);
});

const items = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { i } }));

/** Photo Enhancer creates, not waiting for the tasks, at `rate` requests a second. */
const enhanceAt = (rate: number) =>
	enhance({ waitForCompletion: false, options: { maxRequestsPerSecond: rate } });

const rateLines = () =>
	logLines.filter((line) => line.includes('requests a second to the account'));

/** How many of `arrivals` fall in [from, to). */
const between = (arrivals: number[], from: number, to: number) =>
	arrivals.filter((at) => at >= from && at < to).length;

describe('a 429 lowers the rate; answers that go through raise it again', () => {
	test('at 10 a second: the 21st create is refused, the rate falls to 7, and is back at 10 within a minute', async () => {
		const arrivals: number[] = [];
		let refusedAt = 0;
		api()
			.post(PE.create)
			.times(521)
			.reply(() => {
				arrivals.push(time.now);
				if (arrivals.length === 21) {
					refusedAt = time.now;
					return [429, envelope('null', 1003, 'too many requests')];
				}
				return [200, created(String(arrivals.length))];
			});

		const { items: emitted, error } = await time.run(
			runNode({ node: 'photoEnhancer', parameters: enhanceAt(10), items: items(520) }),
		);

		expect(error).toBeUndefined();
		expect(emitted).toHaveLength(520);
		expect(emitted.every((item) => item.json.status === 'Unprocessed')).toBe(true);
		// The refused create was sent again, once; nothing else twice.
		expect(requestsTo(PE.create)).toHaveLength(521);
		// Before: ten at once each second. The refusal came with the third ten.
		expect(arrivals.slice(0, 21)).toEqual([
			...Array(10).fill(T0),
			...Array(10).fill(T0 + 1000),
			T0 + 2000,
		]);
		expect(refusedAt).toBe(T0 + 2000);
		// At once: 7 a second, spaced out, and said so in n8n's log.
		expect(rateLines()[0]).toMatch(
			/^debug Ideal House: this process now sends at most 7 requests a second to the account \(was 10\): the service throttled this account /,
		);
		expect(between(arrivals, refusedAt + 1, refusedAt + 2000)).toBeLessThan(20);
		const after = arrivals.filter((at) => at > refusedAt);
		const gaps = after.slice(1).map((at, k) => at - after[k]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(100);
		// Then up again, step by step, and back at the ceiling: ten a second at the end of the run.
		expect(rateLines().some((line) => line.includes(': rising again'))).toBe(true);
		expect(rateLines().at(-1)).toMatch(
			/now sends at most 10 requests a second to the account \(was [\d.]+\): back at Max Requests per Second/,
		);
		const last = arrivals[arrivals.length - 1];
		expect(between(arrivals, last - 4999, last + 1)).toBeGreaterThanOrEqual(48);
		// Never per request: a handful of lines for 521 requests.
		expect(rateLines().length).toBeLessThan(10);
	});
});

describe('a Retry-After holds the whole account', () => {
	test.each([
		['HTTP 429', 429, envelope('null', 1003, 'too many requests')],
		['code 1003 with HTTP 200', 200, envelope('null', 1003, 'busy, retry later')],
	])(
		'%s with Retry-After: 3: another execution on the account waits too, and the refused create goes again',
		async (_case, status, body) => {
			let refusedAt = 0;
			let resentAt = 0;
			api()
				.post(PE.create)
				.reply(() => {
					refusedAt = time.now;
					return [status, body, { 'Retry-After': '3' }];
				})
				.post(PE.create)
				.reply(() => {
					resentAt = time.now;
					return [200, created('71')];
				});
			const staged: number[] = [];
			api()
				.post('/api/v1/virtualStaging/generate')
				.times(3)
				.reply(() => {
					staged.push(time.now);
					return [200, created(String(80 + staged.length))];
				});

			const [enhanced, staging] = await time.run(
				(async () => {
					const first = runNode({ node: 'photoEnhancer', parameters: enhanceAt(50) });
					// Another execution on the same account starts once the throttle was heard.
					while (rateLines().length === 0) await nextTurn();
					const second = runNode({
						node: 'idealHouse',
						parameters: {
							resource: 'virtualStaging',
							operation: 'create',
							imageUrl: 'https://photos.example.com/listing/living-room.jpg',
							waitForCompletion: false,
						},
						items: items(3),
					});
					return await Promise.all([first, second]);
				})(),
			);

			expect(enhanced.items[0].json).toEqual({
				id: '71',
				status: 'Unprocessed',
				creditsCharged: 10,
			});
			expect(staging.items.map((item) => item.json.id)).toEqual(['81', '82', '83']);
			// Nothing of the account went before the three seconds were up.
			expect(Math.min(...staged)).toBeGreaterThanOrEqual(refusedAt + 3000);
			expect(resentAt).toBeGreaterThanOrEqual(refusedAt + 3000);
			expect(recorded.filter((request) => request.method === 'POST')).toHaveLength(5);
			expect(rateLines()).toContainEqual(
				expect.stringContaining('nothing is sent for 3 s, as it asked'),
			);
		},
	);
});

describe('once settled, a Retry-After of a second holds only the refused request', () => {
	test('a throttle 2 s after the pause ended: the other items keep the pace, and the refused create goes again after its Retry-After, not the backoff', async () => {
		const arrivals: Array<{ at: number; photo: string }> = [];
		const refused: Array<{ at: number; photo: string }> = [];
		api()
			.post(PE.create)
			.times(47)
			.reply((_uri, body) => {
				const json = (typeof body === 'string' ? JSON.parse(body) : body) as { imageUrl?: unknown };
				const photo = String(json.imageUrl);
				arrivals.push({ at: time.now, photo });
				// The 21st fills the window (the pause, and the fall to 7 a second); the 40th comes
				// 2 s after the pause ended, at the pace the process settled on, with 5 items to go.
				if (arrivals.length === 21 || arrivals.length === 40) {
					refused.push({ at: time.now, photo });
					return [429, envelope('null', 1003, 'too many requests'), { 'Retry-After': '1' }];
				}
				return [200, created(String(arrivals.length))];
			});

		const { items: emitted, error } = await time.run(
			runNode({
				node: 'photoEnhancer',
				parameters: enhance({
					imageUrl: '={{ "https://photos.example.com/listing/" + $json.i + ".jpg" }}',
					waitForCompletion: false,
					options: { maxRequestsPerSecond: 10 },
				}),
				items: items(45),
			}),
		);

		expect(error).toBeUndefined();
		expect(emitted).toHaveLength(45);
		expect(new Set(emitted.map((item) => item.json.id)).size).toBe(45);
		expect(arrivals).toHaveLength(47);
		const [first, second] = refused;
		// The first throttle held the account for its second.
		expect(arrivals.filter(({ at }) => at > first.at && at < first.at + 1000)).toEqual([]);
		// The second held nothing else: the others went on within that second, at the pace.
		const during = arrivals.filter(({ at }) => at > second.at && at < second.at + 1000);
		expect(during.length).toBeGreaterThanOrEqual(5);
		expect(during.map(({ photo }) => photo)).not.toContain(second.photo);
		// The refused create went again once its Retry-After was up and a slot was free: not after
		// the 2 s backoff of a create's second attempt.
		const resent = arrivals.filter(({ photo, at }) => photo === second.photo && at > second.at);
		expect(resent).toHaveLength(1);
		expect(resent[0].at).toBeGreaterThanOrEqual(second.at + 1000);
		expect(resent[0].at).toBeLessThan(second.at + 1500);
		// One line for the pause; none for the second throttle, which left the rate as it was.
		const lines = rateLines().filter((line) => line.includes('throttled'));
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain('nothing is sent for 1 s, as it asked');
	});
});

describe('a refused request goes again when its Retry-After is up', () => {
	test('a create refused with Retry-After: 1 goes again a second later; refused again in a row, after the 4 s backoff of its third attempt', async () => {
		const arrivals: number[] = [];
		api()
			.post(PE.create)
			.times(3)
			.reply(() => {
				arrivals.push(time.now);
				return arrivals.length < 3
					? [429, envelope('null', 1003, 'too many requests'), { 'Retry-After': '1' }]
					: [200, created('93')];
			});

		const { items: emitted, error } = await time.run(
			runNode({ node: 'photoEnhancer', parameters: enhanceAt(50) }),
		);

		expect(error).toBeUndefined();
		expect(emitted.map((item) => item.json.id)).toEqual(['93']);
		const [first, second, third] = arrivals;
		expect(second - first).toBeGreaterThanOrEqual(1000);
		expect(second - first).toBeLessThan(1500);
		expect(third - second).toBeGreaterThanOrEqual(4000);
		expect(third - second).toBeLessThan(4500);
	});
});

describe("'Max Requests per Second' is a ceiling at every rate", () => {
	test.each([
		[0.1, 'without Retry-After', undefined],
		[0.1, 'with Retry-After: 1', '1'],
		[0.3, 'without Retry-After', undefined],
		[0.3, 'with Retry-After: 1', '1'],
	])(
		'at %s a second, the first create refused %s: no two requests of the account closer than 1 / ceiling',
		async (ceiling, _case, retryAfter) => {
			const arrivals: number[] = [];
			api()
				.post(PE.create)
				.times(5)
				.reply(() => {
					arrivals.push(time.now);
					if (arrivals.length === 1) {
						const headers = retryAfter === undefined ? undefined : { 'Retry-After': retryAfter };
						return [429, envelope('null', 1003, 'too many requests'), headers];
					}
					return [200, created(String(arrivals.length))];
				});

			const { items: emitted, error } = await time.run(
				runNode({ node: 'photoEnhancer', parameters: enhanceAt(ceiling), items: items(4) }),
			);

			expect(error).toBeUndefined();
			expect(emitted.map((item) => item.json.id).sort()).toEqual(['2', '3', '4', '5']);
			// The refused create went again; no two requests closer than one slot of the ceiling.
			expect(arrivals).toHaveLength(5);
			expect(arrivals[0]).toBe(T0);
			const spacing = 1000 / ceiling;
			const gaps = arrivals.slice(1).map((at, k) => at - arrivals[k]);
			expect(Math.min(...gaps)).toBeGreaterThanOrEqual(spacing);
			// Nor slower than the ceiling after the pause asked for: the four slots, each rounded up to
			// a whole millisecond.
			const pauseMs = 1000 * Number(retryAfter ?? 0);
			expect(arrivals[4] - T0).toBeLessThanOrEqual(pauseMs + 4 * Math.ceil(spacing));
			// The log never names a rate above the ceiling.
			expect(rateLines().length).toBeGreaterThan(0);
			for (const line of rateLines()) {
				expect(line).toContain(`now sends at most ${ceiling} requests a second`);
			}
		},
	);
});

describe("two processes on one account against the service's limit per key", () => {
	let service: RunningService | undefined;
	let stopWatching: (() => void) | undefined;
	afterEach(async () => {
		stopWatching?.();
		await service?.close();
	});

	/** A copy of the nodes and of n8n's engine with module state of its own: one n8n process. */
	function nodeProcess(): typeof import('./helpers/engine') {
		let engine: typeof import('./helpers/engine') | undefined;
		jest.isolateModules(() => {
			/* eslint-disable @typescript-eslint/no-require-imports */
			engine = require('./helpers/engine') as typeof import('./helpers/engine');
			time.drive(
				(require('../nodes/shared/core/clock') as typeof import('../nodes/shared/core/clock'))
					.clock,
			);
			/* eslint-enable @typescript-eslint/no-require-imports */
		});
		return engine as typeof import('./helpers/engine');
	}

	test('two budgets of 20 a second against a limit of 20 settle under it: few 429s, the account kept busy, every item once', async () => {
		service = await startService({
			now: () => time.now,
			rateLimit: 20,
			accounts: { 'shared-key': 1_000_000 },
			taskDurationMs: 1000,
			workers: 1000,
		});
		stopWatching = time.watchRequests();
		allowLoopback();
		const credentials = { apiKey: 'shared-key', baseUrl: service.baseUrl };
		const parameters = enhance({
			imageUrl: `={{ "${service.baseUrl}/samples/living-room.png?item=" + $json.i }}`,
			imageSize: '512',
			waitForCompletion: false,
			options: { maxRequestsPerSecond: 20 },
		});
		const [first, second] = [nodeProcess(), nodeProcess()];

		const runs = await time.run(
			Promise.all(
				[first, second].map(
					async (engine, k) =>
						await engine.runNode({
							node: 'photoEnhancer',
							parameters,
							items: Array.from({ length: 100 }, (_, i) => ({ json: { i: 100 * k + i } })),
							credentials,
						}),
				),
			),
		);

		const stats = service.stats();
		for (const run of runs) {
			expect(run.error).toBeUndefined();
			expect(run.items).toHaveLength(100);
		}
		// Every item's task once, and every task an item's.
		const emitted = runs.flatMap((run) => run.items.map((item) => String(item.json.id)));
		expect(new Set(emitted).size).toBe(200);
		expect(stats.tasks.map((task) => task.id).sort()).toEqual([...emitted].sort());
		// Each process alone would send 20 a second; together they were throttled a few times only.
		expect(stats.rateLimited.total).toBeGreaterThan(0);
		expect(stats.rateLimited.total / stats.requests.total).toBeLessThan(0.1);
		// Settled: after the first seconds, every second of the run took at least 14 of the 20.
		const created = stats.tasks.map((task) => task.createdAt).sort((a, b) => a - b);
		const start = created[0] + 3000;
		const end = created[created.length - 1] - 1000;
		expect(end).toBeGreaterThan(start);
		for (let second = start; second < end; second += 1000) {
			expect(between(created, second, second + 1000)).toBeGreaterThanOrEqual(14);
		}
	});
});

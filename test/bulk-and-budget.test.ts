/**
 * Many items in one run, as a user meets them: the request budget (Max Requests per Second),
 * polls spread around the interval, and one failed item that neither stalls nor fails the others.
 * The account budget shared by executions at once is in e2e/account-budget.test.ts, the Credit
 * Limit in credit-guardrails.test.ts.
 */
import { clock as nodeClock } from '../nodes/shared/core/clock';
import { TokenBucket } from '../nodes/shared/rate/bucket';
import { runNode } from './helpers/engine';
import {
	PE,
	api,
	clock,
	created,
	envelope,
	requestsTo,
	resetWire,
	taskResponse,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance } from './helpers/params';

eachTestOnAFreshWire();

describe('bulk runs', () => {
	test('requests share a per-execution budget: never more than the limit in any second', () => {
		let now = 0;
		nodeClock.now = () => now;
		const budget = new TokenBucket(2);
		// Two in flight: the third waits for an answer, however long it takes.
		expect([1, 2, 3].map(() => budget.tryTake())).toEqual([0, 0, Infinity]);
		now = 300;
		budget.answered();
		budget.answered();
		// Answered at 300: each counts until 1300, whenever the request itself arrived.
		expect(budget.tryTake()).toBe(1000);
		now = 1300;
		expect([1, 2].map(() => budget.tryTake())).toEqual([0, 0]);
		expect(budget.tryTake()).toBe(Infinity);
		now = 1400;
		budget.answered();
		now = 1900;
		budget.answered();
		now = 2400; // one answer is a second old: one more may go, not two
		expect([1, 2].map(() => budget.tryTake())).toEqual([0, 500]);
		now = 0;
		const slow = new TokenBucket(0.5); // one request every 2 s
		expect(slow.tryTake()).toBe(0);
		slow.answered();
		expect(slow.tryTake()).toBe(2000);
	});

	test('the Max Requests per Second option makes the items past the limit wait their turn', async () => {
		let now = 0;
		const sleeps: number[] = [];
		nodeClock.now = () => now;
		nodeClock.sleep = async (ms: number) => {
			sleeps.push(ms);
			now += ms;
		};
		const arrivals: number[] = [];
		api()
			.post(PE.create)
			.times(8)
			.reply(() => {
				// The first batch reaches the service late, as it does at the start of a busy run.
				if (arrivals.length < 4) now = Math.max(now, 900);
				arrivals.push(now);
				return [200, created('64')];
			});

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false, options: { maxRequestsPerSecond: 4 } }),
			items: Array.from({ length: 8 }, () => ({ json: {} })),
		});

		expect(items).toHaveLength(8);
		expect(requestsTo(PE.create)).toHaveLength(8);
		// The first four went at once; the fifth waited until an answer was a second old, so no
		// second at the service ever saw more than four.
		expect(arrivals.slice(0, 4)).toEqual([900, 900, 900, 900]);
		expect(arrivals[4]).toBeGreaterThanOrEqual(1900);
		for (const at of arrivals) {
			expect(
				arrivals.filter((other) => other > at - 1000 && other <= at).length,
			).toBeLessThanOrEqual(4);
		}
		expect(sleeps[0]).toBe(1000);
		// (The budget itself is checked exactly, request by request, in the test above.)
	});

	test('polls are spread by up to ±0.5 s around the interval, never leaving 3–5 s', async () => {
		for (const [random, interval, expected] of [
			[0, 4, 3500],
			[1, 4, 4500],
			[0, 3, 3000],
			[1, 5, 5000],
		]) {
			resetWire();
			nodeClock.random = () => random;
			api()
				.post(PE.create)
				.reply(200, created('65'))
				.get(PE.result)
				.query(true)
				.reply(200, taskResponse('65'));
			await runNode({
				node: 'photoEnhancer',
				parameters: enhance({ options: { pollInterval: interval } }),
			});
			expect(clock.sleeps).toEqual([expected]);
		}
	});

	test('one failed item neither stalls nor fails the others', async () => {
		const scope = api();
		scope
			.post(PE.create)
			.times(3)
			.reply(200, (_uri, body) =>
				(body as { imageUrl: string }).imageUrl.includes('broke')
					? envelope('null', 1011, 'image too small')
					: created('66'),
			);
		scope.get(PE.result).query(true).times(2).reply(200, taskResponse('66'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}' }),
			items: [
				{ json: { url: 'https://p.example.com/1.jpg' } },
				{ json: { url: 'https://p.example.com/broke.jpg' } },
				{ json: { url: 'https://p.example.com/3.jpg' } },
			],
			onError: 'continueRegularOutput',
		});

		expect(items.map((item) => item.json.status ?? 'error')).toEqual([
			'Success',
			'error',
			'Success',
		]);
		expect(items[1].json.error).toMatch(/code 1011, .*"image too small"/);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

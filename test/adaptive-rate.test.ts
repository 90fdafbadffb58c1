/**
 * The pieces of the adaptive request budget, each on its own: the rate's curve (`AdaptiveRate`),
 * the slots it gives (`TokenBucket`: a first burst, even spacing once throttled, Retry-After
 * holds), one account's budget tying them together with its log lines (`AccountBudget`), and
 * what an answer says about the pace (`paceSignalOf`). Through n8n's engine: adaptive-budget.test.ts.
 */
import { clock as nodeClock } from '../nodes/shared/core/clock';
import { AccountBudget } from '../nodes/shared/rate/account';
import { rateLimits } from '../nodes/shared/core/limits';
import { AdaptiveRate, evenPart } from '../nodes/shared/rate/adaptive';
import { TokenBucket } from '../nodes/shared/rate/bucket';
import { paceSignalOf, type ServiceResponse } from '../nodes/shared/transport/answers';

const T0 = 1_000_000;
let now = T0;
const saved = { ...nodeClock };
beforeEach(() => {
	now = T0;
	nodeClock.now = () => now;
});
afterAll(() => Object.assign(nodeClock, saved));

/** Takes every slot free now; how many. */
function takeAll(budget: TokenBucket): number {
	let taken = 0;
	while (budget.tryTake() === 0) taken++;
	return taken;
}

describe('AdaptiveRate: the curve', () => {
	const throttle = (sentAt: number, sending: number, sinceResumed?: number) => ({
		sentAt,
		sending,
		climbFrom: now,
		sinceResumed,
	});

	test('untouched, it stays at the ceiling, and a new ceiling is taken as it is', () => {
		const rate = new AdaptiveRate(50);
		expect(rate.succeeded(T0, T0, 50)).toBe(false);
		expect([rate.current, rate.adapted, rate.atCeiling]).toEqual([50, false, true]);
		rate.setCeiling(20);
		expect(rate.current).toBe(20);
	});

	test('falls at once to 0.7 of what this process was sending, and never to a stop', () => {
		const rate = new AdaptiveRate(50);
		expect(rate.throttled(now, throttle(T0, 50))).toBe(true);
		expect(rate.current).toBe(35);
		expect(rate.adapted).toBe(true);

		const idle = new AdaptiveRate(50);
		idle.throttled(now, throttle(T0, 10));
		expect(idle.current).toBe(7);

		// Throttled again and again, however little it sent: it keeps sending, at a rate that no
		// longer falls, so that it finds out when the limit lifts.
		const slow = new AdaptiveRate(50);
		slow.throttled(now, throttle(T0, 0.2));
		expect(slow.current).toBeGreaterThan(0);
		const rates: number[] = [];
		for (let k = 0; k < 30; k++) {
			now += 100;
			slow.throttled(now, { sentAt: now, sending: slow.current, climbFrom: now });
			rates.push(slow.current);
		}
		expect(Math.min(...rates)).toBeGreaterThan(0);
		expect(rates[rates.length - 1]).toBe(rates[rates.length - 2]);
	});

	test.each([0.1, 0.3])(
		'a ceiling of %s, below the half a request a second, is the floor: never a throttle that speeds it up',
		(ceiling) => {
			const rate = new AdaptiveRate(ceiling);
			expect(rate.throttled(now, throttle(T0, ceiling))).toBe(true);
			expect(rate.current).toBe(ceiling);
			now += 1000;
			expect(rate.throttled(now, throttle(T0 + 1, ceiling, 1))).toBe(true);
			expect(rate.current).toBe(ceiling);
			now += 200_000;
			rate.succeeded(now, now - 1, 10);
			expect(rate.current).toBe(ceiling);
		},
	);

	test('one fall per pace: a request sent before the fall lowers nothing more, one sent after does', () => {
		const rate = new AdaptiveRate(50);
		rate.throttled(now, throttle(T0, 50));
		now += 5;
		expect(rate.throttled(now, throttle(T0, 50))).toBe(false);
		expect(rate.current).toBe(35);
		expect(rate.throttled(now, throttle(T0 + 1, 35))).toBe(true);
		expect(rate.current).toBeCloseTo(24.5, 6);
	});

	test('climbs back to 0.98 of the throttled rate in 2 s, flattening, then probes slowly to the ceiling', () => {
		const rate = new AdaptiveRate(50);
		rate.throttled(now, { sentAt: T0, sending: 40, climbFrom: T0 + 1000 });
		expect(rate.current).toBe(28);
		const at = (ms: number) => {
			now = T0 + ms;
			rate.succeeded(now, T0 + 1, 1000);
			return Math.round(rate.current * 100) / 100;
		};
		// Nothing during the Retry-After pause; then most of the way within the first second.
		expect(at(1000)).toBe(28);
		expect(at(2000)).toBeCloseTo(39.2 - 11.2 * 0.5 ** 3, 9);
		expect(at(3000)).toBe(39.2);
		// The probe: +1 % about 24 s into the climb, +10 % about 48 s, the ceiling (50 = 39.2 × 1.28) at 67 s.
		expect(at(25_000)).toBeCloseTo(39.2 * (1 + 0.22 ** 3), 1);
		expect(at(49_000)).toBeCloseTo(39.2 * (1 + 0.46 ** 3), 1);
		expect(rate.atCeiling).toBe(false);
		expect(at(73_000)).toBe(50);
		expect(rate.atCeiling).toBe(true);
	});

	test('only answers to requests sent after the fall raise it', () => {
		const rate = new AdaptiveRate(50);
		rate.throttled(now, throttle(T0, 40));
		now = T0 + 3000;
		expect(rate.succeeded(now, T0, 40)).toBe(false);
		expect(rate.current).toBe(28);
		expect(rate.succeeded(now, T0 + 1, 40)).toBe(true);
		expect(rate.current).toBeCloseTo(39.2, 3);
	});

	test('never climbs above twice what this process sends', () => {
		const rate = new AdaptiveRate(50);
		rate.throttled(now, throttle(T0, 40));
		now = T0 + 3000;
		rate.succeeded(now, T0 + 1, 15);
		expect(rate.current).toBe(30);
		rate.succeeded(now, T0 + 1, 10);
		expect(rate.current).toBe(30);
	});

	test('right after a pause, falls to 0.98 of what it got into the window since, and stays there', () => {
		const rate = new AdaptiveRate(50);
		rate.throttled(now, throttle(T0, 50));
		now = T0 + 1700;
		rate.throttled(now, { sentAt: now, sending: 35, climbFrom: now + 1000, sinceResumed: 20 });
		expect(rate.current).toBeCloseTo(19.6, 6);
		now = T0 + 6000;
		rate.succeeded(now, T0 + 1701, 19.6);
		expect(rate.current).toBeCloseTo(19.6, 3);
	});

	test.each([
		[12, 12.5],
		[13, 12.5],
		[11, 10],
		[24, 25],
		[27, 25],
		[17, 50 / 3],
		[9, 50 / 6],
		[20, 20],
		[30, 30],
		[0, 0],
	])(
		'a part of %s requests of a 50 a second window is taken as %s: the nearest even share of a whole number of processes, within an eighth, or as measured',
		(part, even) => {
			expect(evenPart(part, 50)).toBeCloseTo(even, 9);
		},
	);

	test('four processes that measured 12 and 13 after pausing together settle on the same rate', () => {
		const rates = [12, 13, 12, 13].map((part) => {
			const rate = new AdaptiveRate(50);
			rate.throttled(now, throttle(T0, 50));
			rate.throttled(now, throttle(T0 + 1, 35));
			now += 1000;
			rate.throttled(now, {
				sentAt: now,
				sending: 24.5,
				climbFrom: now + 1000,
				sinceResumed: part,
			});
			return rate.current;
		});
		// One rate for all four, between the parts they measured: the account's limit shared evenly.
		expect(new Set(rates).size).toBe(1);
		expect(rates[0]).toBeGreaterThan(12);
		expect(rates[0]).toBeLessThan(13);
	});

	test('never more than two falls of 0.7 at once, nor less than one, whatever it got into the window', () => {
		const behind = new AdaptiveRate(50);
		behind.throttled(now, throttle(T0, 50, 1));
		expect(behind.current).toBeCloseTo(50 * 0.7 * 0.7, 6);
		const ahead = new AdaptiveRate(50);
		ahead.throttled(now, throttle(T0, 10, 40));
		expect(ahead.current).toBe(7);
	});
});

describe('AdaptiveRate: a throttle once settled (nudged)', () => {
	/** A rate settled at 12.25 a second: a fall, then a part of 12 (12.5) measured after the pause. */
	function settled(): AdaptiveRate {
		const rate = new AdaptiveRate(50);
		now = T0;
		rate.throttled(now, { sentAt: T0, sending: 30, climbFrom: T0 + 1000 });
		now = T0 + 1300;
		rate.throttled(now, { sentAt: now, sending: 21, climbFrom: now + 1000, sinceResumed: 12 });
		expect(rate.current).toBeCloseTo(12.25, 9);
		return rate;
	}

	test('at its plateau, a throttle keeps the rate; a second within 3 s lowers it by 0.97', () => {
		const rate = settled();
		now += 5000;
		expect(rate.nudged(now, now - 10)).toBe(true);
		expect(rate.current).toBeCloseTo(12.25, 9);
		now += 2900;
		expect(rate.nudged(now, now - 10)).toBe(true);
		expect(rate.current).toBeCloseTo(12.25 * 0.97, 9);
		// No climb back past it: the account was full.
		now += 10_000;
		rate.succeeded(now, now - 10, 12);
		expect(rate.current).toBeLessThan(12.25 * 0.97 * 1.001);
	});

	test('throttles more than 3 s apart are bunching: the rate stays', () => {
		const rate = settled();
		for (let k = 0; k < 5; k++) {
			now += 3001;
			expect(rate.nudged(now, now - 10)).toBe(true);
		}
		expect(rate.current).toBeCloseTo(12.25, 9);
	});

	test('a probe past the plateau is taken back to 0.97 of it, never below the plateau', () => {
		const rate = settled();
		now += 60_000;
		rate.succeeded(now, now - 10, 20);
		const probed = rate.current;
		expect(probed).toBeGreaterThan(12.25 / 0.97);
		expect(rate.nudged(now, now - 10)).toBe(true);
		expect(rate.current).toBeCloseTo(probed * 0.97, 9);

		const near = settled();
		now += 25_000;
		near.succeeded(now, now - 10, 20);
		expect(near.current).toBeGreaterThan(12.25);
		near.nudged(now, now - 10);
		expect(near.current).toBeCloseTo(12.25, 9);
	});

	test('one per pace: a request sent before the last throttle changes nothing', () => {
		const rate = settled();
		now += 5000;
		rate.nudged(now, now - 10);
		now += 100;
		expect(rate.nudged(now, now - 200)).toBe(false);
		expect(rate.nudged(now, now - 50)).toBe(true);
		expect(rate.current).toBeCloseTo(12.25 * 0.97, 9);
	});
});

describe('TokenBucket: the slots', () => {
	test(`a fresh budget sends ${rateLimits.firstBurst} at once, then one every 1/rate s, and no more than the rate in a second`, () => {
		const budget = new TokenBucket(50);
		expect(takeAll(budget)).toBe(10);
		expect(budget.tryTake()).toBe(20);
		now += 20;
		expect(takeAll(budget)).toBe(1);
		// Below the first burst, the whole rate at once, as before.
		const small = new TokenBucket(4);
		expect(takeAll(small)).toBe(4);
	});

	test('spaced out evenly once throttled: no burst, one slot per window from its slot, whatever the answers', () => {
		const budget = new TokenBucket(50);
		budget.setRate(4, true);
		expect(takeAll(budget)).toBe(1);
		expect(budget.tryTake()).toBe(250);
		for (let k = 1; k < 4; k++) {
			now += 250;
			expect(takeAll(budget)).toBe(1);
		}
		// Four in flight, none answered: the fifth waits for an answer.
		now += 250;
		expect(budget.tryTake()).toBe(Infinity);
		budget.answered();
		expect(takeAll(budget)).toBe(1);
	});

	test('a hold stops every slot until it ends, and a later hold only extends it', () => {
		const budget = new TokenBucket(50);
		budget.holdUntil(now + 3000);
		budget.holdUntil(now + 1000);
		expect(budget.held).toBe(true);
		expect(budget.tryTake()).toBe(3000);
		now += 3000;
		expect(budget.held).toBe(false);
		expect(budget.tryTake()).toBe(0);
	});

	test('measures what it sends, and what it sent since a hold ended', () => {
		const budget = new TokenBucket(50);
		for (let k = takeAll(budget); k > 0; k--) budget.answered();
		// Ten in the first instant: as fast as it was allowed, not ten a second.
		expect(budget.sendingRate()).toBe(500);
		now += 1000;
		expect(budget.sendingRate()).toBe(0);
		budget.holdUntil(now + 1000);
		expect(budget.sentSinceResumed(now)).toBeUndefined();
		now += 1000;
		budget.setRate(10, true);
		// After the hold, no burst: one every 100 ms from the moment it ended.
		expect(budget.tryTake()).toBe(100);
		for (let k = 0; k < 5; k++) {
			now += 100;
			expect(takeAll(budget)).toBe(1);
		}
		expect(budget.sendingRate()).toBe(10);
		// Sent since the hold ended, before the request sent now.
		expect(budget.sentSinceResumed(now)).toBe(4);
		now += 1000;
		expect(budget.sentSinceResumed(now)).toBeUndefined();
	});
});

describe('AccountBudget: one account in this process', () => {
	test('a throttle with Retry-After lowers the rate, holds the account, and says so once', () => {
		const account = new AccountBudget(50);
		account.rates.set('run', 50);
		account.ceilingChanged();
		takeAll(account.slots);
		const line = account.heard(T0, { throttled: true, retryAfterMs: 2000 }, 60_000);
		expect(line).toBe(
			'Ideal House: this process now sends at most 35 requests a second to the account (was 50): the service throttled this account; nothing is sent for 2 s, as it asked',
		);
		expect(account.rate).toBe(35);
		expect(account.slots.tryTake()).toBe(2000);
		// More refusals of that burst: no more lines, no further fall.
		expect(account.heard(T0, { throttled: true, retryAfterMs: 2000 }, 60_000)).toBeUndefined();
		expect(account.rate).toBe(35);
	});

	test('a second after its pause ended, a throttle of a second holds only the refused request; a longer one holds the account', () => {
		const account = new AccountBudget(50);
		account.rates.set('run', 50);
		account.ceilingChanged();
		takeAll(account.slots);
		account.heard(T0, { throttled: true, retryAfterMs: 1000 }, 60_000);
		now = T0 + 1100;
		expect(account.slots.tryTake()).toBe(0);
		expect(account.slots.sentSinceResumed(now + 1)).toBe(1);
		now = T0 + 2500;
		// Sent 1.5 s after the pause ended: settled.
		expect(
			account.heard(now - 10, { throttled: true, retryAfterMs: 1000 }, 60_000),
		).toBeUndefined();
		expect(account.slots.held).toBe(false);
		expect(account.rate).toBe(35);
		// A second within 3 s: the account is full, the rate falls by 0.97, still nothing held.
		now += 1000;
		expect(account.heard(now - 10, { throttled: true, retryAfterMs: 1000 }, 60_000)).toBe(
			'Ideal House: this process now sends at most 33.9 requests a second to the account (was 35): the service throttled a request; only that one waits, as it asked',
		);
		expect(account.slots.held).toBe(false);
		// Asked to wait 5 s: a quota, not the pace. The account holds, settled or not.
		now += 5000;
		expect(account.heard(now - 10, { throttled: true, retryAfterMs: 5000 }, 60_000)).toContain(
			'nothing is sent for 5 s, as it asked',
		);
		expect(account.slots.held).toBe(true);
	});

	test('a Retry-After longer than the node waits holds the account for that much only', () => {
		const account = new AccountBudget(50);
		account.heard(T0, { throttled: true, retryAfterMs: 86_400_000 }, 60_000);
		expect(account.slots.tryTake()).toBe(60_000);
	});

	test('rising, it logs every tenth more and the return to the ceiling, never each request', () => {
		const account = new AccountBudget(10);
		for (let k = takeAll(account.slots); k > 0; k--) account.slots.answered();
		account.heard(T0, { throttled: true }, 60_000);
		const lines: string[] = [];
		for (let ms = 100; ms <= 80_000; ms += 100) {
			now = T0 + ms;
			if (account.slots.tryTake() === 0) account.slots.answered();
			const line = account.heard(now, { throttled: false }, 60_000);
			if (line) lines.push(line);
		}
		expect(lines.length).toBeGreaterThan(1);
		expect(lines.length).toBeLessThan(8);
		expect(lines.at(-1)).toBe(
			`Ideal House: this process now sends at most 10 requests a second to the account (was ${lines.at(-2)?.match(/at most ([\d.]+)/)?.[1]}): back at Max Requests per Second`,
		);
	});

	test('a lower Max Requests per Second of another node run caps the adapted rate too', () => {
		const account = new AccountBudget(50);
		account.rates.set('a', 50);
		account.ceilingChanged();
		takeAll(account.slots);
		account.heard(T0, { throttled: true }, 60_000);
		expect(account.rate).toBe(35);
		account.rates.set('b', 5);
		account.ceilingChanged();
		expect(account.rate).toBe(5);
	});
});

describe('paceSignalOf: what an answer says about the pace', () => {
	const answer = (statusCode: number, body: string, headers = {}) =>
		({ statusCode, body, headers, secrets: [] }) as unknown as ServiceResponse;
	const busy = '{"code":1003,"message":"busy","data":null}';

	test.each([
		[
			'HTTP 429 with Retry-After',
			answer(429, '', { 'retry-after': '2' }),
			{ throttled: true, retryAfterMs: 2000 },
		],
		['HTTP 429 without', answer(429, busy), { throttled: true, retryAfterMs: undefined }],
		[
			'HTTP 429 with a Retry-After that is neither seconds nor an HTTP date (the longest pause)',
			answer(429, '', { 'retry-after': 'later, please' }),
			{ throttled: true, retryAfterMs: 60_000 },
		],
		[
			'HTTP 429 carrying a created task (the task is kept; the pace still too fast)',
			answer(429, '{"code":0,"message":"ok","data":77}'),
			{ throttled: true, retryAfterMs: undefined },
		],
		[
			'code 1003 with Retry-After',
			answer(200, busy, { 'retry-after': '1' }),
			{ throttled: true, retryAfterMs: 1000 },
		],
		['code 1003 without Retry-After (an internal error)', answer(200, busy), { throttled: false }],
		[
			'an error code such as 1011',
			answer(200, '{"code":1011,"message":"x","data":null}'),
			{ throttled: false },
		],
		['a success', answer(200, '{"code":0,"message":"ok","data":77}'), { throttled: false }],
		['HTTP 503', answer(503, busy), undefined],
	])('%s', (_case, response, signal) => {
		expect(paceSignalOf(response)).toEqual(signal);
	});
});

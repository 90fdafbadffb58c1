/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import { clock as nodeClock } from '../nodes/shared/clock';
import { MAX_PREDICTED_WAIT_MS, PollSchedule } from '../nodes/shared/poll-schedule';
import { goesFirst, PrioritySlots } from '../nodes/shared/request-order';
import { RequestBudget } from '../nodes/shared/throttle';

const T0 = 1_000_000;
const INTERVAL = 4000;
const processing = (percentage: number) => ({ status: 'Processing', waitNumber: 0, percentage });
const queued = (waitNumber: number) => ({ status: 'Unprocessed', waitNumber, percentage: 0 });

describe('poll schedule: prediction from progress', () => {
	it('first polls after the (jittered) interval, then just after the predicted finish', () => {
		const schedule = new PollSchedule(T0, INTERVAL, 3700);
		expect(schedule.waitMs(T0)).toBe(3700);
		// 40 % after 4 s: a 10 s task, done at T0 + 10 s; the poll goes 300 ms + 3 % of 6 s later.
		schedule.observe(T0 + 4000, processing(40));
		expect(schedule.predictedFinish).toBe(T0 + 10_000);
		expect(schedule.waitMs(T0 + 4000)).toBe(6000 + 300 + 180);
		expect(schedule.priority(T0 + 9999)).toEqual({ rank: 'unknown', age: T0 });
		expect(schedule.priority(T0 + 10_480)).toEqual({ rank: 'likelyDone', age: T0 });
	});

	it('waits longer than the interval when the finish is far, but at most 30 s', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(20)); // 20 s task
		expect(schedule.waitMs(T0 + 4000)).toBe(16_000 + 300 + 480);
		const slow = new PollSchedule(T0, INTERVAL);
		slow.observe(T0 + 4000, processing(5)); // 80 s task
		expect(slow.waitMs(T0 + 4000)).toBe(MAX_PREDICTED_WAIT_MS);
	});

	it('reads a long task once more before aiming, when the whole-number percentage leaves seconds open', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		// 13 % after 4 s: the finish lies between 28.6 s (14 %) and 30.8 s (13 %).
		schedule.observe(T0 + 4000, processing(13));
		const earliest = (4000 * 100) / 14;
		expect(schedule.waitMs(T0 + 4000)).toBe(Math.ceil(earliest - 3500 - 4000));
		// 3.5 s before the earliest finish: 87 % now pins it to within a third of a second.
		const at = T0 + earliest - 3500;
		schedule.observe(at, processing(87));
		const finish = ((at - T0) * 100) / 87;
		expect(schedule.predictedFinish).toBeCloseTo(T0 + finish, 6);
		expect(schedule.waitMs(at)).toBe(Math.ceil(T0 + finish + 300 + 0.03 * (T0 + finish - at) - at));
		expect(schedule.waitMs(at)).toBeGreaterThanOrEqual(3000);
	});

	it('counts a queued task from the last poll that saw it queued, not from its creation', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, queued(3));
		expect(schedule.predictedFinish).toBeUndefined();
		expect(schedule.waitMs(T0 + 4000)).toBe(INTERVAL); // one queue reading: no prediction
		schedule.observe(T0 + 8000, processing(50));
		// Started after T0 + 4 s: 50 % in at most 4 s, so done by T0 + 12 s.
		expect(schedule.predictedFinish).toBe(T0 + 12_000);
	});

	it('polls a queued task every interval, however fast the queue moves', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, queued(30));
		schedule.observe(T0 + 8000, queued(20));
		expect(schedule.waitMs(T0 + 8000)).toBe(INTERVAL);
		expect(schedule.priority(T0 + 12_000).rank).toBe('unknown');
	});
});

describe('poll schedule: never sooner than 3 s after the last poll', () => {
	it('holds a poll aimed sooner back to 3 s', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(90)); // done by T0 + 4.44 s
		expect(schedule.predictedFinish).toBeCloseTo(T0 + 4444.4, 1);
		expect(schedule.waitMs(T0 + 4000)).toBe(3000);
		expect(schedule.waitMs(T0 + 5000)).toBe(2000);
	});

	it('keeps the 3 s from the last poll even when the interval is 3 s and a poll was late', () => {
		const schedule = new PollSchedule(T0, 3000);
		schedule.observe(T0 + 4000, queued(5));
		expect(schedule.waitMs(T0 + 4500)).toBe(2500);
		expect(schedule.waitMs(T0 + 9000)).toBe(0); // overdue: at once
	});
});

describe('poll schedule: uninformative progress falls back to the plain interval', () => {
	it('stuck at 0 while processing: every interval', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(0));
		expect(schedule.waitMs(T0 + 4000)).toBe(INTERVAL);
		schedule.observe(T0 + 8000, processing(0));
		expect(schedule.waitMs(T0 + 8000)).toBe(INTERVAL);
		expect(schedule.priority(T0 + 8000).rank).toBe('unknown');
	});

	it('progress going backwards: no more predictions for this task', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(40));
		schedule.observe(T0 + 10_480, processing(30));
		expect(schedule.usesProgress).toBe(false);
		expect(schedule.predictedFinish).toBeUndefined();
		expect(schedule.waitMs(T0 + 10_480)).toBe(INTERVAL);
		schedule.observe(T0 + 14_480, processing(60));
		expect(schedule.waitMs(T0 + 14_480)).toBe(INTERVAL);
	});

	it('a jump that moves the predicted finish by more than a quarter: plain interval', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(10)); // 40 s task
		schedule.observe(T0 + 8000, processing(80)); // now a 10 s one
		expect(schedule.usesProgress).toBe(false);
		expect(schedule.waitMs(T0 + 8000)).toBe(INTERVAL);
	});

	it('stuck then jumping: never later than polling every interval would notice', () => {
		// The service's stuck-then-jump model: 0 % for 6 s of a 10 s task, then 90 %.
		const plain = [4000, 8000, 12_000];
		const schedule = new PollSchedule(T0, INTERVAL);
		let at = T0 + schedule.waitMs(T0);
		const polls: number[] = [];
		for (;;) {
			polls.push(at - T0);
			const elapsed = at - T0;
			if (elapsed >= 10_000) break;
			schedule.observe(at, processing(elapsed < 6000 ? 0 : 90));
			at += schedule.waitMs(at);
		}
		expect(polls.length).toBeLessThanOrEqual(plain.length);
		expect(polls[polls.length - 1]).toBeLessThanOrEqual(plain[plain.length - 1]);
		expect(polls).toEqual([4000, 8000, 11_000]);
	});
});

describe('request budget: who goes first when requests wait', () => {
	const sleeps: number[] = [];
	let now = T0;
	const saved = { ...nodeClock };
	beforeEach(() => {
		now = T0;
		sleeps.length = 0;
		nodeClock.now = () => now;
		nodeClock.sleep = async (ms: number) => {
			sleeps.push(ms);
			// After the requests already let through have run, as a real timer would.
			await new Promise((resolve) => setImmediate(resolve));
			now += ms;
		};
	});
	afterAll(() => Object.assign(nodeClock, saved));

	it('ranks polls of likely finished tasks, then creates, then other polls; oldest first', () => {
		const first = (a: object, b: object) =>
			goesFirst(a as Parameters<typeof goesFirst>[0], b as Parameters<typeof goesFirst>[1]);
		const done = { priority: { rank: 'likelyDone', age: 50 }, seq: 9 };
		const create = { priority: { rank: 'create', age: 1 }, seq: 1 };
		const old = { priority: { rank: 'unknown', age: 10 }, seq: 5 };
		const young = { priority: { rank: 'unknown', age: 20 }, seq: 2 };
		expect(first(done, create)).toBe(true);
		expect(first(create, old)).toBe(true);
		expect(first(old, young)).toBe(true);
		expect(first(young, old)).toBe(false);
	});

	it('hands the freed slots out in that order, at the budget’s pace', async () => {
		const budget = new RequestBudget(2);
		const slots = new PrioritySlots(() => budget.tryTake());
		const order: string[] = [];
		const ask = (name: string, rank: 'likelyDone' | 'create' | 'unknown', age: number) =>
			slots.take({ rank, age }).then(() => order.push(`${name}@${now - T0}`));
		await Promise.all([
			ask('a', 'unknown', 1),
			ask('b', 'unknown', 2),
			ask('young poll', 'unknown', 40),
			ask('old poll', 'unknown', 10),
			ask('create', 'create', 30),
			ask('done poll', 'likelyDone', 50),
		]);
		expect(order).toEqual([
			'a@0',
			'b@0',
			'done poll@1000',
			'create@1000',
			'old poll@2000',
			'young poll@2000',
		]);
	});

	it('lets a stopped execution’s waiting request go without a slot', async () => {
		const budget = new RequestBudget(1);
		const slots = new PrioritySlots(() => budget.tryTake());
		await slots.take({ rank: 'create', age: 0 });
		const controller = new AbortController();
		const waiting = slots.take({ rank: 'unknown', age: 0 }, controller.signal);
		controller.abort(new Error('stopped'));
		await expect(waiting).rejects.toThrow('stopped');
		expect(slots.waiting).toBe(0);
	});
});

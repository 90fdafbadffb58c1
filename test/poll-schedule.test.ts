/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import { clock as nodeClock } from '../nodes/shared/core/clock';
import { pollLimits } from '../nodes/shared/core/limits';
import { PollSchedule } from './helpers/waiting-seam';
import { QueueObservations } from '../nodes/shared/waiting/queue-observations';
import { goesFirst, PrioritySlots } from '../nodes/shared/rate/order';
import { TokenBucket } from '../nodes/shared/rate/bucket';

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
		expect(schedule.priority(T0 + 9999)).toEqual({ rank: 'unknown', age: T0 + 9999 });
		expect(schedule.priority(T0 + 10_480)).toEqual({ rank: 'likelyDone', age: T0 + 10_000 });
	});

	it('a slow first reading: one more reading an interval later, then the pace of the two', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		// 20 % after 4 s would be a 20 s task, unless it queued unseen first: read again.
		schedule.observe(T0 + 4000, processing(20));
		expect(schedule.predictedFinish).toBeUndefined();
		expect(schedule.waitMs(T0 + 4000)).toBe(INTERVAL);
		schedule.observe(T0 + 8000, processing(40)); // 5 % a second: done at 20 s
		expect(schedule.predictedFinish).toBe(T0 + 20_000);
		expect(schedule.waitMs(T0 + 8000)).toBe(12_000 + 300 + 360);
	});

	it('waits longer than the interval when the finish is far, but at most 30 s', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(5));
		schedule.observe(T0 + 8000, processing(10)); // an 80 s task
		expect(schedule.waitMs(T0 + 8000)).toBe(pollLimits.maxPredictedWaitMs);
	});

	it('reads a long task once more before aiming, when the whole-number percentage leaves seconds open', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(13));
		schedule.observe(T0 + 8000, processing(27));
		// 13 to 27 % in 4 s: done between 27.2 s and 29.6 s; read again 3.5 s before the earliest.
		const earliest = 8000 + 72 / (15 / 4000);
		expect(schedule.waitMs(T0 + 8000)).toBe(Math.ceil(earliest - 3500 - 8000));
		const at = T0 + Math.ceil(earliest - 3500);
		schedule.observe(at, processing(82));
		const elapsed = at - (T0 + 4000);
		const latest = Math.min(((at - T0) * 100) / 82, at - T0 + 18 / (68 / elapsed));
		expect(schedule.predictedFinish).toBeCloseTo(T0 + latest, 6);
		expect(schedule.waitMs(at)).toBe(Math.ceil(T0 + latest + 300 + 0.03 * (T0 + latest - at) - at));
		expect(schedule.waitMs(at)).toBeGreaterThanOrEqual(3000);
	});

	it('times a task that queued from two readings, not from when it was last seen queued', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, queued(3));
		expect(schedule.waitMs(T0 + 4000)).toBe(INTERVAL); // queued: no prediction
		// It started some time after 4 s: one reading says nothing about its pace.
		schedule.observe(T0 + 8000, processing(50));
		expect(schedule.predictedFinish).toBeUndefined();
		expect(schedule.waitMs(T0 + 8000)).toBe(INTERVAL);
		// 50 % to 90 % in 4 s: 10 % a second, done at about 13 s; never later than 90 % since 4 s
		// allows (12.89 s), never sooner than the fastest pace the rounding allows.
		schedule.observe(T0 + 12_000, processing(90));
		const latest = T0 + 4000 + (8000 * 100) / 90;
		expect(schedule.predictedFinish).toBeCloseTo(latest, 6);
		expect(schedule.waitMs(T0 + 12_000)).toBe(3000); // 12.89 s is sooner than the 3 s floor
	});

	it('a long task after the queue: the pace from two readings places the poll', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, queued(1));
		schedule.observe(T0 + 8000, processing(10)); // started between 4 and 8 s
		schedule.observe(T0 + 12_000, processing(23)); // 13 % in 4 s: about 35 s in all
		const slowest = 12 / 4000;
		const latest = Math.min(T0 + 4000 + (8000 * 100) / 23, T0 + 12_000 + 77 / slowest);
		expect(schedule.predictedFinish).toBeCloseTo(latest, 6);
		expect(schedule.usesProgress).toBe(true);
	});

	it('a queued task on its own: the pace at which its waitNumber falls places the poll', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, queued(30));
		expect(schedule.waitMs(T0 + 4000)).toBe(INTERVAL); // one reading: no pace yet
		schedule.observe(T0 + 8000, queued(20));
		// 10 ahead ended in 4 s: the other 20 by 16 s, this one by 16.4 s; polled 300 ms after that.
		expect(schedule.aimNextCheck(T0 + 8000)).toBe(16_400 + 300 - 8000);
		expect(schedule.priority(T0 + 12_000)).toEqual({ rank: 'unknown', age: T0 + 12_000 });
		expect(schedule.priority(T0 + 16_700)).toEqual({ rank: 'likelyDone', age: T0 + 16_400 });
	});
});

/** A run of 10 s seen through a task 40 % done 4 s after its create: 9.756 s to 10 s. */
const RUN_LO = (4000 * 100) / 41;

/**
 * A queue of one worker, as AI 3D runs for an account: one task runs (created at T0, 40 % at 4 s)
 * and the next waits right behind it.
 */
function queueOfOne() {
	const observations = new QueueObservations();
	const running = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'running');
	running.observe(T0 + 4000, processing(40));
	const behind = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'behind');
	behind.observe(T0 + 4000, queued(1));
	return observations;
}

describe('poll schedule: queued tasks wait for their turn', () => {
	it('places a queued task’s poll after the tasks ahead, one run time each', () => {
		const observations = queueOfOne();
		expect(observations.runTime?.lo).toBeCloseTo(RUN_LO, 6);
		expect(observations.runTime?.hi).toBeCloseTo(10_000, 6);
		const next = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'next');
		next.observe(T0 + 4000, queued(1));
		expect(observations.workersAtMost).toBe(1);
		// Behind the running task (done by 10 s), one run more: by 20 s, known to half a second.
		expect(next.aimNextCheck(T0 + 4000)).toBe(20_000 + 300 - 4000);
		expect(next.priority(T0 + 8000).rank).toBe('unknown');
		expect(next.priority(T0 + 20_300)).toEqual({ rank: 'likelyDone', age: T0 + 20_000 });
	});

	it('reads a task far back in the queue once as it runs, then polls just after its finish', () => {
		const observations = queueOfOne();
		const far = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'far');
		far.observe(T0 + 4000, queued(5));
		// Done between 6 × 9.756 s and 60 s: 1.5 s open, so one reading 3.5 s before the earliest.
		const earliest = T0 + 6 * RUN_LO;
		expect(far.waitMs(T0 + 4000)).toBe(Math.ceil(earliest - 3500 - (T0 + 4000)));
		// It runs, 65 % done: the run time its API showed places the finish from this one reading.
		const at = Math.ceil(earliest - 3500);
		far.observe(at, processing(65));
		expect(far.predictedFinish).toBe(at + 3500);
		expect(far.waitMs(at)).toBe(Math.ceil(3500 + 300 + 0.03 * 3500));
	});

	it('a queued task still queued when it should run: its own pace from then on', () => {
		const observations = queueOfOne();
		const far = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'far');
		far.observe(T0 + 4000, queued(5));
		const at = T0 + Math.ceil(far.aimNextCheck(T0 + 4000)) + 4000;
		// Still 1 ahead where it should have been running: 4 ahead ended in this much time.
		far.observe(at, queued(1));
		const perTask = (at - (T0 + 4000)) / 4;
		// Its own pace: the one ahead ends by `at + perTask`, this one a task's time later.
		expect(far.waitMs(at)).toBe(Math.ceil(perTask - 3500));
		expect(far.waitMs(at)).toBeGreaterThan(INTERVAL);
	});

	it('spreads a queue over the workers: each worker ends a task every run time', () => {
		const observations = new QueueObservations();
		observations.recordRun('a', { lo: 10_000, hi: 10_000 });
		observations.recordEnd('a', { lo: T0 + 10_000, hi: T0 + 10_000 });
		observations.recordRun('b', { lo: 10_000, hi: 10_000 });
		observations.recordEnd('b', { lo: T0 + 12_000, hi: T0 + 12_000 });
		observations.recordQueued(2, T0 + 4000); // two workers, both busy
		const finish = (waitNumber: number) => observations.queuedFinish(T0 + 4000, waitNumber)?.hi;
		expect(finish(2)).toBe(T0 + 20_000);
		expect(finish(3)).toBe(T0 + 22_000);
		expect(finish(4)).toBe(T0 + 30_000);
		expect(finish(7)).toBe(T0 + 42_000);
	});

	it('before any run time is known, a first reading goes by the pace other queued tasks saw', () => {
		const observations = new QueueObservations();
		const ahead = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'ahead');
		ahead.observe(T0 + 4000, queued(30));
		ahead.observe(T0 + 8000, queued(20)); // 10 ended in 4 s
		expect(observations.pace).toBe(10 / 4000);
		const behind = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'behind');
		behind.observe(T0 + 8000, queued(25));
		// 25 ahead at 2.5 a second: all done by 18 s, this one by 18.4 s.
		expect(behind.waitMs(T0 + 8000)).toBe(18_400 + 300 - 8000);
	});

	it('no usable pace: the plain interval (no run time shown, or a queue that has not moved)', () => {
		const observations = new QueueObservations();
		const first = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'first');
		const second = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'second');
		first.observe(T0 + 4000, processing(0));
		second.observe(T0 + 4000, queued(1));
		expect(second.waitMs(T0 + 4000)).toBe(INTERVAL);
		second.observe(T0 + 8000, queued(1));
		expect(second.waitMs(T0 + 8000)).toBe(INTERVAL);
		expect(second.priority(T0 + 12_000)).toEqual({ rank: 'unknown', age: T0 + 12_000 });
	});

	it('never polls a queued task sooner than 3 s after its last poll', () => {
		const observations = new QueueObservations();
		const running = new PollSchedule(T0, 3000, 2000, observations, 'running');
		running.observe(T0 + 2000, processing(90)); // a 2.2 s task
		const next = new PollSchedule(T0, 3000, 2000, observations, 'next');
		next.observe(T0 + 2000, queued(1));
		// Its turn ends by 4.44 s, sooner than 3 s after this poll: held back to 5 s.
		expect(observations.queuedFinish(T0 + 2000, 1)?.hi).toBeCloseTo(T0 + 4444.4, 1);
		expect(next.waitMs(T0 + 2000)).toBe(3000);
	});

	it('with the budget used up: a queued task’s poll after its predicted finish goes first', () => {
		const observations = queueOfOne();
		const next = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'next');
		next.observe(T0 + 4000, queued(1));
		const waiting = new PollSchedule(T0, INTERVAL, INTERVAL, observations, 'waiting');
		waiting.observe(T0 + 4000, queued(5));
		next.aimNextCheck(T0 + 4000);
		waiting.aimNextCheck(T0 + 4000);
		const now = T0 + 20_300;
		const seq = { next: 1, create: 2, waiting: 3 };
		const done = { priority: next.priority(now), seq: seq.next };
		const create = { priority: { rank: 'create' as const, age: now }, seq: seq.create };
		const queuedPoll = { priority: waiting.priority(now), seq: seq.waiting };
		expect(done.priority.rank).toBe('likelyDone');
		expect(queuedPoll.priority.rank).toBe('unknown');
		expect(goesFirst(done, create)).toBe(true);
		expect(goesFirst(create, queuedPoll)).toBe(true);
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

	it('a reading that does not fit the prediction: plain interval until two readings agree', () => {
		const schedule = new PollSchedule(T0, INTERVAL);
		schedule.observe(T0 + 4000, processing(40)); // done at 10 s
		schedule.observe(T0 + 10_480, processing(45)); // it slowed down
		expect(schedule.predictedFinish).toBeUndefined();
		expect(schedule.waitMs(T0 + 10_480)).toBe(INTERVAL);
		schedule.observe(T0 + 14_480, processing(45)); // stalled
		expect(schedule.waitMs(T0 + 14_480)).toBe(INTERVAL);
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
		// 90 % right after 0 % says nothing about the pace: the plain interval.
		expect(polls).toEqual([4000, 8000, 12_000]);
	});
});

/** A budget whose requests are answered the moment they go, as in the order tests below. */
function instantAnswers(budget: TokenBucket): () => number {
	return () => {
		const wait = budget.tryTake();
		if (wait === 0) budget.answered();
		return wait;
	};
}

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
		const budget = new TokenBucket(2);
		const slots = new PrioritySlots(instantAnswers(budget));
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

	it('lets a check still waiting at its latest moment go unsent when a pause outlasts it, and keeps the create', async () => {
		const budget = new TokenBucket(1);
		const slots = new PrioritySlots(instantAnswers(budget));
		await slots.take({ rank: 'create', age: 0 });
		const order: string[] = [];
		const ask = (name: string, rank: 'create' | 'unknown', sendBy?: number) =>
			slots.take({ rank, age: 0 }, undefined, sendBy).then((given) => {
				order.push(given ? `${name} sent@${now - T0}` : `${name} let go`);
			});
		const asked = Promise.all([
			ask('check due by 1.5 s', 'unknown', T0 + 1500),
			ask('create', 'create'),
		]);
		// While both wait, the service asks for a minute's pause.
		budget.holdUntil(T0 + 60_000);
		await asked;
		expect(order).toEqual(['check due by 1.5 s let go', 'create sent@61000']);
		// Woken at 1.501 s to let the check go, not at the end of the pause; the create goes at the
		// budget's pace after it.
		expect(sleeps).toEqual([1000, 501, 58_499, 1000]);
	});

	it('lets a stopped execution’s waiting request go without a slot', async () => {
		const budget = new TokenBucket(1);
		const slots = new PrioritySlots(instantAnswers(budget));
		await slots.take({ rank: 'create', age: 0 });
		const controller = new AbortController();
		const waiting = slots.take({ rank: 'unknown', age: 0 }, controller.signal);
		controller.abort(new Error('stopped'));
		await expect(waiting).rejects.toThrow('stopped');
		expect(slots.waiting).toBe(0);
	});
});

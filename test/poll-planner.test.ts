/* eslint-disable @n8n/community-nodes/no-restricted-globals */
import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { clock as nodeClock } from '../nodes/shared/core/clock';
import { pollPlanner, type PollPlanner } from '../nodes/shared/waiting/poll-planner';
import type { SlotPriority } from '../nodes/shared/rate/order';
import { QueueObservations } from '../nodes/shared/waiting/queue-observations';
import { goesFirst } from '../nodes/shared/rate/order';
import { takeRequestSlot } from '../nodes/shared/rate/slots';
import { TaskQueue, type Slot } from '../service/queue';

const T0 = 1_000_000;
const INTERVAL = 4000;
/** The service's rule: at least 3 s between two checks of a task. */
const MIN_POLL_GAP_MS = 3000;

interface Run {
	/** How many run at once at the service. */
	workers: number;
	/** Each task's run time at the service, by its place in the run. */
	runMs: (k: number) => number;
	tasks: number;
}

interface Traced {
	checks: number[];
	endAt: number;
	seenDoneAt: number;
}

/** The node's default Max Requests per Second: one request every 20 ms when they wait. */
const SLOT_MS = 1000 / 50;
/** A queued task's wait longer than this is planned again halfway, as the poller does. */
const REPLAN_ABOVE_MS = 20_000;

type Phase = 'create' | 'sleep' | 'halfway' | 'due' | 'done';

interface SimTask {
	k: number;
	phase: Phase;
	slot?: Slot;
	planner?: PollPlanner;
	/** When it wakes: to be checked, or only to plan again halfway through a long wait. */
	wakeAt: number;
	priority: SlotPriority;
	seq: number;
	replan: boolean;
	checks: number[];
	seenDoneAt?: number;
}

/**
 * A run as the poller makes it, on a scripted clock against the local service's own queue model:
 * every create and check takes one request slot of the default budget (a slot every 20 ms; the
 * creates all asked at once), slots go in the poller's priority order, a check answers at once, a
 * queued task plans again halfway through a long wait and whenever the shared record tells it to.
 * `withdraw: false` leaves a check that waits for its slot in place whatever the record learns.
 */
function simulate(run: Run, { withdraw = true } = {}): Traced[] {
	const queue = new TaskQueue(run.workers);
	const record = new QueueObservations();
	let seq = 0;
	const tasks: SimTask[] = Array.from({ length: run.tasks }, (_, k) => ({
		k,
		phase: 'create',
		wakeAt: T0,
		priority: { rank: 'create', age: T0 },
		seq: seq++,
		replan: false,
		checks: [],
	}));
	const plan = (task: SimTask, now: number) => {
		const planner = task.planner as PollPlanner;
		const wait = planner.aimNextCheck(now);
		const halfway = planner.isQueued && wait > REPLAN_ABOVE_MS;
		task.phase = halfway ? 'halfway' : 'sleep';
		task.wakeAt = now + (halfway ? Math.ceil(wait / 2) : wait);
	};
	const send = (task: SimTask, now: number) => {
		if (task.phase === 'create') {
			task.slot = queue.schedule(now, run.runMs(task.k));
			task.planner = pollPlanner({ createdAt: now, intervalMs: INTERVAL, queue: record });
			task.planner.onReplan(() => (task.replan = true));
			plan(task, now);
			return;
		}
		const planner = task.planner as PollPlanner;
		const answer = queue.progress(task.slot as Slot, false, now);
		task.checks.push(now);
		planner.observe(now, answer);
		if (answer.status === 'Success') {
			task.phase = 'done';
			task.seenDoneAt = now;
		} else {
			plan(task, now);
		}
	};
	const replanQueued = (now: number) => {
		for (const task of tasks) {
			if (!task.replan) continue;
			task.replan = false;
			const planner = task.planner as PollPlanner;
			if (!planner.isQueued) continue;
			if (task.phase === 'sleep' || task.phase === 'halfway') plan(task, now);
			else if (task.phase === 'due' && withdraw && planner.turnMovedLater(now)) plan(task, now);
		}
	};
	let slotFreeAt = T0;
	let now = T0;
	for (;;) {
		for (const task of tasks) {
			if (task.phase === 'halfway' && task.wakeAt <= now) plan(task, now);
			if (task.phase === 'sleep' && task.wakeAt <= now) {
				task.phase = 'due';
				task.priority = (task.planner as PollPlanner).priority(now);
				task.seq = seq++;
			}
		}
		let best: SimTask | undefined;
		for (const task of tasks) {
			if (task.phase !== 'due' && task.phase !== 'create') continue;
			if (!best || goesFirst(task, best)) best = task;
		}
		if (best && slotFreeAt <= now) {
			send(best, now);
			slotFreeAt = now + SLOT_MS;
			replanQueued(now);
			continue;
		}
		let next = best ? slotFreeAt : Infinity;
		for (const task of tasks) {
			if (task.phase === 'sleep' || task.phase === 'halfway') next = Math.min(next, task.wakeAt);
		}
		if (next === Infinity) break;
		now = next;
	}
	return tasks.map((task) => ({
		checks: task.checks,
		endAt: (task.slot as Slot).endAt,
		seenDoneAt: task.seenDoneAt as number,
	}));
}

const checksPerTask = (traced: Traced[]) =>
	traced.reduce((sum, task) => sum + task.checks.length, 0) / traced.length;
const meanLatencyMs = (traced: Traced[]) =>
	traced.reduce((sum, task) => sum + task.seenDoneAt - task.endAt, 0) / traced.length;
const closestGapMs = (traced: Traced[]) =>
	Math.min(...traced.flatMap((task) => task.checks.slice(1).map((at, i) => at - task.checks[i])));

describe('poll planner: a queue of one worker (AI 3D, one task at a time per account)', () => {
	const traced = simulate({ workers: 1, runMs: () => 20_000, tasks: 20 });

	it('checks each task two or three times instead of every interval through its wait', () => {
		// Every Poll Interval would take about 50 checks a task, 100 for the last.
		expect(checksPerTask(traced)).toBeLessThanOrEqual(3);
	});

	it('notices each task within a second and a half of its end', () => {
		expect(meanLatencyMs(traced)).toBeLessThan(1000);
		for (const task of traced) expect(task.seenDoneAt - task.endAt).toBeLessThan(1500);
	});

	it('never checks a task sooner than 3 s after its last check', () => {
		expect(closestGapMs(traced)).toBeGreaterThanOrEqual(MIN_POLL_GAP_MS);
	});
});

describe('poll planner: a queue of 40 workers', () => {
	it('200 tasks of 5 s: about two checks each', () => {
		const traced = simulate({ workers: 40, runMs: () => 5000, tasks: 200 });
		expect(checksPerTask(traced)).toBeLessThanOrEqual(2.2);
		expect(meanLatencyMs(traced)).toBeLessThan(1500);
		expect(closestGapMs(traced)).toBeGreaterThanOrEqual(MIN_POLL_GAP_MS);
	});

	describe('1,000 tasks: first checks held back 20 s by the creates, before any task has shown its run time', () => {
		// The bench's N = 1,000: the second checks, planned on the interval, wait for their slots
		// while the first checks show the queue's pace.
		const withdrawn = simulate({ workers: 40, runMs: () => 5000, tasks: 1000 });
		const kept = simulate({ workers: 40, runMs: () => 5000, tasks: 1000 }, { withdraw: false });
		const lastSeen = (traced: Traced[]) => Math.max(...traced.map((task) => task.seenDoneAt));
		const lastEnd = Math.max(...withdrawn.map((task) => task.endAt));

		it('withdrawing the checks whose turn moved later: at most 2.5 checks a task', () => {
			expect(checksPerTask(kept)).toBeGreaterThan(2.7);
			expect(checksPerTask(withdrawn)).toBeLessThanOrEqual(2.5);
		});

		it('the last task is still noticed within 3 s of its end', () => {
			expect(lastSeen(withdrawn) - lastEnd).toBeLessThan(3000);
		});

		// A known gap (docs/design/waiting.md): 2.7 s. The run time comes from the
		// queue's pace alone here, and the readings that settle it lean fast.
		it.failing('the last task is still noticed within 2 s of its end', () => {
			expect(lastSeen(withdrawn) - lastEnd).toBeLessThan(2000);
		});

		it('never sooner than 3 s after the last check', () => {
			expect(closestGapMs(withdrawn)).toBeGreaterThanOrEqual(MIN_POLL_GAP_MS);
		});
	});

	it('tasks slower than the record had shown: each still noticed, never sooner than 3 s', () => {
		// The first 40 run 5 s, the rest 15 s: the record's run time no longer fits the queue.
		const traced = simulate({
			workers: 40,
			runMs: (k) => (k < 40 ? 5000 : 15_000),
			tasks: 200,
		});
		for (const task of traced) expect(task.seenDoneAt).toBeGreaterThanOrEqual(task.endAt);
		expect(closestGapMs(traced)).toBeGreaterThanOrEqual(MIN_POLL_GAP_MS);
		expect(meanLatencyMs(traced)).toBeLessThan(INTERVAL);
	});
});

describe('poll planner: what the poller relies on', () => {
	const queued = (waitNumber: number) => ({ status: 'Unprocessed', waitNumber, percentage: 0 });

	it('aiming the check records the turn it is judged against: once due, it ranks as likely done', () => {
		const record = new QueueObservations();
		record.recordRun('ahead', { lo: 5000, hi: 5000 });
		record.recordEnd('ahead', { lo: T0 + 5000, hi: T0 + 5000 });
		const planner = pollPlanner({ createdAt: T0, intervalMs: INTERVAL, queue: record });
		planner.observe(T0 + 4000, queued(1));
		// Not aimed yet: nothing to judge the check against.
		expect(planner.priority(T0 + 11_000).rank).toBe('unknown');
		// Behind the one ending at 5 s, one run more: done by 10 s, checked just after.
		const dueAt = T0 + 4000 + planner.aimNextCheck(T0 + 4000);
		expect(dueAt).toBeGreaterThan(T0 + 10_000);
		expect(dueAt).toBeLessThanOrEqual(T0 + 11_000);
		expect(planner.priority(dueAt).rank).toBe('likelyDone');
	});

	it('a queued task planned on the interval moves later when the queue shows its pace', () => {
		const record = new QueueObservations();
		const late = pollPlanner({
			createdAt: T0,
			intervalMs: INTERVAL,
			queue: record,
		});
		let replans = 0;
		late.onReplan(() => replans++);
		late.observe(T0 + 20_000, queued(500));
		expect(late.aimNextCheck(T0 + 20_000)).toBe(INTERVAL); // nothing known: the interval
		// Another queued task, read twice: 80 tasks ahead ended in 10 s.
		const other = pollPlanner({
			createdAt: T0,
			intervalMs: INTERVAL,
			queue: record,
		});
		other.observe(T0 + 12_000, queued(480));
		other.observe(T0 + 22_000, queued(400));
		expect(replans).toBeGreaterThan(0);
		// Woken, it plans again: 500 ahead at 8 a second, its turn is about a minute away.
		expect(late.aimNextCheck(T0 + 22_000)).toBeGreaterThan(55_000);
	});

	it('a check waiting for its slot is withdrawn only when the record firmly moves its turn later', () => {
		const record = new QueueObservations();
		const planner = pollPlanner({ createdAt: T0, intervalMs: INTERVAL, queue: record });
		planner.observe(T0 + 20_000, queued(500));
		expect(planner.aimNextCheck(T0 + 20_000)).toBe(INTERVAL);
		const due = T0 + 24_000;
		expect(planner.turnMovedLater(due)).toBe(false); // nothing learnt: still due
		// One other task's two readings: a pace from a few readings only (it would move a sleeping
		// check later, as above), not firm enough to withdraw one already due.
		record.recordPace(80, 10_000, 480);
		expect(planner.turnMovedLater(due)).toBe(false);
		// A run time from the tasks' progress places its turn firmly later.
		record.recordRun('running', { lo: 5000, hi: 5000 });
		record.recordEnd('running', { lo: T0 + 21_000, hi: T0 + 21_000 });
		expect(planner.turnMovedLater(due)).toBe(true);
		// Withdrawn, it is planned again for that turn, more than a second later (docs/design/
		// waiting.md); once the turn comes, it is not moved later.
		const turn = due + planner.aimNextCheck(due);
		expect(turn).toBeGreaterThan(due + 1000);
		expect(planner.turnMovedLater(turn)).toBe(false);
	});

	it('a queue that has shown neither a run time nor a pace: the Poll Interval', () => {
		const planner = pollPlanner({
			createdAt: T0,
			intervalMs: INTERVAL,
			queue: new QueueObservations(),
		});
		planner.observe(T0 + 4000, queued(12));
		expect(planner.aimNextCheck(T0 + 4000)).toBe(INTERVAL);
		planner.observe(T0 + 8000, queued(12)); // the queue has not moved
		expect(planner.aimNextCheck(T0 + 8000)).toBe(INTERVAL);
	});

	it('without a shared record, a task goes by its own readings', () => {
		const planner = pollPlanner({ createdAt: T0, intervalMs: INTERVAL, firstWaitMs: 3700 });
		expect(planner.aimNextCheck(T0)).toBe(3700);
		expect(planner.onReplan(() => undefined)).toBeInstanceOf(Function);
		// 37 % at 3.7 s: a 10 s task, checked after its end and within a second of it.
		planner.observe(T0 + 3700, { status: 'Processing', waitNumber: 0, percentage: 37 });
		const dueAt = T0 + 3700 + planner.aimNextCheck(T0 + 3700);
		expect(dueAt).toBeGreaterThan(T0 + 10_000);
		expect(dueAt).toBeLessThanOrEqual(T0 + 11_000);
	});
});

describe('a withdrawn check, at the request budget', () => {
	let now = T0;
	const saved = { ...nodeClock };
	beforeEach(() => {
		now = T0;
		nodeClock.now = () => now;
		nodeClock.sleep = async (ms: number) => {
			await new Promise((resolve) => setImmediate(resolve));
			now += ms;
		};
	});
	afterAll(() => Object.assign(nodeClock, saved));

	/** One request a second. */
	const RATE = 1;
	/** A node run on an account of its own. */
	const run = (account: string) =>
		({
			getExecutionId: () => `withdrawal-${account}`,
			getNode: () => ({ name: 'Ideal House' }),
			getItemIndex: () => 0,
			getCredentials: async () => ({ baseUrl: 'https://api.example.com', apiKey: account }),
		}) as unknown as IExecuteSingleFunctions;

	it('is not sent, and leaves the next slot to the requests still waiting', async () => {
		const ctx = run('a');
		const inFlight = await takeRequestSlot(ctx, RATE);
		const withdraw = new AbortController();
		// A check of a task likely done would go before the create.
		const check = takeRequestSlot(ctx, RATE, {
			priority: { rank: 'likelyDone', age: T0 },
			withdraw: withdraw.signal,
		});
		const create = takeRequestSlot(ctx, RATE, { priority: { rank: 'create', age: T0 + 10 } });
		const order: string[] = [];
		void create.then(() => order.push(`create@${now - T0}`));
		withdraw.abort();
		await expect(check).rejects.toMatchObject({ outcome: { kind: 'withdrawn' } });
		inFlight(); // answered: its slot frees a second later
		await create;
		expect(order).toEqual(['create@1000']);
	});

	it('a withdrawal after the slot was given changes nothing', async () => {
		const ctx = run('b');
		const withdraw = new AbortController();
		const slot = await takeRequestSlot(ctx, RATE, {
			priority: { rank: 'unknown', age: T0 },
			withdraw: withdraw.signal,
		});
		withdraw.abort();
		expect(slot).toBeInstanceOf(Function);
		slot();
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * When a task is checked, as the service and the user see it: each test follows one or a few
 * tasks of the local service's model (`service/queue.ts`, whole-number percentages) on a scripted
 * clock, through the package's `pollPlanner` only, and holds the checks to what the service asks
 * and the docs promise (docs/waiting-and-bulk-runs.md): never sooner than 3 s after the previous
 * check, the Poll Interval while nothing is predicted, a finished task noticed soon after its end,
 * few checks a task, a queued task left alone while its turn is far.
 */
import { clock as nodeClock } from '../nodes/shared/core/clock';
import { pollPlanner, type PollPlanner } from '../nodes/shared/waiting/poll-planner';
import { QueueObservations } from '../nodes/shared/waiting/queue-observations';
import { goesFirst, PrioritySlots, type SlotPriority } from '../nodes/shared/rate/order';
import { TokenBucket } from '../nodes/shared/rate/bucket';
import { TaskQueue, type ProgressModel, type Slot } from '../service/queue';

const T0 = 1_000_000;
/** The Poll Interval's default: the longest wait while nothing is predicted. */
const INTERVAL = 4000;
/** The service's rule: a task is checked at most every 3 s. */
const MIN_GAP_MS = 3000;
/** What "soon after its end" means here: the check that finds a predicted task done. */
const SOON_MS = 1000;

/** What a status check answers about the task at a moment. */
type Answer = Parameters<PollPlanner['observe']>[1];
type Service = (at: number) => Answer;

interface Check {
	at: number;
	/** The wait the planner asked for before this check. */
	wait: number;
	/** The check's place when requests wait for the budget, as it came due. */
	rank: SlotPriority['rank'];
	answer: Answer;
}

const ended = (answer: Answer) => answer.status === 'Success' || answer.status === 'Failed';
const gapsOf = (checks: Check[]) => checks.slice(1).map((check, i) => check.at - checks[i].at);
const waitsOf = (checks: Check[]) => checks.map((check) => check.wait);
const statusesOf = (checks: Check[]) => checks.map((check) => check.answer.status);
/** When the last check found the task done. */
function noticedAt(checks: Check[]): number {
	const last = checks[checks.length - 1];
	expect(last.answer.status).toBe('Success');
	return last.at;
}

/** The check that found the task done came soon after its end, and no two checks closer than 3 s. */
function expectNoticedSoonAfter(checks: Check[], endAt: number): void {
	expect(noticedAt(checks)).toBeGreaterThan(endAt);
	expect(noticedAt(checks)).toBeLessThanOrEqual(endAt + SOON_MS);
	for (const gap of gapsOf(checks)) expect(gap).toBeGreaterThanOrEqual(MIN_GAP_MS);
}

/** The check that found the task done came after its end, and within one Poll Interval of it. */
function expectNoticedWithinAnInterval(checks: Check[], endAt: number): void {
	expect(noticedAt(checks)).toBeGreaterThan(endAt);
	expect(noticedAt(checks)).toBeLessThanOrEqual(endAt + INTERVAL);
}

/**
 * One task at the local service: `ahead` tasks keep every worker busy until `startAt` (the
 * service counts them in `waitNumber`), then it runs `runMs`.
 */
function serviceTask({
	runMs,
	ahead = 0,
	startAt = T0,
	model = 'linear',
}: {
	runMs: number;
	ahead?: number;
	startAt?: number;
	model?: ProgressModel;
}): { answer: Service; endAt: number } {
	const queue = new TaskQueue(Math.max(1, ahead));
	for (let k = 0; k < ahead; k++) queue.schedule(startAt - 10_000, 10_000);
	const slot = queue.schedule(T0, runMs);
	expect(slot.startAt).toBe(startAt);
	return { answer: (at) => queue.progress(slot, false, at, model), endAt: slot.endAt };
}

/** Checks one task as the item's wait does: aim, sleep, check, observe, until it ends. */
function follow(planner: PollPlanner, answer: Service, createdAt = T0): Check[] {
	const checks: Check[] = [];
	let now = createdAt;
	while (checks.length < 200) {
		const wait = planner.aimNextCheck(now);
		now += wait;
		const rank = planner.priority(now).rank;
		const seen = answer(now);
		planner.observe(now, seen);
		checks.push({ at: now, wait, rank, answer: seen });
		if (ended(seen)) break;
	}
	return checks;
}

interface Member {
	createdAt: number;
	answer: Service;
	firstWaitMs?: number;
}

/**
 * Several tasks of one API in one execution, sharing its queue record, checked as the item's wait
 * checks them: a queued task plans again whenever the record tells it to, and halfway through a
 * wait longer than 20 s. Checks answer at once; tasks are checked in the order they were made.
 */
function together(members: Member[], intervalMs = INTERVAL): Check[][] {
	const record = new QueueObservations();
	const tasks = members.map((member) => {
		const planner = pollPlanner({
			createdAt: member.createdAt,
			intervalMs,
			firstWaitMs: member.firstWaitMs,
			queue: record,
		});
		const task = {
			member,
			planner,
			checks: [] as Check[],
			dueAt: 0,
			wait: 0,
			check: true,
			done: false,
			replan: false,
		};
		planner.onReplan(() => (task.replan = true));
		return task;
	});
	type Task = (typeof tasks)[number];
	const aim = (task: Task, now: number) => {
		const wait = task.planner.aimNextCheck(now);
		const halfway = task.planner.isQueued && wait > 20_000;
		task.dueAt = now + (halfway ? Math.ceil(wait / 2) : wait);
		task.wait = task.dueAt - (task.checks[task.checks.length - 1]?.at ?? task.member.createdAt);
		task.check = !halfway;
	};
	for (const task of tasks) aim(task, task.member.createdAt);
	for (;;) {
		const live = tasks.filter((task) => !task.done);
		if (live.length === 0) break;
		const task = live.reduce((first, other) => (other.dueAt < first.dueAt ? other : first));
		const now = task.dueAt;
		if (!task.check) {
			aim(task, now);
			continue;
		}
		const rank = task.planner.priority(now).rank;
		const seen = task.member.answer(now);
		task.planner.observe(now, seen);
		task.checks.push({ at: now, wait: task.wait, rank, answer: seen });
		if (ended(seen)) task.done = true;
		else aim(task, now);
		for (const other of tasks) {
			if (!other.replan) continue;
			other.replan = false;
			if (other !== task && !other.done && other.planner.isQueued) aim(other, now);
		}
	}
	return tasks.map((task) => task.checks);
}

/** The answers of a task at `queue`'s slot. */
const at =
	(queue: TaskQueue, slot: Slot): Service =>
	(now) =>
		queue.progress(slot, false, now);

describe('checking a task: aimed at its predicted finish', () => {
	it('a linear task is checked at its first wait, then just after its predicted end', () => {
		const task = serviceTask({ runMs: 10_000 });
		const planner = pollPlanner({ createdAt: T0, intervalMs: INTERVAL, firstWaitMs: 3700 });
		const checks = follow(planner, task.answer);
		expect(checks[0].at).toBe(T0 + 3700);
		// Twice, instead of every interval: the second lands after the end, within a second of it.
		expect(statusesOf(checks)).toEqual(['Processing', 'Success']);
		expect(noticedAt(checks)).toBeGreaterThan(task.endAt);
		expect(noticedAt(checks)).toBeLessThanOrEqual(task.endAt + SOON_MS);
		// When requests wait for the budget, the check of a task likely done goes first.
		expect(checks.map((check) => check.rank)).toEqual(['unknown', 'likelyDone']);
	});

	it('a slow first reading (it may have queued unseen): read again one Poll Interval later, then the pace of the two', () => {
		// Created at T0, it waited unseen behind another task until 2 s: 20 % at 4 s looks like a
		// 20 s task, but it is a 10 s one that ends at 12 s.
		const task = serviceTask({ runMs: 10_000, ahead: 1, startAt: T0 + 2000 });
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), task.answer);
		expect(gapsOf(checks)[0]).toBe(INTERVAL);
		expect(statusesOf(checks)).toEqual(['Processing', 'Processing', 'Success']);
		expect(noticedAt(checks)).toBeGreaterThan(task.endAt);
		expect(noticedAt(checks)).toBeLessThanOrEqual(task.endAt + SOON_MS);
	});

	it('a long task: waits longer than the Poll Interval while its end is far, never more than 30 s', () => {
		const task = serviceTask({ runMs: 80_000 });
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), task.answer);
		// docs/design/waiting.md: a wait predicted from progress is never longer than 30 s.
		expect(Math.max(...waitsOf(checks))).toBeGreaterThan(INTERVAL);
		expect(Math.max(...waitsOf(checks))).toBeLessThanOrEqual(30_000);
		// Every Poll Interval would take 20 checks.
		expect(checks.length).toBeLessThanOrEqual(6);
		expectNoticedSoonAfter(checks, task.endAt);
	});

	it('a task whose whole-number percentage leaves its end seconds open: one more reading as it runs, then just after its end', () => {
		// Started unseen at 1 s, 27 s long: 11 % at 4 s and 25 % at 8 s leave more than 3 s open.
		const task = serviceTask({ runMs: 27_000, ahead: 1, startAt: T0 + 1000 });
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), task.answer);
		expect(statusesOf(checks)).toEqual(['Processing', 'Processing', 'Processing', 'Success']);
		// The third reading is aimed, not every interval, and still comes before the end.
		expect(checks[2].wait).toBeGreaterThan(INTERVAL);
		expect(checks[2].at).toBeLessThan(task.endAt);
		expectNoticedSoonAfter(checks, task.endAt);
	});

	it('a task seen queued is timed from two readings once it runs, not from when it was last seen queued', () => {
		// Three tasks ahead keep the workers busy until 5 s; it was last seen queued at 4 s.
		const task = serviceTask({ runMs: 10_000, ahead: 3, startAt: T0 + 5000 });
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), task.answer);
		expect(checks[0].answer).toMatchObject({ status: 'Unprocessed', waitNumber: 3 });
		// One reading after the queue says nothing of its pace: the Poll Interval.
		expect(checks[1].answer.status).toBe('Processing');
		expect(checks[2].wait).toBe(INTERVAL);
		expect(noticedAt(checks)).toBeGreaterThan(task.endAt);
		expect(noticedAt(checks)).toBeLessThanOrEqual(task.endAt + SOON_MS);
	});

	it('a long task after the queue: the pace of two readings places the check', () => {
		const task = serviceTask({ runMs: 30_000, ahead: 1, startAt: T0 + 5000 });
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), task.answer);
		expect(Math.max(...waitsOf(checks))).toBeGreaterThan(INTERVAL);
		// Every Poll Interval would take 9 checks.
		expect(checks.length).toBeLessThanOrEqual(5);
		expect(noticedAt(checks)).toBeGreaterThan(task.endAt);
		expect(noticedAt(checks)).toBeLessThanOrEqual(task.endAt + SOON_MS);
	});

	it('a queued task on its own: the pace its waitNumber falls at places the check', () => {
		// Ten workers of 4 s end a task every 400 ms; 30 more wait ahead of this one.
		const queue = new TaskQueue(10);
		for (let k = 0; k < 10; k++) queue.schedule(T0 - 4000 + k * 400, 4000);
		for (let k = 0; k < 30; k++) queue.schedule(T0, 4000);
		const slot = queue.schedule(T0, 4000);
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), at(queue, slot));
		// Two readings give the pace; no check between its second reading and its end.
		expect(statusesOf(checks)).toEqual(['Unprocessed', 'Unprocessed', 'Success']);
		expect(checks[2].wait).toBeGreaterThan(INTERVAL);
		expect(noticedAt(checks)).toBeGreaterThan(slot.endAt);
		expect(noticedAt(checks)).toBeLessThanOrEqual(slot.endAt + SOON_MS);
		expect(checks.map((check) => check.rank)).toEqual(['unknown', 'unknown', 'likelyDone']);
	});
});

/**
 * A queue of one worker, as AI 3D runs for an account: tasks of 10 s. This execution made the
 * first two and the last; `between` more, each `betweenMs` long, came from elsewhere on the
 * account (its record never sees them).
 */
function queueOfOne(between: number, betweenMs = 10_000) {
	const queue = new TaskQueue(1);
	const first = queue.schedule(T0, 10_000);
	const second = queue.schedule(T0, 10_000);
	for (let k = 0; k < between; k++) queue.schedule(T0, betweenMs);
	const last = queue.schedule(T0, 10_000);
	const slots = [first, second, last];
	const checks = together(slots.map((slot) => ({ createdAt: T0, answer: at(queue, slot) })));
	return slots.map((slot, k) => ({ endAt: slot.endAt, checks: checks[k] }));
}

describe('checking a task: queued tasks wait for their turn', () => {
	it('a queue of one worker: each task behind is checked once while queued, then just after its end', () => {
		const [running, ...behind] = queueOfOne(0);
		expect(statusesOf(running.checks)).toEqual(['Processing', 'Success']);
		for (const task of behind) {
			// Every Poll Interval would take 5 and 7 checks.
			expect(statusesOf(task.checks)).toEqual(['Unprocessed', 'Success']);
			expect(noticedAt(task.checks)).toBeGreaterThan(task.endAt);
			expect(noticedAt(task.checks)).toBeLessThanOrEqual(task.endAt + SOON_MS);
		}
	});

	it('a task far back: read once as it runs, then checked just after its end', () => {
		const far = queueOfOne(3)[2];
		expect(far.endAt).toBe(T0 + 60_000);
		// Its turn is known to a second and a half only: one reading as it runs pins it down.
		expect(statusesOf(far.checks)).toEqual(['Unprocessed', 'Processing', 'Success']);
		expect(noticedAt(far.checks)).toBeGreaterThan(far.endAt);
		expect(noticedAt(far.checks)).toBeLessThanOrEqual(far.endAt + SOON_MS);
	});

	it('a task still queued when the record said it would run: its own pace from then on', () => {
		// The three tasks from elsewhere run 20 s, not the 10 s this execution's tasks showed.
		const far = queueOfOne(3, 20_000)[2];
		const stillQueued = far.checks.findIndex(
			(check, k) => k > 0 && check.answer.status === 'Unprocessed',
		);
		expect(stillQueued).toBeGreaterThan(0);
		// Not every interval from there: the pace of its own waitNumber places the next check, after
		// its turn came.
		expect(far.checks[stillQueued + 1].wait).toBeGreaterThan(INTERVAL);
		expect(far.checks[stillQueued + 1].answer.status).toBe('Processing');
		// Every Poll Interval would take 22 checks.
		expect(far.checks.length).toBeLessThanOrEqual(4);
		expect(noticedAt(far.checks)).toBeGreaterThan(far.endAt);
		expect(noticedAt(far.checks)).toBeLessThanOrEqual(far.endAt + SOON_MS);
		for (const gap of gapsOf(far.checks)) expect(gap).toBeGreaterThanOrEqual(MIN_GAP_MS);
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

	it('before any task has shown its run time, a first reading goes by the pace other queued tasks saw', () => {
		// Ten workers of 4 s, a task ending every 400 ms: one task made at T0, another at 4 s.
		const queue = new TaskQueue(10);
		for (let k = 0; k < 10; k++) queue.schedule(T0 - 4000 + k * 400, 4000);
		for (let k = 0; k < 30; k++) queue.schedule(T0, 4000);
		const ahead = queue.schedule(T0, 4000);
		for (let k = 0; k < 5; k++) queue.schedule(T0 + 4000, 4000);
		const behind = queue.schedule(T0 + 4000, 4000);
		const [, checks] = together([
			{ createdAt: T0, answer: at(queue, ahead) },
			{ createdAt: T0 + 4000, answer: at(queue, behind) },
		]);
		// One reading of its own, and no check between it and its end.
		expect(statusesOf(checks)).toEqual(['Unprocessed', 'Success']);
		expect(checks[1].wait).toBeGreaterThan(INTERVAL);
		expect(noticedAt(checks)).toBeGreaterThan(behind.endAt);
		expect(noticedAt(checks)).toBeLessThanOrEqual(behind.endAt + SOON_MS);
	});

	it('no usable pace: the Poll Interval (no run time shown, and a queue that has not moved)', () => {
		const running: Service = (now) =>
			now < T0 + 20_000
				? { status: 'Processing', waitNumber: 0, percentage: 0 }
				: { status: 'Success', waitNumber: 0, percentage: 100 };
		const queue = new TaskQueue(1);
		queue.schedule(T0 - 10_000, 30_000); // ends at 20 s
		const behind = queue.schedule(T0, 10_000);
		const [, checks] = together([
			{ createdAt: T0, answer: running },
			{ createdAt: T0, answer: at(queue, behind) },
		]);
		const whileQueued = checks.filter((check) => check.answer.status === 'Unprocessed');
		expect(whileQueued.length).toBeGreaterThanOrEqual(4);
		for (const check of whileQueued) expect(check.wait).toBe(INTERVAL);
		for (const check of whileQueued) expect(check.rank).toBe('unknown');
		expect(noticedAt(checks)).toBeGreaterThan(behind.endAt);
	});

	it('never checks a queued task sooner than 3 s after its last check', () => {
		// Poll Interval 3 s; a task of 2.2 s runs, the next ends at 4.4 s, 2.4 s after both were read.
		const queue = new TaskQueue(1);
		const running = queue.schedule(T0, 2222);
		const next = queue.schedule(T0, 2222);
		const [, checks] = together(
			[
				{ createdAt: T0, firstWaitMs: 2000, answer: at(queue, running) },
				{ createdAt: T0, firstWaitMs: 2000, answer: at(queue, next) },
			],
			3000,
		);
		expect(statusesOf(checks)).toEqual(['Unprocessed', 'Success']);
		// Held back to the first moment the service allows, which finds it done.
		expect(gapsOf(checks)).toEqual([MIN_GAP_MS]);
		expect(noticedAt(checks)).toBeGreaterThan(next.endAt);
	});

	it('when requests wait for the budget: a queued task’s check past its turn goes before a create, one whose turn is far after it', () => {
		const record = new QueueObservations();
		const planner = () => pollPlanner({ createdAt: T0, intervalMs: INTERVAL, queue: record });
		const running = planner();
		const next = planner();
		const far = planner();
		running.observe(T0 + 4000, { status: 'Processing', waitNumber: 0, percentage: 40 });
		next.observe(T0 + 4000, { status: 'Unprocessed', waitNumber: 1, percentage: 0 });
		far.observe(T0 + 4000, { status: 'Unprocessed', waitNumber: 5, percentage: 0 });
		const dueAt = T0 + 4000 + next.aimNextCheck(T0 + 4000);
		expect(T0 + 4000 + far.aimNextCheck(T0 + 4000)).toBeGreaterThan(dueAt + INTERVAL);
		// Both due at once, with a create waiting too.
		const done = { priority: next.priority(dueAt), seq: 1 };
		const create = { priority: { rank: 'create' as const, age: dueAt }, seq: 2 };
		const queued = { priority: far.priority(dueAt), seq: 3 };
		expect(goesFirst(done, create)).toBe(true);
		expect(goesFirst(create, queued)).toBe(true);
	});
});

describe('checking a task: never sooner than 3 s after the previous check', () => {
	it('a check aimed sooner is held back to 3 s, wherever the wait is asked from', () => {
		// 90 % at 4 s: done by 4.4 s, sooner than the service allows a second check.
		const task = serviceTask({ runMs: 4400 });
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), task.answer);
		expect(statusesOf(checks)).toEqual(['Processing', 'Success']);
		expect(gapsOf(checks)).toEqual([MIN_GAP_MS]);
		// The same reading, with the wait asked a second after the check: the same moment.
		const late = pollPlanner({ createdAt: T0, intervalMs: INTERVAL });
		late.observe(checks[0].at, checks[0].answer);
		expect(T0 + 5000 + late.aimNextCheck(T0 + 5000)).toBe(checks[1].at);
	});

	it('an overdue check goes at once; one asked late still keeps 3 s from the previous check', () => {
		const queued = pollPlanner({ createdAt: T0, intervalMs: 3000 });
		queued.observe(T0 + 4000, { status: 'Unprocessed', waitNumber: 5, percentage: 0 });
		expect(T0 + 4500 + queued.aimNextCheck(T0 + 4500)).toBeGreaterThanOrEqual(
			T0 + 4000 + MIN_GAP_MS,
		);
		expect(queued.aimNextCheck(T0 + 9000)).toBe(0);
		// A task predicted done by 10 s, its wait asked only at 15 s (say, after a fault): at once.
		const predicted = pollPlanner({ createdAt: T0, intervalMs: INTERVAL });
		predicted.observe(T0 + 4000, { status: 'Processing', waitNumber: 0, percentage: 40 });
		expect(predicted.aimNextCheck(T0 + 15_000)).toBe(0);
	});
});

describe('checking a task: progress that says nothing falls back to the Poll Interval', () => {
	const processing = (percentage: number): Answer => ({
		status: 'Processing',
		waitNumber: 0,
		percentage: Math.floor(percentage),
	});
	const success: Answer = { status: 'Success', waitNumber: 0, percentage: 100 };

	it('stuck at 0 while processing: every Poll Interval', () => {
		const endAt = T0 + 17_000;
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), (now) =>
			now < endAt ? processing(0) : success,
		);
		for (const wait of waitsOf(checks)) expect(wait).toBe(INTERVAL);
		for (const check of checks) expect(check.rank).toBe('unknown');
		expectNoticedWithinAnInterval(checks, endAt);
	});

	it('progress going backwards: the Poll Interval from then on', () => {
		// 10 % a second, then started over at 5 s, at 5 % a second: done at 25 s.
		const endAt = T0 + 25_000;
		const restarted: Service = (now) => {
			const t = now - T0;
			if (t < 5000) return processing(t / 100);
			return now < endAt ? processing((t - 5000) / 200) : success;
		};
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), restarted);
		const back = checks.findIndex(
			(check, k) => k > 0 && check.answer.percentage! < checks[k - 1].answer.percentage!,
		);
		expect(back).toBeGreaterThan(0);
		for (const wait of waitsOf(checks.slice(back + 1))) expect(wait).toBe(INTERVAL);
		expectNoticedWithinAnInterval(checks, endAt);
	});

	it('a reading off the predicted line: the Poll Interval until two readings agree again', () => {
		// 10 % a second for 4 s (a 10 s task, it seems), then 2.5 % a second: done at 28 s.
		const endAt = T0 + 28_000;
		const slowed: Service = (now) => {
			const t = now - T0;
			if (t < 4000) return processing(t / 100);
			return now < endAt ? processing(40 + (t - 4000) / 400) : success;
		};
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), slowed);
		// Aimed at 10 s, it found the task at 56 %: read again one Poll Interval later.
		const off = checks.findIndex((check) => check.rank === 'likelyDone');
		expect(checks[off].answer.status).toBe('Processing');
		expect(checks[off + 1].wait).toBe(INTERVAL);
		// Then aimed again, no more often than every interval, and noticed within one.
		const everyInterval = Math.ceil((endAt - checks[off].at) / INTERVAL);
		expect(checks.length - off - 1).toBeLessThanOrEqual(everyInterval);
		expectNoticedWithinAnInterval(checks, endAt);
		for (const gap of gapsOf(checks)) expect(gap).toBeGreaterThanOrEqual(MIN_GAP_MS);
	});

	it('stuck then jumping: never later, nor more often, than checking every Poll Interval', () => {
		// The service's stuck-then-jump model: 0 % for 6 s of a 10 s task, then 90 %.
		const task = serviceTask({ runMs: 10_000, model: 'stuck-then-jump' });
		const checks = follow(pollPlanner({ createdAt: T0, intervalMs: INTERVAL }), task.answer);
		const everyInterval: number[] = [];
		for (let now = T0 + INTERVAL; everyInterval.push(now), !ended(task.answer(now)); )
			now += INTERVAL;
		expect(checks.length).toBeLessThanOrEqual(everyInterval.length);
		expect(noticedAt(checks)).toBeLessThanOrEqual(everyInterval[everyInterval.length - 1]);
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

/**
 * When to check one task next: the one interface of `waiting/` for the item's wait.
 *
 * Observed: each check's status, `percentage` and `waitNumber` (tasks ahead), and, through the
 * record that one API's tasks share within a node execution (`queueOf`), how long its tasks run,
 * when they end and how many run at once.
 * Predicted: when the task finishes. A running task ends where its progress reaches 100 %; a
 * queued task with w tasks ahead, one run after its turn, (w div workers) run times after the
 * (w mod workers)-th next end of a worker. The check goes just after that, or once a little
 * before when the prediction leaves more than a second open.
 * Guard rails: never under 3 s after the previous check (the spec); the Poll Interval whenever
 * nothing fits; a predicted wait of at most 30 s; a queued check still waiting for its request
 * slot is withdrawn when its turn moves firmly later (`turnMovedLater`). CONTRIBUTING's "How
 * waiting decides" gives the whole model.
 */
import { PerExecution, type ExecutionOf } from '../basics/per-execution';
import { QueueObservations } from './queue-observations';
import type { SlotPriority } from '../transport/request-order';
import { PollSchedule, type TaskProgress } from './poll-schedule';

export interface PollPlanner {
	/** How long, from `now`, until the next check is due. Only reads. */
	waitMs(now: number): number;
	/** Settles the next check: records the turn it aims at and returns its wait from `now`. */
	aimNextCheck(now: number): number;
	/** Records what a check answered at `at`. */
	observe(at: number, task: TaskProgress): void;
	/**
	 * Whether a check that came due and still waits for a request slot should be withdrawn: the
	 * task queues, and what the other tasks' checks showed since places its turn firmly later than
	 * a second from now, so the check would most likely find it still queued.
	 */
	turnMovedLater(now: number): boolean;
	/** The check's place when requests have to wait for the request budget. */
	priority(now: number): SlotPriority;
	/** Whether the last check found the task waiting for its turn. */
	readonly isQueued: boolean;
	/**
	 * Calls `listener` when the other tasks' checks showed something that may move this task's
	 * next check; returns its removal.
	 */
	onReplan(listener: () => void): () => void;
}

export interface PlannerSetup {
	/** When the create call returned. */
	createdAt: number;
	/** The Poll Interval: the longest wait while nothing is predicted. */
	intervalMs: number;
	/** The wait before the first check (the interval with its jitter). */
	firstWaitMs?: number;
	/** The record its API's tasks share in this execution; without it, the task goes on its own. */
	queue?: QueueObservations;
	/** This task's name in `queue`. */
	taskKey?: string;
}

export function pollPlanner(setup: PlannerSetup): PollPlanner {
	return new PollSchedule(
		setup.createdAt,
		setup.intervalMs,
		setup.firstWaitMs ?? setup.intervalMs,
		setup.queue,
		setup.taskKey ?? '',
	);
}

/**
 * The queue record of one API's tasks in one execution. Its items run on one account, so they
 * wait in the same line, and a run learns only from what it sees itself: a record kept per
 * process would carry another workflow's account or an hour-old service load into this one.
 */
const queues = new PerExecution<QueueObservations>(24 * 60 * 60_000);

export function queueOf(ctx: ExecutionOf, apiName: string): QueueObservations {
	return queues.get(ctx, apiName, () => new QueueObservations());
}

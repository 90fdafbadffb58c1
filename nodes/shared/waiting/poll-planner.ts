/**
 * When to check one task next: the one interface of `waiting/` for the item's wait. It checks
 * where the task's end is predicted (from its progress, or its place in the queue its API's tasks
 * share in an execution), never under 3 s after the previous check, and falls back to the Poll
 * Interval when nothing fits. CONTRIBUTING's "How waiting decides" gives the whole model.
 */
import { PerExecution, type ExecutionOf } from '../core/per-execution';
import { QueueObservations } from './queue-observations';
import type { SlotPriority } from '../rate/order';
import { PollSchedule, type TaskProgress } from './poll-schedule';
import { executionLimits } from '../core/limits';

export interface PollPlanner {
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
}

export function pollPlanner(setup: PlannerSetup): PollPlanner {
	return new PollSchedule(
		setup.createdAt,
		setup.intervalMs,
		setup.firstWaitMs ?? setup.intervalMs,
		setup.queue,
	);
}

/**
 * The queue record of one API's tasks in one execution. Its items run on one account, so they
 * wait in the same line, and a run learns only from what it sees itself: a record kept per
 * process would carry another workflow's account or an hour-old service load into this one.
 */
const queues = new PerExecution<QueueObservations>(executionLimits.stateIdleMs, 'drop');

export function queueOf(ctx: ExecutionOf, apiName: string): QueueObservations {
	return queues.get(ctx, apiName, () => new QueueObservations());
}

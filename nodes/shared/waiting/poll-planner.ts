// When to check one task next: the one interface of `waiting/` for the item's wait.
// The model: docs/design/waiting.md
import { PerExecution, type ExecutionOf } from '../core/per-execution';
import { QueueObservations } from './queue-observations';
import type { SlotPriority } from '../rate/order';
import { PollSchedule, type TaskProgress } from './poll-schedule';
import { executionLimits } from '../core/limits';

export interface PollPlanner {
	/** Settles the next check: records the turn it aims at and returns its wait from `now`. */
	aimNextCheck(now: number): number;
	observe(at: number, task: TaskProgress): void;
	/** Whether a due check still waiting for its slot should go: its turn is now firmly later. */
	turnMovedLater(now: number): boolean;
	/** The check's place when requests have to wait for the request budget. */
	priority(now: number): SlotPriority;
	readonly isQueued: boolean;
	/** Calls `listener` when the other tasks' checks may move this task's next check. */
	onReplan(listener: () => void): () => void;
}

export interface PlannerSetup {
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

// Per execution: its items share one account and line; a record kept per process would carry
// another workflow's account or an hour-old service load into this one.
const queues = new PerExecution<QueueObservations>(executionLimits.stateIdleMs, 'drop');

export function queueOf(ctx: ExecutionOf, apiName: string): QueueObservations {
	return queues.get(ctx, apiName, () => new QueueObservations());
}

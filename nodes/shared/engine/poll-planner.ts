/**
 * The poll planner: when to check one task next.
 *
 * What it observes. Each check's answer for its own task: the status, `percentage` (a whole
 * number) and `waitNumber` (the tasks ahead of it in the service's queue). And, through the record
 * that the tasks of one API share within one node execution (`QueueObservations`), what the other
 * tasks' checks showed: how long a task runs, when tasks ended, how many run at once.
 *
 * What it predicts: when its task finishes.
 * - A running task ends where its progress line reaches 100 %, read from the time since it was
 *   created, or from two readings when it may have queued unseen first.
 * - A queued task with w tasks ahead ends one run after its turn comes. The tasks ahead go through
 *   the workers in order, each worker ending one task per run time, so its turn comes (w div
 *   workers) run times after the (w mod workers)-th next end of a worker.
 * The check goes just after the predicted finish, or once a little before it when the prediction
 * still leaves more than a second open, so that one reading of its progress pins it down.
 *
 * Guard rails.
 * - Never under 3 s after the task's previous check: the service's rule.
 * - Fall back to the Poll Interval whenever the record does not fit: no progress yet, progress
 *   stuck at 0, jumping or going backwards, two readings that disagree, or a queue that has shown
 *   neither a run time nor a pace. A task still queued when the record said it would run goes by
 *   the pace of its own `waitNumber` from then on.
 * - A wait predicted from progress is never longer than 30 s; a long wait in a queue is planned
 *   again on the way, as the tasks ahead report.
 *
 * When requests wait for the request budget, a queued task's check may come due and still wait
 * for its slot while the record learns more. If what it learnt places the task's turn firmly (by a
 * run time, not a pace from a few readings) later than a second from now, the poller withdraws
 * the check (`turnMovedLater`) and plans it again: it would most likely have found the task still
 * queued, and its slot goes to a check that counts.
 *
 * Reading a plan changes nothing (`waitMs`). The one thing a plan leaves behind, the turn the next
 * check aims at (its answer is judged against it), is recorded by `aimNextCheck`, which the poller
 * calls when it settles on the wait.
 */
import type { QueueObservations } from './queue-observations';
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

/**
 * When to poll one task next, from what its earlier polls said. Pure: every time comes in as an
 * argument, so the decisions can be pinned in tests.
 *
 * - Never less than 3 s after the task's last poll (the spec's polling rule).
 * - While the task runs with rising `percentage`, its finish is predicted from the progress over
 *   the time since it started, and the next poll goes just after that moment (after one closer
 *   reading first when the task is long and the whole-number percentage leaves seconds open).
 * - While it queues (`waitNumber` above 0), it polls every Poll Interval, and the time spent
 *   queued does not count as running time in the prediction. (How fast the queue moves does not
 *   say when this task starts: `waitNumber` counts the tasks ahead, not the service's workers.)
 * - With no prediction (no progress yet, or progress that stalls at 0, jumps or goes backwards),
 *   it polls every Poll Interval, as a plain poller does.
 */

/** The spec: poll every 3 to 5 seconds, so never sooner than 3 s after the last poll. */
export const MIN_POLL_GAP_MS = 3000;
/** A wrong prediction costs at most this much: a predicted wait is never longer. */
export const MAX_PREDICTED_WAIT_MS = 30_000;
/** Aim this long after the predicted finish, plus a share of the time still to go. */
const MARGIN_MS = 300;
const MARGIN_SHARE = 0.03;
/** Two predictions further apart than this share of the task's time: progress is not linear. */
const AGREEMENT_SHARE = 0.25;
const AGREEMENT_MIN_MS = 2000;
/**
 * `percentage` is a whole number, so early in a long task it pins the finish down only to a few
 * seconds. Wider than this, and with time to spare, one more poll first narrows it.
 */
const REFINE_ABOVE_MS = 1000;
const REFINE_LEAD_MS = MIN_POLL_GAP_MS + 500;

export interface TaskProgress {
	status: string;
	percentage?: number;
	waitNumber?: number;
}

/**
 * Which requests go first when the node's request budget is used up: polls of tasks that are
 * likely done, then creates, then other polls; the oldest first within each.
 */
export type SlotRank = 'likelyDone' | 'create' | 'unknown';

export interface SlotPriority {
	rank: SlotRank;
	/**
	 * Smaller goes first among equal ranks: since when the request has been due. For a likely
	 * finished task that is its predicted finish, so the longest finished goes first; for other
	 * polls the moment the poll was due, so none waits behind a younger one for ever.
	 */
	age: number;
}

export class PollSchedule {
	private lastPollAt: number | undefined;
	/** The latest moment the task was seen not yet progressing: its start is later than this. */
	private notStartedAt: number;
	/** Whether a poll saw the task queued or at 0 %: its start is then known only to a window. */
	private sawNotStarted = false;
	/** The first reading above 0 % since then: with a later one it gives the pace. */
	private anchor: { at: number; percentage: number } | undefined;
	private lastPercentage = 0;
	private informative = true;
	/** By when the task should have finished, from its progress; undefined while unknown. */
	predictedFinish: number | undefined;
	/** The earliest it can finish, from the same reading. */
	private earliestFinish: number | undefined;

	/**
	 * @param createdAt when the create call returned
	 * @param intervalMs the Poll Interval: the longest wait while nothing is predicted
	 * @param firstWaitMs the wait before the first poll (the interval with its jitter)
	 */
	constructor(
		readonly createdAt: number,
		private readonly intervalMs: number,
		private readonly firstWaitMs: number = intervalMs,
	) {
		this.notStartedAt = createdAt;
	}

	/** Whether progress still looks usable for predictions. */
	get usesProgress(): boolean {
		return this.informative;
	}

	/** Records what a poll answered at `at`. */
	observe(at: number, task: TaskProgress): void {
		this.lastPollAt = at;
		const percentage = typeof task.percentage === 'number' ? task.percentage : undefined;
		const waitNumber = typeof task.waitNumber === 'number' ? task.waitNumber : 0;

		if (task.status === 'Unprocessed' || waitNumber > 0) {
			if (this.lastPercentage > 0) this.informative = false; // back in the queue?
			this.notYetStarted(at);
			return;
		}
		if (percentage === undefined || percentage <= 0 || percentage >= 100) {
			if (this.lastPercentage > 0) this.informative = false; // went back to 0 or jumped to 100
			if (percentage === undefined || percentage <= 0) this.notYetStarted(at);
			this.predictedFinish = undefined;
			return;
		}
		if (percentage < this.lastPercentage) this.informative = false;
		this.lastPercentage = percentage;
		const window = this.informative ? this.finishWindow(at, percentage) : undefined;
		if (!window) {
			this.predictedFinish = undefined;
			return;
		}
		const previous = this.predictedFinish;
		const earlier = this.earliestFinish ?? 0;
		const tolerance = Math.max(
			AGREEMENT_MIN_MS,
			AGREEMENT_SHARE * (window.latest - this.notStartedAt),
		);
		if (
			previous !== undefined &&
			(window.latest < earlier - tolerance || window.earliest > previous + tolerance)
		) {
			// The new reading does not fit the earlier one: progress is not linear.
			this.informative = false;
			this.predictedFinish = undefined;
			return;
		}
		this.predictedFinish = window.latest;
		this.earliestFinish = window.earliest;
	}

	private notYetStarted(at: number): void {
		this.notStartedAt = at;
		this.sawNotStarted = true;
		this.anchor = undefined;
		this.predictedFinish = undefined;
	}

	/**
	 * Between when the task can finish at the earliest and by when at the latest, from a reading of
	 * `percentage` (a whole number, rounded down) at `at`.
	 *
	 * A task is first taken to have started when it was created (or last seen queued or at 0 %).
	 * That is trusted when it puts the finish within two intervals. A slower reading may come from
	 * a task that queued unseen before it started: then a second reading, one interval later,
	 * gives the pace, and the two together place the poll.
	 */
	private finishWindow(
		at: number,
		percentage: number,
	): { earliest: number; latest: number } | undefined {
		const start = this.notStartedAt;
		// Started no sooner than `start`, so at most this slow: linear progress ends by then.
		const bySighting = start + ((at - start) * 100) / percentage;
		if (!this.anchor) {
			if (!this.sawNotStarted && bySighting - at <= 2 * this.intervalMs) {
				return { earliest: start + ((at - start) * 100) / (percentage + 1), latest: bySighting };
			}
			this.anchor = { at, percentage };
			return undefined;
		}
		const elapsed = at - this.anchor.at;
		// No progress between the two readings: stalled for now, so nothing to go by.
		if (elapsed <= 0 || percentage === this.anchor.percentage) return undefined;
		const fastest = (percentage + 1 - this.anchor.percentage) / elapsed;
		const slowest = (percentage - this.anchor.percentage - 1) / elapsed;
		const latest =
			slowest > 0 ? Math.min(bySighting, at + (100 - percentage) / slowest) : bySighting;
		const earliest = Math.min(latest, at + (99 - percentage) / fastest);
		return { earliest, latest };
	}

	/** How long to wait, from `now`, before the next poll. */
	waitMs(now: number): number {
		if (this.lastPollAt === undefined) return Math.max(0, this.createdAt + this.firstWaitMs - now);
		let target = this.lastPollAt + this.intervalMs;
		const earliest = this.earliestFinish ?? 0;
		if (
			this.predictedFinish !== undefined &&
			this.predictedFinish - earliest > REFINE_ABOVE_MS &&
			earliest - now > REFINE_LEAD_MS + MIN_POLL_GAP_MS
		) {
			// A closer reading, early enough that the poll it aims still comes after the finish.
			target = Math.min(earliest - REFINE_LEAD_MS, now + MAX_PREDICTED_WAIT_MS);
		} else if (this.predictedFinish !== undefined) {
			const margin = MARGIN_MS + MARGIN_SHARE * Math.max(0, this.predictedFinish - now);
			target = Math.min(this.predictedFinish + margin, now + MAX_PREDICTED_WAIT_MS);
		}
		// Whole milliseconds, rounded up: never a moment early.
		return Math.max(0, Math.ceil(Math.max(target, this.lastPollAt + MIN_POLL_GAP_MS) - now));
	}

	/** The place of this task's next poll when requests have to wait for the budget. */
	priority(now: number): SlotPriority {
		if (this.predictedFinish !== undefined && now >= this.predictedFinish) {
			return { rank: 'likelyDone', age: this.predictedFinish };
		}
		return { rank: 'unknown', age: now };
	}
}

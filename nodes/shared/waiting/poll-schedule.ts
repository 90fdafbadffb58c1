// The poll planner's one implementation; pure (every time is an argument) so tests can pin it.
// The model: docs/design/waiting.md
import type { SlotPriority } from '../rate/order';

import type { QueueObservations, Window } from './queue-observations';
import { pollLimits } from '../core/limits';

/** Never sooner than the service allows after the last check. */
const MIN_GAP_MS = pollLimits.intervalSeconds.min * 1000;

/** Each schedule takes its own name in the shared record. */
let schedules = 0;

/** When a queued task finishes; firm when the record's run time places it, not a pace alone. */
type Turn = Window & { firm: boolean };

export interface TaskProgress {
	status: string;
	percentage?: number;
	waitNumber?: number;
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
	/** False once progress jumps, goes back or stops fitting: no longer usable. */
	private informative = true;
	/** By when the task should have finished, from its progress. */
	private finishPrediction: number | undefined;
	private earliestFinish: number | undefined;
	private queued: { at: number; waitNumber: number } | undefined;
	/** The first of the readings that found it queued: with the latest, its own pace. */
	private firstQueued: { at: number; waitNumber: number } | undefined;
	/** The check under way is judged against it. */
	private aimedTurn: Turn | undefined;
	/** Still queued when the shared picture said it would run: from then on, its own pace only. */
	private ownPaceOnly = false;
	/** Predicted from the other tasks' run time. */
	private borrowedPrediction = false;

	/** `taskKey` only tells the tasks apart in the record: its own name, not the service's id. */
	constructor(
		readonly createdAt: number,
		private readonly intervalMs: number,
		private readonly firstWaitMs: number = intervalMs,
		private readonly observations?: QueueObservations,
		private readonly taskKey: string = `task ${++schedules}`,
	) {
		this.notStartedAt = createdAt;
	}

	get isQueued(): boolean {
		return this.queued !== undefined;
	}

	observe(at: number, task: TaskProgress): void {
		const previousPollAt = this.lastPollAt ?? this.createdAt;
		this.lastPollAt = at;
		const percentage = typeof task.percentage === 'number' ? task.percentage : undefined;
		const waitNumber = typeof task.waitNumber === 'number' ? task.waitNumber : 0;
		const plan = this.aimedTurn;
		this.aimedTurn = undefined;

		if (task.status === 'Success' || task.status === 'Failed') {
			this.recordEnded(previousPollAt, at, plan);
		}
		if (task.status === 'Unprocessed' || waitNumber > 0) {
			if (this.lastPercentage > 0) this.informative = false; // back in the queue?
			const run = this.observations?.runTime;
			if (plan && run && this.queued && !this.ownPaceOnly && at >= plan.hi - run.lo) {
				// It should have started by now: the other tasks' picture does not fit this one.
				this.ownPaceOnly = true;
			}
			if (!this.firstQueued || waitNumber > this.firstQueued.waitNumber) {
				this.firstQueued = { at, waitNumber };
			}
			if (this.queued && waitNumber <= this.queued.waitNumber) {
				this.observations?.recordPace(
					this.queued.waitNumber - waitNumber,
					at - this.queued.at,
					this.queued.waitNumber,
				);
			}
			this.queued = { at, waitNumber };
			this.observations?.recordQueued(waitNumber, at);
			this.notYetStarted(at);
			return;
		}
		this.queued = undefined;
		this.firstQueued = undefined;
		if (percentage === undefined || percentage <= 0 || percentage >= 100) {
			if (this.lastPercentage > 0) this.informative = false; // went back to 0 or jumped to 100
			if (percentage === undefined || percentage <= 0) this.notYetStarted(at);
			this.finishPrediction = undefined;
			return;
		}
		if (percentage < this.lastPercentage) this.informative = false;
		this.lastPercentage = percentage;
		const window = this.informative ? this.finishWindow(at, percentage) : undefined;
		if (!window) {
			this.finishPrediction = undefined;
			return;
		}
		const previous = this.finishPrediction;
		const earlier = this.earliestFinish ?? 0;
		const tolerance = Math.max(
			pollLimits.agreementMinMs,
			pollLimits.agreementShare * (window.latest - this.notStartedAt),
		);
		if (
			previous !== undefined &&
			!this.borrowedPrediction &&
			(window.latest < earlier - tolerance || window.earliest > previous + tolerance)
		) {
			// The new reading does not fit the earlier one: progress is not linear.
			this.informative = false;
			this.finishPrediction = undefined;
			return;
		}
		this.finishPrediction = window.latest;
		this.earliestFinish = window.earliest;
		// Another task's run time may not be this one's: its own next reading is not held to it.
		this.borrowedPrediction = window.borrowed === true;
		if (window.run || window.borrowed) {
			if (window.run) this.observations?.recordRun(this.taskKey, window.run);
			this.observations?.recordEnd(this.taskKey, { lo: window.earliest, hi: window.latest });
		}
	}

	/** As predicted if that fits, else between the polls. */
	private recordEnded(previousPollAt: number, at: number, plan: Window | undefined): void {
		if (!this.observations) return;
		const predicted =
			this.finishPrediction !== undefined
				? { lo: this.earliestFinish ?? this.finishPrediction, hi: this.finishPrediction }
				: plan;
		this.observations.forgetTentative(this.taskKey);
		const lo = Math.max(previousPollAt, predicted?.lo ?? previousPollAt);
		const hi = Math.min(at, predicted?.hi ?? at);
		const end = lo <= hi ? { lo, hi } : { lo: previousPollAt, hi: at };
		// An end known to more than a second (polls held back) would blur others' turns.
		if (end.hi - end.lo <= pollLimits.refineAboveMs) this.observations.recordEnd(this.taskKey, end);
	}

	private notYetStarted(at: number): void {
		this.notStartedAt = at;
		this.sawNotStarted = true;
		this.anchor = undefined;
		this.finishPrediction = undefined;
	}

	/**
	 * The finish and run time a reading allows (`percentage` rounded down). The start is taken as the
	 * last sighting not started, trusted within two intervals; a slower task may have queued unseen,
	 * so a second reading gives its pace, and until then the other tasks' run time places it.
	 */
	private finishWindow(
		at: number,
		percentage: number,
	): { earliest: number; latest: number; run?: Window; borrowed?: boolean } | undefined {
		const start = this.notStartedAt;
		// Started no sooner than `start`, so at most this slow: linear progress ends by then.
		const bySighting = start + ((at - start) * 100) / percentage;
		if (!this.anchor) {
			if (!this.sawNotStarted && bySighting - at <= 2 * this.intervalMs) {
				const earliest = start + ((at - start) * 100) / (percentage + 1);
				// A first poll held back by the budget may follow an unseen queue: good for its own poll
				// (the finish is no later), not for others' run time.
				const early = at - start <= this.firstWaitMs + pollLimits.tentativeSlackMs;
				const run = early ? { lo: earliest - start, hi: bySighting - start } : undefined;
				return { earliest, latest: bySighting, run };
			}
			this.anchor = { at, percentage };
			if (!this.sawNotStarted && at - start <= this.firstWaitMs + pollLimits.tentativeSlackMs) {
				// Not trusted for its own poll, but the queued tasks go by it until more is shown: a
				// first poll not held back cannot have queued long unseen.
				const run = { lo: ((at - start) * 100) / (percentage + 1), hi: bySighting - start };
				this.observations?.recordRun(this.taskKey, run, true);
				this.observations?.recordEnd(this.taskKey, { lo: start + run.lo, hi: bySighting });
			}
			if (!this.sawNotStarted) return undefined;
			// Out of the queue: the run time the API's other tasks showed places it from this reading.
			const run = this.observations?.runTime;
			if (!run) return undefined;
			const latest = Math.min(bySighting, at + ((100 - percentage) * run.hi) / 100);
			const earliest = Math.min(latest, at + ((99 - percentage) * run.lo) / 100);
			return { earliest, latest, borrowed: true };
		}
		const elapsed = at - this.anchor.at;
		// No progress between the two readings: stalled for now, so nothing to go by.
		if (elapsed <= 0 || percentage === this.anchor.percentage) return undefined;
		const fastest = (percentage + 1 - this.anchor.percentage) / elapsed;
		const slowest = (percentage - this.anchor.percentage - 1) / elapsed;
		const latest =
			slowest > 0 ? Math.min(bySighting, at + (100 - percentage) / slowest) : bySighting;
		const earliest = Math.min(latest, at + (99 - percentage) / fastest);
		const run = {
			lo: 100 / fastest,
			hi: slowest > 0 ? Math.min(100 / slowest, bySighting - start) : bySighting - start,
		};
		return { earliest, latest, run };
	}

	/** From the shared record of the queue, else from the pace of its own readings. */
	private queuedFinish(): Turn | undefined {
		const queued = this.queued;
		if (!queued || queued.waitNumber < 1) return undefined;
		const record = this.ownPaceOnly ? undefined : this.observations;
		const shared = record?.queuedFinish(queued.at, queued.waitNumber);
		if (shared) return { ...shared, firm: true };
		const first = this.firstQueued;
		const own =
			first && queued.at > first.at && queued.waitNumber < first.waitNumber
				? (first.waitNumber - queued.waitNumber) / (queued.at - first.at)
				: undefined;
		// Its own pace, else the other queued tasks': loose, from a few readings of bursty ends.
		const pace = own ?? record?.pace;
		if (!pace) return undefined;
		// Tasks ahead end at this pace: all of them are done, and this one has started, by then.
		return {
			lo: queued.at + queued.waitNumber / pace,
			hi: queued.at + (queued.waitNumber + 1) / pace,
			firm: false,
		};
	}

	aimNextCheck(now: number): number {
		const plan = this.plan(now);
		this.aimedTurn = plan.turn;
		return plan.waitMs;
	}

	turnMovedLater(now: number): boolean {
		const plan = this.plan(now);
		return plan.turn?.firm === true && plan.waitMs > pollLimits.withdrawAboveMs;
	}

	onReplan(listener: () => void): () => void {
		return this.observations?.onChange(listener) ?? (() => undefined);
	}

	private plan(now: number): { waitMs: number; turn?: Turn } {
		if (this.lastPollAt === undefined) {
			return { waitMs: Math.max(0, this.createdAt + this.firstWaitMs - now) };
		}
		let target = this.lastPollAt + this.intervalMs;
		const earliest = this.earliestFinish ?? 0;
		const queued = this.queuedFinish();
		if (queued) {
			// Far off and not pinned to a second: one reading of its progress first. No 30 s cap: a
			// shorter queue shows in the other tasks' polls, which plan this one anew.
			target =
				queued.hi - queued.lo > pollLimits.refineAboveMs &&
				queued.lo - now > pollLimits.refineLeadMs + MIN_GAP_MS
					? queued.lo - pollLimits.refineLeadMs
					: queued.hi + pollLimits.marginMs;
		} else if (
			this.finishPrediction !== undefined &&
			this.finishPrediction - earliest > pollLimits.refineAboveMs &&
			earliest - now > pollLimits.refineLeadMs + MIN_GAP_MS
		) {
			// A closer reading, early enough that the poll it aims still comes after the finish.
			target = Math.min(earliest - pollLimits.refineLeadMs, now + pollLimits.maxPredictedWaitMs);
		} else if (this.finishPrediction !== undefined) {
			const margin =
				pollLimits.marginMs + pollLimits.marginShare * Math.max(0, this.finishPrediction - now);
			target = Math.min(this.finishPrediction + margin, now + pollLimits.maxPredictedWaitMs);
		}
		// Whole milliseconds, rounded up: never a moment early.
		const wait = Math.ceil(Math.max(target, this.lastPollAt + MIN_GAP_MS) - now);
		return { waitMs: Math.max(0, wait), turn: queued };
	}

	priority(now: number): SlotPriority {
		if (this.finishPrediction !== undefined && now >= this.finishPrediction) {
			return { rank: 'likelyDone', age: this.finishPrediction };
		}
		// A queued task whose turn should be over by now counts as likely done too.
		if (this.queued && this.aimedTurn && now >= this.aimedTurn.hi) {
			return { rank: 'likelyDone', age: this.aimedTurn.hi };
		}
		return { rank: 'unknown', age: now };
	}
}

/**
 * What the polls of one API's tasks have shown about its queue, shared by those tasks so that a
 * queued task can tell when its turn comes. Pure: every time comes in as an argument.
 *
 * One record per node execution and API (`observationsFor`), dropped when the execution ends:
 * its items run on one account, so they queue in the same line (AI 3D: one task at a time per
 * account), and a fresh run starts from what it sees itself rather than from another
 * workflow's tasks, account or service load.
 *
 * It keeps:
 * - how long this API's tasks run: the windows their progress allows (`percentage` is a whole
 *   number), narrowed to what they all agree on;
 * - when tasks ended or will end: the finish each task's progress predicts, or when it was seen
 *   done;
 * - at most how many run at once: a task queues only while every worker is busy with tasks ahead
 *   of it, so no queued task ever reports fewer tasks ahead (`waitNumber`) than there are workers.
 *
 * From these, a task with `waitNumber` w ahead is the (w + 1)-th to finish in a first-come queue:
 * each worker ends a task every run time, so its finish is the (w mod workers)-th next worker end
 * plus (w div workers) run times. Tasks behind it queue after it and do not count.
 */

/** Between these two moments (or durations), in ms. */
export interface Window {
	lo: number;
	hi: number;
}

/** Run-time samples kept: enough to agree on, few enough to follow a service that changes pace. */
const MAX_RUNS = 64;
/**
 * Ends kept: the ends just after an early reading of a long queue must still be there when its
 * task plans again, minutes later (a few hundred kilobytes at most).
 */
const MAX_ENDS = 4096;
/** The workers counted from the ends are believed when this close to the upper bound. */
const COUNT_SHARE = 0.1;
/** A run time this much wider or narrower than before changes queued tasks' plans. */
const RUN_CHANGE_SHARE = 0.01;

export class QueueObservations {
	private readonly runs = new Map<string, Window>();
	private readonly ends = new Map<string, Window>();
	/** Ends sorted by their middle; rebuilt when an end is added or moved. */
	private sortedEnds: Window[] | undefined;
	private runWindow: Window | undefined;
	/** The fewest tasks ahead that any queued task reported: the workers are no more. */
	workersAtMost: number | undefined;
	/** From the first to the latest reading that found a task queued: every worker was busy. */
	private busy: Window | undefined;
	private readonly listeners = new Set<() => void>();
	lastUsed = 0;

	/** A running task's run time, as far as its progress pins it down; replaces its earlier one. */
	recordRun(taskKey: string, run: Window): void {
		if (!(run.lo > 0) || !(run.hi >= run.lo)) return;
		this.runs.delete(taskKey);
		this.runs.set(taskKey, run);
		if (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value as string);
		const before = this.runWindow;
		this.runWindow = agreed([...this.runs.values()]);
		const after = this.runWindow;
		if (
			!before ||
			Math.abs(after.lo - before.lo) > RUN_CHANGE_SHARE * before.lo ||
			Math.abs(after.hi - before.hi) > RUN_CHANGE_SHARE * before.hi
		) {
			this.changed();
		}
	}

	/** When a task ends (predicted) or ended (seen); replaces its earlier one. */
	recordEnd(taskKey: string, end: Window): void {
		if (!(end.hi >= end.lo)) return;
		const first = !this.ends.has(taskKey);
		this.ends.delete(taskKey);
		this.ends.set(taskKey, end);
		if (this.ends.size > MAX_ENDS) this.ends.delete(this.ends.keys().next().value as string);
		this.sortedEnds = undefined;
		// While the first round of workers is still unknown, each new end places one of them.
		if (first && this.ends.size <= (this.workersAtMost ?? 0)) this.changed();
	}

	/** A poll found a task queued with `waitNumber` tasks ahead at `at`. */
	recordQueued(waitNumber: number, at: number): void {
		if (!(waitNumber >= 1)) return;
		this.busy = { lo: Math.min(this.busy?.lo ?? at, at), hi: Math.max(this.busy?.hi ?? at, at) };
		if (this.workersAtMost === undefined || waitNumber < this.workersAtMost) {
			this.workersAtMost = Math.floor(waitNumber);
			this.changed();
		}
	}

	/** How long this API's tasks run, when any was seen running long enough to tell. */
	get runTime(): Window | undefined {
		const run = this.runWindow;
		const queue = this.queueRunTime();
		if (!run || !queue) return run;
		// The queue's own rhythm pins the run time closer, where it agrees with the progress.
		const lo = Math.max(run.lo, queue.lo);
		const hi = Math.min(run.hi, queue.hi);
		return lo <= hi ? { lo, hi } : run;
	}

	/**
	 * In a queue that stays busy, each worker starts its next task as it ends one, so ends that
	 * lie `workers` apart in order lie one run time apart. Over many ends that measures the run
	 * time more finely than any one task's whole-number percentage does.
	 */
	private queueRunTime(): Window | undefined {
		const workers = this.workers();
		const ends = this.sorted();
		if (!workers || ends.length <= workers) return undefined;
		const rounds = Math.floor((ends.length - 1) / workers);
		const last = ends[ends.length - 1];
		const first = ends[ends.length - 1 - rounds * workers];
		return { lo: (last.lo - first.hi) / rounds, hi: (last.hi - first.lo) / rounds };
	}

	/**
	 * When a task that had `waitNumber` tasks ahead at `at` will finish, between the earliest and
	 * the latest its queue allows; undefined while the run time is not known.
	 */
	queuedFinish(at: number, waitNumber: number): Window | undefined {
		const run = this.runTime;
		if (!run || waitNumber < 1) return undefined;
		const workers = Math.max(1, Math.min(this.workers() ?? 1, waitNumber));
		const ends = this.sorted();
		let index = ends.findIndex((end) => mid(end) > at);
		if (index < 0) index = ends.length;
		// The tasks running at `at`: each worker's first end after it. Known ends first; for workers
		// not yet seen ending after `at`, their last end before it carried on by whole run times;
		// for workers never seen, any moment of the next run time.
		const running = ends.slice(index, index + workers);
		const average = (run.lo + run.hi) / 2;
		for (let k = index - 1; k >= 0 && running.length < workers; k--) {
			const end = ends[k];
			const rounds = Math.max(1, Math.ceil((at - mid(end)) / average));
			running.push({ lo: end.lo + rounds * run.lo, hi: end.hi + rounds * run.hi });
		}
		while (running.length < workers) running.push({ lo: at, hi: at + run.hi });
		const recent = ends.slice(-RECENT_ROUNDS * workers);
		const phases = running.map((phase) => narrowed(phase, recent, run));
		phases.sort((a, b) => mid(a) - mid(b));
		// The tasks waiting ahead, then this one, start in turn as those end, each a run time later.
		const phase = phases[waitNumber % workers];
		const rounds = Math.floor(waitNumber / workers);
		// The ends nearest to it, on the same worker, pin it closer than rounds of run times do.
		return narrowed(
			{ lo: phase.lo + rounds * run.lo, hi: phase.hi + rounds * run.hi },
			recent,
			run,
		);
	}

	/**
	 * How many run at once. The fewest tasks ahead a queued task reported is an upper bound, and
	 * exact only if a task was read just as its turn neared. While the queue stayed busy, its ends
	 * per run time count the workers; where they count a few less, that is the number.
	 */
	private workers(): number | undefined {
		const most = this.workersAtMost;
		const run = this.runWindow;
		const busy = this.busy;
		if (!most || !run || !busy) return most;
		const average = (run.lo + run.hi) / 2;
		// Whole run times within the busy stretch, the last one left out: its ends may not all be in.
		const rounds = Math.floor((busy.hi - busy.lo) / average) - 1;
		if (rounds < 2) return most;
		const from = busy.lo;
		const to = from + rounds * average;
		let count = 0;
		for (const end of this.sorted()) {
			const at = mid(end);
			if (at >= from && at < to) count++;
		}
		const counted = Math.round(count / rounds);
		return counted < most && counted >= most * (1 - COUNT_SHARE) ? counted : most;
	}

	/** Calls `listener` whenever what the queued tasks plan from has changed; returns its removal. */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private changed(): void {
		for (const listener of [...this.listeners]) listener();
	}

	private sorted(): Window[] {
		this.sortedEnds ??= [...this.ends.values()].sort((a, b) => mid(a) - mid(b));
		return this.sortedEnds;
	}
}

const mid = (window: Window) => (window.lo + window.hi) / 2;

/** Recent ends, in rounds of the workers, that can narrow a worker's phase. */
const RECENT_ROUNDS = 4;

/**
 * A worker's end, narrowed by the later (or earlier) ends that fall on it a whole number of run
 * times away: a task read closely as it ran pins the rhythm of the tasks before and after it on
 * the same worker, where one read only while queued does not.
 */
function narrowed(phase: Window, ends: Window[], run: Window): Window {
	let { lo, hi } = phase;
	const average = (run.lo + run.hi) / 2;
	for (const end of ends) {
		const rounds = Math.round((mid(end) - (lo + hi) / 2) / average);
		// Carried back (or on) by whole run times, its window widens by the run time's.
		const shifted =
			rounds >= 0
				? { lo: end.lo - rounds * run.hi, hi: end.hi - rounds * run.lo }
				: { lo: end.lo - rounds * run.lo, hi: end.hi - rounds * run.hi };
		if (shifted.lo <= hi && shifted.hi >= lo) {
			lo = Math.max(lo, shifted.lo);
			hi = Math.min(hi, shifted.hi);
		}
	}
	return { lo, hi };
}

/**
 * The run time every sample allows, when they agree (tasks of one length); otherwise the middle
 * sample's bounds, so that one odd task does not move the rest.
 */
function agreed(runs: Window[]): Window {
	const lo = Math.max(...runs.map((run) => run.lo));
	const hi = Math.min(...runs.map((run) => run.hi));
	if (lo <= hi) return { lo, hi };
	const median = (values: number[]) => {
		const sorted = [...values].sort((a, b) => a - b);
		return sorted[Math.floor(sorted.length / 2)];
	};
	const middle = { lo: median(runs.map((run) => run.lo)), hi: median(runs.map((run) => run.hi)) };
	return middle.lo <= middle.hi ? middle : { lo: middle.hi, hi: middle.lo };
}

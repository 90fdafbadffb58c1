// What the checks of one API's tasks in one execution have shown about its queue, so that a queued
// task can tell when its turn comes. Pure. The model: docs/design/waiting.md
import { queueLimits } from '../core/limits';

/** Between two moments (or durations), in ms. */
export interface Window {
	lo: number;
	hi: number;
}

export class QueueObservations {
	private readonly runs = new Map<string, Window>();
	/** From one early reading only: used while no task has shown more. */
	private readonly tentativeRuns = new Map<string, Window>();
	private readonly ends = new Map<string, Window>();
	private sortedEnds: Window[] | undefined;
	private runWindow: Window | undefined;
	private toldRunTime: Window | undefined;
	/** From the ends' rhythm; null until worked out from the current ends. */
	private rhythm: Window | undefined | null = null;
	/** The fewest tasks ahead any queued task reported: the workers are no more. */
	workersAtMost: number | undefined;
	/** From the first to the latest reading that found a task queued: every worker was busy. */
	private busy: Window | undefined;
	private readonly listeners = new Set<() => void>();
	private readonly paces: Array<{ drop: number; ms: number; surelyQueued: boolean }> = [];
	private toldPace: { pace: number; spread: number } | undefined;
	/** From the settled pace and the workers, while no task has shown its own run time. */
	private paceRun: Window | undefined;

	recordRun(taskKey: string, run: Window, tentative = false): void {
		if (!(run.lo > 0) || !(run.hi >= run.lo)) return;
		const runs = tentative ? this.tentativeRuns : this.runs;
		if (!tentative) this.tentativeRuns.delete(taskKey);
		runs.delete(taskKey);
		runs.set(taskKey, run);
		if (runs.size > queueLimits.maxRuns) runs.delete(runs.keys().next().value as string);
		this.runsChanged();
	}

	forgetTentative(taskKey: string): void {
		if (this.tentativeRuns.delete(taskKey)) this.runsChanged();
	}

	private runsChanged(): void {
		this.updateRunWindow();
		this.tellIfRunTimeMoved();
	}

	private updateRunWindow(): void {
		const samples = this.runs.size > 0 ? this.runs : this.tentativeRuns;
		this.runWindow = samples.size > 0 ? agreed([...samples.values()]) : this.paceRun;
		this.rhythm = null;
	}

	private tellIfRunTimeMoved(): void {
		const before = this.toldRunTime;
		const after = this.runTime;
		if (
			(before === undefined) !== (after === undefined) ||
			(before &&
				after &&
				(Math.abs(after.lo - before.lo) > queueLimits.runChangeShare * before.lo ||
					Math.abs(after.hi - before.hi) > queueLimits.runChangeShare * before.hi))
		) {
			this.toldRunTime = after;
			this.changed();
		}
	}

	/** Predicted or seen; replaces the task's earlier one. */
	recordEnd(taskKey: string, end: Window): void {
		if (!(end.hi >= end.lo)) return;
		const first = !this.ends.has(taskKey);
		this.ends.delete(taskKey);
		this.ends.set(taskKey, end);
		if (this.ends.size > queueLimits.maxEnds)
			this.ends.delete(this.ends.keys().next().value as string);
		this.sortedEnds = undefined;
		this.rhythm = null;
		// While the first round of workers is still unknown, each new end places one of them.
		if (first && this.ends.size <= (this.workersAtMost ?? 0)) this.changed();
		// Ends in rhythm pin the run time closer.
		else if (this.runWindow) this.tellIfRunTimeMoved();
	}

	/** Between two readings of a queued task, `drop` of the `ahead` tasks ahead ended in `ms`. */
	recordPace(drop: number, ms: number, ahead = Infinity): void {
		if (!(ms > 0) || !(drop >= 0)) return;
		// Readings of a queue that had not moved yet do not count as its pace being known.
		const first = drop > 0 && this.pace === undefined;
		// Read queued again near its turn means few ahead ended: the queue would look slow.
		const surelyQueued = ahead - (this.pace ?? 0) * ms >= 2 * (this.workersAtMost ?? 1);
		this.paces.push({ drop, ms, surelyQueued });
		if (this.paces.length > queueLimits.maxPaces) this.paces.shift();
		const settled = this.settledPace;
		const told = this.toldPace;
		const moved =
			settled !== undefined &&
			(told === undefined ||
				Math.abs(settled.pace - told.pace) > queueLimits.paceChangeShare * told.pace ||
				settled.spread < told.spread / 2);
		if (moved) {
			this.toldPace = settled;
			this.paceRunChanged();
		}
		if (first || moved) this.changed();
	}

	private paceRunChanged(): void {
		const workers = this.workersAtMost;
		const told = this.toldPace;
		// Each worker ends a task per run time: the workers over the pace is the run time.
		this.paceRun =
			told && workers
				? {
						lo: workers / (told.pace * (1 + queueLimits.paceRunSpreads * told.spread)),
						hi: workers / (told.pace * (1 - queueLimits.paceRunSpreads * told.spread)),
					}
				: undefined;
		this.updateRunWindow();
		// The caller tells the queued tasks.
		this.toldRunTime = this.runTime;
	}

	/** Tasks ahead ending per ms; undefined before any ended. */
	get pace(): number | undefined {
		let drop = 0;
		let ms = 0;
		for (const sample of this.paces) {
			drop += sample.drop;
			ms += sample.ms;
		}
		return drop > 0 ? drop / ms : undefined;
	}

	/** The pace once enough readings back it: each may be off by a burst of ends; many cancel. */
	get settledPace(): { pace: number; spread: number } | undefined {
		let drop = 0;
		let ms = 0;
		let count = 0;
		for (const sample of this.paces) {
			if (!sample.surelyQueued) continue;
			drop += sample.drop;
			ms += sample.ms;
			count++;
		}
		if (!(drop > 0)) return undefined;
		// Each reading is off evenly within a burst: over k readings, a burst times the root of k / 3.
		const burst = this.workersAtMost ?? 1;
		const spread = (burst * Math.sqrt(count / 3)) / drop;
		return spread <= queueLimits.paceSettledShare ? { pace: drop / ms, spread } : undefined;
	}

	recordQueued(waitNumber: number, at: number): void {
		if (!(waitNumber >= 1)) return;
		this.busy = { lo: Math.min(this.busy?.lo ?? at, at), hi: Math.max(this.busy?.hi ?? at, at) };
		if (this.workersAtMost === undefined || waitNumber < this.workersAtMost) {
			this.workersAtMost = Math.floor(waitNumber);
			if (this.toldPace !== undefined) this.paceRunChanged();
			this.changed();
		}
	}

	get runTime(): Window | undefined {
		const run = this.runWindow;
		const queue = this.queueRunTime();
		if (!run || !queue) return run;
		// The queue's rhythm pins it closer, where it agrees with the progress.
		const lo = Math.max(run.lo, queue.lo);
		const hi = Math.min(run.hi, queue.hi);
		return lo <= hi ? { lo, hi } : run;
	}

	/** In a busy queue a worker's ends lie whole run times apart: pairs of them measure it finely. */
	private queueRunTime(): Window | undefined {
		if (this.rhythm !== null) return this.rhythm;
		this.rhythm = undefined;
		const run = this.runWindow;
		const workers = this.workers();
		const ends = this.sorted();
		if (!run || !workers || ends.length < 2) return undefined;
		const average = (run.lo + run.hi) / 2;
		const rounds = Math.min(
			queueLimits.rhythmRounds,
			Math.floor((mid(ends[ends.length - 1]) - mid(ends[0])) / average),
		);
		if (rounds < 1) return undefined;
		const tolerance = Math.min(
			average / 2,
			queueLimits.partnerShare * average + (rounds * (run.hi - run.lo)) / 2,
		);
		const samples: Window[] = [];
		for (const end of ends.slice(-2 * workers)) {
			const at = mid(end) - rounds * average;
			const partner = nearest(ends, at);
			if (!partner || Math.abs(mid(partner) - at) > tolerance) continue;
			samples.push({ lo: (end.lo - partner.hi) / rounds, hi: (end.hi - partner.lo) / rounds });
		}
		this.rhythm = samples.length > 0 ? agreed(samples) : undefined;
		return this.rhythm;
	}

	/** When a task with `waitNumber` ahead at `at` will finish; undefined without a run time. */
	queuedFinish(at: number, waitNumber: number): Window | undefined {
		const run = this.runTime;
		if (!run || waitNumber < 1) return undefined;
		const workers = Math.max(1, Math.min(this.workers() ?? 1, waitNumber));
		const ends = this.sorted();
		const average = (run.lo + run.hi) / 2;
		// Ends carried on by whole run times tell when the workers next end; some may be missing, so
		// take quantiles of them, and a worker not seen at all may end at any moment.
		const near = ends.filter(
			(end) => Math.abs(mid(end) - at) <= queueLimits.recentRounds * average,
		);
		const sample = near.length > 0 ? near : ends.slice(-queueLimits.recentRounds * workers);
		const carried = sample
			.map((end) => shifted(end, Math.floor((at - mid(end)) / average) + 1, run))
			.sort((x, y) => mid(x) - mid(y));
		const running: Window[] = [];
		if (carried.length >= workers) {
			for (let k = 0; k < workers; k++) {
				running.push(carried[Math.floor((k * carried.length) / workers)]);
			}
		} else {
			running.push(...carried);
			while (running.length < workers) running.push({ lo: at, hi: at + run.hi });
			running.sort((x, y) => mid(x) - mid(y));
		}
		// Those ahead, then this one, start in turn as the workers end, a run time per round.
		const phase = running[waitNumber % workers];
		const rounds = Math.floor(waitNumber / workers);
		const finish = { lo: phase.lo + rounds * run.lo, hi: phase.hi + rounds * run.hi };
		const around = ends.filter(
			(end) => Math.abs(mid(end) - mid(finish)) <= queueLimits.recentRounds * average,
		);
		return narrowed(finish, around, run);
	}

	/** At most the fewest tasks ahead seen; a busy queue's ends per run time may count fewer. */
	private workers(): number | undefined {
		const most = this.workersAtMost;
		const run = this.runWindow;
		const busy = this.busy;
		if (!most || !run || !busy) return most;
		const average = (run.lo + run.hi) / 2;
		// Whole run times of the busy stretch but the last, whose ends may not all be in.
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
		return counted < most && counted >= most * (1 - queueLimits.countShare) ? counted : most;
	}

	/** Calls `listener` whenever what the queued tasks plan from has changed. */
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

/** Narrowed by ends whole run times away on the same worker: one read closely pins the rest. */
function narrowed(phase: Window, ends: Window[], run: Window): Window {
	let { lo, hi } = phase;
	const average = (run.lo + run.hi) / 2;
	for (const end of ends) {
		const on = shifted(end, Math.round(((lo + hi) / 2 - mid(end)) / average), run);
		if (on.lo <= hi && on.hi >= lo) {
			lo = Math.max(lo, on.lo);
			hi = Math.min(hi, on.hi);
		}
	}
	return { lo, hi };
}

function nearest(ends: Window[], at: number): Window | undefined {
	let low = 0;
	let high = ends.length - 1;
	while (low < high) {
		const middle = (low + high) >> 1;
		if (mid(ends[middle]) < at) low = middle + 1;
		else high = middle;
	}
	const after = ends[low];
	const before = ends[low - 1];
	if (!before) return after;
	return Math.abs(mid(before) - at) <= Math.abs(mid(after) - at) ? before : after;
}

/** Carried on (or back) by whole run times: the window widens by the run time's. */
function shifted(end: Window, rounds: number, run: Window): Window {
	return rounds >= 0
		? { lo: end.lo + rounds * run.lo, hi: end.hi + rounds * run.hi }
		: { lo: end.lo + rounds * run.hi, hi: end.hi + rounds * run.lo };
}

/** What every sample allows, else all but the odd few, else the median: no odd task moves it. */
function agreed(runs: Window[]): Window {
	const los = runs.map((run) => run.lo).sort((a, b) => a - b);
	const his = runs.map((run) => run.hi).sort((a, b) => a - b);
	if (los[los.length - 1] <= his[0]) return { lo: los[los.length - 1], hi: his[0] };
	const trim = Math.floor(runs.length * queueLimits.trimShare);
	const lo = los[los.length - 1 - trim];
	const hi = his[trim];
	if (lo <= hi) return { lo, hi };
	const median = (values: number[]) => {
		const sorted = [...values].sort((a, b) => a - b);
		return sorted[Math.floor(sorted.length / 2)];
	};
	const middle = { lo: median(runs.map((run) => run.lo)), hi: median(runs.map((run) => run.hi)) };
	return middle.lo <= middle.hi ? middle : { lo: middle.hi, hi: middle.lo };
}

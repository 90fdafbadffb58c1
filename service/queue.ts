// A FIFO queue served by N workers, computed rather than run: when a task is created its start
// and end times are fixed from the workers' availability, and its status is derived from the clock
// whenever it is read. No timers, so tests can drive it with a fake clock and nothing is left
// running when the service stops.

export type TaskStatus = 'Unprocessed' | 'Processing' | 'Success' | 'Failed';

export interface Slot {
	seq: number;
	startAt: number;
	endAt: number;
}

/**
 * How `percentage` moves while a task runs. 'linear' rises evenly from 0 to 99; 'stuck-then-jump'
 * stays at 0 for the first 60 % of the run, then shows 90 until the end, as a model that only
 * reports at a late checkpoint would.
 */
export type ProgressModel = 'linear' | 'stuck-then-jump';

export const PROGRESS_MODELS: ReadonlyArray<ProgressModel> = ['linear', 'stuck-then-jump'];

const JUMP_AT = 0.6;
const JUMP_TO = 90;

export interface Progress {
	status: TaskStatus;
	waitNumber: number;
	percentage: number;
}

export class TaskQueue {
	private freeAt: number[];

	/** Slots that had not ended when last looked at; pruned lazily. */
	private unfinished: Slot[] = [];

	private nextSeq = 0;

	constructor(workers: number) {
		this.freeAt = new Array<number>(workers).fill(-Infinity);
	}

	setWorkers(workers: number): void {
		if (workers > this.freeAt.length) {
			this.freeAt.push(...new Array<number>(workers - this.freeAt.length).fill(-Infinity));
		} else if (workers < this.freeAt.length) {
			// Keep the busiest workers: the work already promised to callers must still fit.
			this.freeAt = [...this.freeAt].sort((a, b) => b - a).slice(0, workers);
		}
	}

	get workers(): number {
		return this.freeAt.length;
	}

	schedule(now: number, durationMs: number): Slot {
		let worker = 0;
		for (let i = 1; i < this.freeAt.length; i++)
			if (this.freeAt[i] < this.freeAt[worker]) worker = i;
		const startAt = Math.max(now, this.freeAt[worker]);
		const slot: Slot = { seq: this.nextSeq++, startAt, endAt: startAt + Math.max(0, durationMs) };
		this.freeAt[worker] = slot.endAt;
		if (slot.endAt > now) this.unfinished.push(slot);
		return slot;
	}

	/**
	 * Tasks ahead of this one that are still in the service, waiting or running. The spec reads
	 * "0 means the task is currently processing", so a waiting task never shows 0: it has at least
	 * the running tasks that keep every worker busy ahead of it.
	 */
	waitNumber(slot: Slot, now: number): number {
		if (slot.startAt <= now) return 0;
		this.unfinished = this.unfinished.filter((other) => other.endAt > now);
		let ahead = 0;
		for (const other of this.unfinished) {
			if (
				other.startAt < slot.startAt ||
				(other.startAt === slot.startAt && other.seq < slot.seq)
			) {
				ahead++;
			}
		}
		return ahead;
	}

	progress(slot: Slot, willFail: boolean, now: number, model: ProgressModel = 'linear'): Progress {
		if (now < slot.startAt) {
			return { status: 'Unprocessed', waitNumber: this.waitNumber(slot, now), percentage: 0 };
		}
		if (now < slot.endAt) {
			const share = (now - slot.startAt) / (slot.endAt - slot.startAt);
			const done =
				model === 'stuck-then-jump' ? (share < JUMP_AT ? 0 : JUMP_TO) : Math.floor(share * 100);
			return { status: 'Processing', waitNumber: 0, percentage: Math.min(99, Math.max(0, done)) };
		}
		return willFail
			? { status: 'Failed', waitNumber: 0, percentage: 0 }
			: { status: 'Success', waitNumber: 0, percentage: 100 };
	}
}

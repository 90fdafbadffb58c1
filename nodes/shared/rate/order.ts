// Which request gets the next slot once requests wait: polls of likely finished tasks, then
// creates, then other polls, the oldest first. The model: docs/design/request-rate.md
import { clock } from '../core/clock';

type SlotRank = 'likelyDone' | 'create' | 'unknown';

export interface SlotPriority {
	rank: SlotRank;
	/** Since when it has been due (a likely finished task: its predicted finish); smaller first. */
	age: number;
}

const RANK_ORDER: Record<SlotPriority['rank'], number> = { likelyDone: 0, create: 1, unknown: 2 };

interface Waiter {
	priority: SlotPriority;
	seq: number;
	/** False: let go unsent as its `sendBy` passed. */
	resolve: (given: boolean) => void;
	sendBy: number;
}

export function goesFirst(
	a: { priority: SlotPriority; seq: number },
	b: { priority: SlotPriority; seq: number },
): boolean {
	const rank = RANK_ORDER[a.priority.rank] - RANK_ORDER[b.priority.rank];
	if (rank !== 0) return rank < 0;
	if (a.priority.age !== b.priority.age) return a.priority.age < b.priority.age;
	return a.seq < b.seq;
}

/** Best first once requests wait, so polls of finished tasks are not stuck behind a thousand. */
export class PrioritySlots {
	private readonly waiters: Waiter[] = [];
	private seq = 0;
	private pumping = false;
	private wakeUp?: () => void;

	/** `tryTake`: 0 when taken, else the wait until one frees up (Infinity: until `wake`). */
	constructor(private readonly tryTake: () => number) {}

	wake(): void {
		this.wakeUp?.();
	}

	get waiting(): number {
		return this.waiters.length;
	}

	/** False when it still waits at `sendBy`; rejects when `signal` fires while it waits. */
	async take(priority: SlotPriority, signal?: AbortSignal, sendBy = Infinity): Promise<boolean> {
		if (signal?.aborted) throw abortError(signal);
		if (this.waiters.length === 0 && this.tryTake() === 0) return true;
		return await new Promise<boolean>((resolve, reject) => {
			const waiter: Waiter = { priority, seq: this.seq++, resolve, sendBy };
			const onAbort = () => {
				const index = this.waiters.indexOf(waiter);
				if (index >= 0) this.waiters.splice(index, 1);
				reject(abortError(signal as AbortSignal));
			};
			waiter.resolve = (given) => {
				signal?.removeEventListener('abort', onAbort);
				resolve(given);
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waiters.push(waiter);
			void this.pump();
		});
	}

	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.waiters.length > 0) {
				const now = clock.now();
				if (this.letLateOnesGo(now)) continue;
				const wait = this.tryTake();
				if (wait === Infinity) {
					// Every slot in flight: `sendBy` waits for an answer, each of which has a time limit.
					await new Promise<void>((resolve) => (this.wakeUp = resolve));
					this.wakeUp = undefined;
					continue;
				}
				if (wait > 0) {
					// Woken in time to let a request go whose latest moment comes first.
					const firstLate = this.waiters.reduce(
						(first, waiter) => Math.min(first, waiter.sendBy),
						Infinity,
					);
					await clock.sleep(Math.min(wait, Math.max(1, firstLate - now + 1)));
					continue;
				}
				let best = 0;
				for (let i = 1; i < this.waiters.length; i++) {
					if (goesFirst(this.waiters[i], this.waiters[best])) best = i;
				}
				const [next] = this.waiters.splice(best, 1);
				next.resolve(true);
			}
		} finally {
			this.pumping = false;
		}
	}

	private letLateOnesGo(now: number): boolean {
		const late = this.waiters.filter((waiter) => waiter.sendBy < now);
		for (const waiter of late) {
			this.waiters.splice(this.waiters.indexOf(waiter), 1);
			waiter.resolve(false);
		}
		return late.length > 0;
	}
}

function abortError(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new Error('The execution was stopped');
}

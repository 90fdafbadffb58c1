import { clock } from '../core/clock';

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

const RANK_ORDER: Record<SlotPriority['rank'], number> = { likelyDone: 0, create: 1, unknown: 2 };

interface Waiter {
	priority: SlotPriority;
	seq: number;
	/** Given the slot (true), or let go unsent as its `sendBy` passed (false). */
	resolve: (given: boolean) => void;
	sendBy: number;
}

/** Whether `a` goes before `b`: the better rank, then the older, then the first to ask. */
export function goesFirst(
	a: { priority: SlotPriority; seq: number },
	b: { priority: SlotPriority; seq: number },
): boolean {
	const rank = RANK_ORDER[a.priority.rank] - RANK_ORDER[b.priority.rank];
	if (rank !== 0) return rank < 0;
	if (a.priority.age !== b.priority.age) return a.priority.age < b.priority.age;
	return a.seq < b.seq;
}

/**
 * Hands out a request budget's slots in priority order once requests have to wait for them:
 * while nobody waits, a request goes at once; otherwise each free slot goes to the waiting
 * request that ranks best, so polls of finished tasks are not stuck behind a thousand others.
 */
export class PrioritySlots {
	private readonly waiters: Waiter[] = [];
	private seq = 0;
	private pumping = false;
	private wakeUp?: () => void;

	/** @param tryTake 0 and the slot is taken; otherwise how long until one frees up (Infinity: until `wake`). */
	constructor(private readonly tryTake: () => number) {}

	/** A slot may have freed up: a queue waiting for one looks again. */
	wake(): void {
		this.wakeUp?.();
	}

	get waiting(): number {
		return this.waiters.length;
	}

	/**
	 * Resolves true once the request has its slot, or false, with no slot, when it still waits at
	 * `sendBy`. Rejects when `signal` fires while it waits. While every slot is in flight, the
	 * request waits for an answer to free one (each has its own time limit) before `sendBy` is
	 * looked at again.
	 */
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

	/** Lets every request still waiting past its `sendBy` go, unsent; true when there was one. */
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

import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { clock } from './clock';
import { executionLimits } from './limits';

/**
 * State that lives as long as one execution, in this process: the Stop signal, the Credit Limit's
 * count, the account that ran out of credits, the queue a node's tasks wait in, a node run's
 * request rate. Kept by execution id and a key of the caller's.
 *
 * When n8n says an execution finished (it does so the moment Stop is pressed, while the node may
 * still be running its items), the execution is remembered as ended: every later call for it finds
 * it ended, never a fresh start (a fresh Stop signal that never fires, a Credit Limit at zero).
 * n8n versions without that notice never say so: an idle sweep drops what nobody has used for
 * `idleMs`, so the process does not keep every execution it ever ran.
 */
export type ExecutionOf = Pick<IExecuteSingleFunctions, 'getExecutionId' | 'onExecutionFinish'>;

/** Why an entry's life ends: its execution finished, or nobody used it for the idle time. */
export type DropReason = 'finished' | 'idle';

/**
 * The executions n8n said have ended, by id, with the time a call of theirs was last seen. An ended
 * execution's items may still call in (n8n's Batching starts them after Stop, an item may be in a
 * long step), so the mark lasts while they do and a day after the last: far beyond any batching
 * interval. At most `executionLimits.maxEnded` marks are kept; the one unused longest goes first.
 */
const ended = new Map<string, number>();

function markEnded(executionId: string): void {
	ended.delete(executionId);
	ended.set(executionId, clock.now());
	for (const [id, lastSeen] of ended) {
		if (
			ended.size <= executionLimits.maxEnded &&
			clock.now() - lastSeen <= executionLimits.endedIdleMs
		)
			break;
		ended.delete(id);
	}
}

/** Whether n8n said this execution ended; a call that asks keeps the mark alive. */
function hasEnded(executionId: string): boolean {
	if (!ended.has(executionId)) return false;
	markEnded(executionId);
	return true;
}

/** What a store does with its entries once their execution has ended. */
export type AfterEnd =
	/** Keeps them (a guard's count must never start again from zero), as long as the mark lasts. */
	| 'keep'
	/** Drops them (nothing depends on them once nothing more is sent). */
	| 'drop';

interface Entry<T> {
	value: T;
	executionId: string;
	lastUsed: number;
	ended: boolean;
}

export class PerExecution<T> {
	private readonly entries = new Map<string, Entry<T>>();
	private lastSweep = -Infinity;

	/**
	 * @param idleMs after this long unused, an entry goes at the next sweep; never shorter than
	 *   the longest wait that still uses it
	 * @param afterEnd whether an ended execution's entries stay (see `AfterEnd`)
	 * @param onDrop what an entry's end means (a Stop signal fires when its execution finishes);
	 *   called once per entry, also for one made after its execution ended
	 */
	constructor(
		private readonly idleMs: number,
		private readonly afterEnd: AfterEnd,
		private readonly onDrop?: (value: T, reason: DropReason) => void,
	) {}

	/** The execution's entry under `key`, made by `create` when there is none. */
	get(ctx: ExecutionOf, key: string, create: () => T): T {
		const executionId = String(ctx.getExecutionId());
		const id = `${executionId}|${key}`;
		const known = this.live(id);
		if (known) return known.value;
		this.sweep();
		const value = create();
		if (hasEnded(executionId)) {
			// The finish notice has come and gone: this entry is born ended.
			this.onDrop?.(value, 'finished');
			if (this.afterEnd === 'keep') this.keep(id, value, executionId, true);
			return value;
		}
		const entry = this.keep(id, value, executionId, false);
		ctx.onExecutionFinish?.(() => {
			markEnded(executionId);
			if (this.entries.get(id) !== entry) return;
			if (this.afterEnd === 'keep') entry.ended = true;
			else this.entries.delete(id);
			this.onDrop?.(entry.value, 'finished');
		});
		return value;
	}

	/** The execution's entry under `key`, if one was made. */
	peek(ctx: ExecutionOf, key: string): T | undefined {
		return this.live(`${String(ctx.getExecutionId())}|${key}`)?.value;
	}

	/** The entry under `id`, unless its execution's end has been forgotten (then it goes too). */
	private live(id: string): Entry<T> | undefined {
		const entry = this.entries.get(id);
		if (!entry) return undefined;
		if (entry.ended && !hasEnded(entry.executionId)) {
			this.entries.delete(id);
			return undefined;
		}
		entry.lastUsed = clock.now();
		return entry;
	}

	private keep(id: string, value: T, executionId: string, isEnded: boolean): Entry<T> {
		const entry = { value, executionId, lastUsed: clock.now(), ended: isEnded };
		this.entries.set(id, entry);
		return entry;
	}

	/** Drops what nobody used for the idle time, and what an ended execution's lost mark leaves. */
	private sweep(): void {
		const now = clock.now();
		if (now - this.lastSweep < executionLimits.sweepEveryMs) return;
		this.lastSweep = now;
		for (const [id, entry] of this.entries) {
			const gone = entry.ended ? !ended.has(entry.executionId) : now - entry.lastUsed > this.idleMs;
			if (!gone) continue;
			this.entries.delete(id);
			if (!entry.ended) this.onDrop?.(entry.value, 'idle');
		}
	}
}

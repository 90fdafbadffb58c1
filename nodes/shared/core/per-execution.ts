import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { clock } from './clock';
import { executionLimits } from './limits';

// State that lives as long as one execution in this process, by execution id and a key.
// Why: docs/design/execution-state.md
export type ExecutionOf = Pick<IExecuteSingleFunctions, 'getExecutionId' | 'onExecutionFinish'>;

/** Why an entry's life ends: its execution finished, or nobody used it for the idle time. */
type DropReason = 'finished' | 'idle';

// Executions n8n said ended, with the time of their last call. Their items may still call in
// (Batching goes on after Stop), so the mark lasts a day past the last call.
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

/** After the end: `keep` (a count must never restart from zero) or `drop` (nothing needs them). */
type AfterEnd = 'keep' | 'drop';

interface Entry<T> {
	value: T;
	executionId: string;
	lastUsed: number;
	ended: boolean;
}

export class PerExecution<T> {
	private readonly entries = new Map<string, Entry<T>>();
	private lastSweep = -Infinity;

	/** `idleMs`: never shorter than the longest wait using an entry. `onDrop`: once per entry. */
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

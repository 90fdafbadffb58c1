import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { clock } from './clock';

/**
 * State that lives as long as one execution, in this process: the Stop signal, the Credit Limit's
 * count, the account that ran out of credits, the queue a node's tasks wait in, a node run's
 * request rate. Kept by execution id and a key of the caller's, and dropped when n8n says the
 * execution finished. n8n versions without that notice never say so: an idle sweep drops what
 * nobody has used for `idleMs`, so the process does not keep every execution it ever ran.
 */
export type ExecutionOf = Pick<IExecuteSingleFunctions, 'getExecutionId' | 'onExecutionFinish'>;

/** Why an entry goes: its execution finished, or nobody used it for the idle time. */
export type DropReason = 'finished' | 'idle';

interface Entry<T> {
	value: T;
	lastUsed: number;
}

export class PerExecution<T> {
	private readonly entries = new Map<string, Entry<T>>();

	/**
	 * @param idleMs after this long unused, an entry goes at the next sweep; never shorter than
	 *   the longest wait that still uses it
	 * @param onDrop what an entry's end means (a Stop signal fires when its execution finishes)
	 */
	constructor(
		private readonly idleMs: number,
		private readonly onDrop?: (value: T, reason: DropReason) => void,
	) {}

	/** The execution's entry under `key`, made by `create` when there is none. */
	get(ctx: ExecutionOf, key: string, create: () => T): T {
		const id = entryKey(ctx, key);
		const known = this.entries.get(id);
		if (known) {
			known.lastUsed = clock.now();
			return known.value;
		}
		this.sweep();
		const entry = { value: create(), lastUsed: clock.now() };
		this.entries.set(id, entry);
		ctx.onExecutionFinish?.(() => {
			if (this.entries.get(id) !== entry) return;
			this.entries.delete(id);
			this.onDrop?.(entry.value, 'finished');
		});
		return entry.value;
	}

	/** The execution's entry under `key`, if one was made. */
	peek(ctx: ExecutionOf, key: string): T | undefined {
		const entry = this.entries.get(entryKey(ctx, key));
		if (entry) entry.lastUsed = clock.now();
		return entry?.value;
	}

	private sweep(): void {
		const now = clock.now();
		for (const [id, entry] of this.entries) {
			if (now - entry.lastUsed <= this.idleMs) continue;
			this.entries.delete(id);
			this.onDrop?.(entry.value, 'idle');
		}
	}
}

function entryKey(ctx: ExecutionOf, key: string): string {
	return `${String(ctx.getExecutionId())}|${key}`;
}

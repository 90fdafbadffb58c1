import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { executionStopSignal } from './cancellation';
import { clock } from './clock';

/**
 * 50 items' creates go out at once, and 200 tasks can each be polled every 4 s; beyond that,
 * polls are spaced out rather than the service flooded.
 */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 50;

/**
 * At most `rate` requests in any one-second window of a node execution: a burst of `rate` may
 * go at once, the next waits until the oldest of them is a second old. Callers reserve their slot
 * synchronously, so concurrent items queue fairly without timers.
 */
export class RequestBudget {
	/** Send times of the last `rate` reservations, oldest first (never decreasing). */
	private readonly slots: number[] = [];
	private readonly size: number;
	private readonly windowMs: number;
	lastUsed: number;

	constructor(rate: number) {
		// A fractional rate (0.5/s) still allows one request, spaced 1/rate seconds apart.
		this.size = Math.max(1, Math.floor(rate));
		this.windowMs = (1000 * this.size) / rate;
		this.lastUsed = clock.now();
	}

	/** Milliseconds the caller must wait before sending. */
	reserve(): number {
		const now = clock.now();
		this.lastUsed = now;
		const oldest = this.slots.length === this.size ? this.slots.shift()! : undefined;
		const slot = oldest === undefined ? now : Math.max(now, oldest + this.windowMs);
		this.slots.push(slot);
		return slot - now;
	}
}

const budgets = new Map<string, RequestBudget>();
const IDLE_MS = 10 * 60_000;

function budgetFor(ctx: IExecuteSingleFunctions, rate: number): RequestBudget {
	const key = `${ctx.getExecutionId()}|${ctx.getNode().name}|${rate}`;
	let budget = budgets.get(key);
	if (!budget) {
		// Executions normally drop their budget when they finish; this catches the ones that don't.
		for (const [staleKey, stale] of budgets) {
			if (clock.now() - stale.lastUsed > IDLE_MS) budgets.delete(staleKey);
		}
		budget = new RequestBudget(rate);
		budgets.set(key, budget);
		ctx.onExecutionFinish?.(() => budgets.delete(key));
	}
	return budget;
}

export function maxRequestsPerSecond(ctx: IExecuteSingleFunctions): number {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const rate = Number(options.maxRequestsPerSecond ?? DEFAULT_MAX_REQUESTS_PER_SECOND);
	return Number.isFinite(rate) && rate > 0 ? rate : DEFAULT_MAX_REQUESTS_PER_SECOND;
}

/** Waits for this node execution's next request slot (creates and polls share the budget). */
export async function takeRequestSlot(ctx: IExecuteSingleFunctions): Promise<void> {
	const wait = budgetFor(ctx, maxRequestsPerSecond(ctx)).reserve();
	if (wait > 0) await clock.sleep(wait, executionStopSignal(ctx));
}

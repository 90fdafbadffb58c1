import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { executionStopSignal } from './cancellation';
import { clock } from './clock';

/**
 * 50 items' creates go out at once, and 200 tasks can each be polled every 4 s; beyond that,
 * polls are spaced out rather than the service flooded.
 */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 50;

/**
 * A token bucket per node execution: up to `rate` requests at once, then `rate` per second.
 * Callers reserve a slot synchronously, so concurrent items queue fairly without timers.
 */
export class RequestBudget {
	private tokens: number;
	private updatedAt: number;
	lastUsed: number;

	constructor(private readonly rate: number) {
		this.tokens = rate;
		this.updatedAt = clock.now();
		this.lastUsed = this.updatedAt;
	}

	/** Milliseconds the caller must wait before sending. */
	reserve(): number {
		const now = clock.now();
		this.tokens = Math.min(this.rate, this.tokens + ((now - this.updatedAt) / 1000) * this.rate);
		this.updatedAt = now;
		this.lastUsed = now;
		this.tokens -= 1;
		return this.tokens >= 0 ? 0 : (-this.tokens / this.rate) * 1000;
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

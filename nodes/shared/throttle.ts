import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { executionStopSignal, stoppedError } from './cancellation';
import { clock } from './clock';
import { bounded } from './redact';
import { fieldError } from './validation';
import type { SlotPriority } from './poll-schedule';
import { PrioritySlots } from './request-order';

/**
 * 50 items' creates go out at once, and 200 tasks can each be polled every 4 s; beyond that,
 * polls are spaced out rather than the service flooded.
 */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 50;

/**
 * At most `rate` requests in any one-second window of a node execution: a burst of `rate` may
 * go at once, the next waits until the oldest of them is a second old. A request is counted
 * when it actually goes, not when it was scheduled, so a late wake-up never lets more through.
 */
export class RequestBudget {
	/** When the last `size` requests went, oldest first. */
	private readonly sent: number[] = [];
	private readonly size: number;
	private readonly windowMs: number;
	lastUsed: number;

	constructor(rate: number) {
		// A fractional rate (0.5/s) still allows one request, spaced 1/rate seconds apart.
		this.size = Math.max(1, Math.floor(rate));
		this.windowMs = (1000 * this.size) / rate;
		this.lastUsed = clock.now();
	}

	/** 0 and the request is counted as sent now; otherwise how long to wait before trying again. */
	tryTake(): number {
		const now = clock.now();
		this.lastUsed = now;
		if (this.sent.length === this.size) {
			const wait = this.sent[0] + this.windowMs - now;
			if (wait > 0) return wait;
			this.sent.shift();
		}
		this.sent.push(now);
		return 0;
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

/** The option, checked before anything is sent: not a positive number is a field error. */
export function maxRequestsPerSecond(ctx: IExecuteSingleFunctions): number {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const value = options.maxRequestsPerSecond;
	if (value === undefined || value === null || value === '') return DEFAULT_MAX_REQUESTS_PER_SECOND;
	const rate =
		typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
	if (!Number.isFinite(rate) || rate <= 0) {
		throw fieldError(
			ctx,
			'Max Requests per Second',
			`must be a number above 0 (got ${bounded(typeof value === 'string' ? JSON.stringify(value) : String(value), 60)})`,
			'An expression here must give a positive number. Nothing was sent or charged.',
		);
	}
	return rate;
}

const ordered = new WeakMap<RequestBudget, PrioritySlots>();

/**
 * Waits for this node execution's next request slot (creates and polls share the budget). When
 * requests queue for it, polls of tasks that are likely done go first, then creates, then other
 * polls, the oldest first within each (see `PrioritySlots`).
 */
export async function takeRequestSlot(
	ctx: IExecuteSingleFunctions,
	priority: SlotPriority = { rank: 'create', age: clock.now() },
): Promise<void> {
	const budget = budgetFor(ctx, maxRequestsPerSecond(ctx));
	let slots = ordered.get(budget);
	if (!slots) {
		slots = new PrioritySlots(() => budget.tryTake());
		ordered.set(budget, slots);
	}
	const stop = executionStopSignal(ctx);
	try {
		await slots.take(priority, stop);
	} catch {
		// The slots reject only when the execution is stopped.
		throw stoppedError(
			ctx,
			'Execution stopped while this item waited for its turn to send',
			'Nothing more was sent for this item (see Max Requests per Second).',
		);
	}
}

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
 * At most `rate` requests in any one-second window of a node execution, as the service sees them.
 * A request counts from when its slot is given until one second after its answer: the node cannot
 * see when the bytes leave (n8n's helper first reads the credential, and a busy run delays that),
 * only that they arrived before the answer did. So at most `rate` are in flight at once, a burst
 * of `rate` may go together, and the next waits until an answer is a second old.
 */
export class RequestBudget {
	private inFlight = 0;
	/** When the answers of the last second came, oldest first. */
	private readonly answeredAt: number[] = [];
	private readonly size: number;
	private readonly windowMs: number;
	lastUsed: number;

	constructor(rate: number) {
		// A fractional rate (0.5/s) still allows one request, spaced 1/rate seconds apart.
		this.size = Math.max(1, Math.floor(rate));
		this.windowMs = (1000 * this.size) / rate;
		this.lastUsed = clock.now();
	}

	/**
	 * 0 and the request counts as in flight from now; otherwise how long to wait before trying
	 * again, or Infinity while every slot is in flight (an answer frees one: see `answered`).
	 */
	tryTake(): number {
		const now = clock.now();
		this.lastUsed = now;
		while (this.answeredAt.length > 0 && this.answeredAt[0] <= now - this.windowMs) {
			this.answeredAt.shift();
		}
		if (this.inFlight + this.answeredAt.length < this.size) {
			this.inFlight++;
			return 0;
		}
		return this.answeredAt.length > 0 ? this.answeredAt[0] + this.windowMs - now : Infinity;
	}

	/** A request's answer (or failure) came: it counts for one more window, then frees its slot. */
	answered(): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.answeredAt.push(clock.now());
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
 * Waits for this node execution's next request slot (creates and polls share the budget), and
 * returns what to call once the request's answer or failure has come. When requests queue for a
 * slot, polls of tasks that are likely done go first, then creates, then other polls, the oldest
 * first within each (see `PrioritySlots`).
 */
export async function takeRequestSlot(
	ctx: IExecuteSingleFunctions,
	priority: SlotPriority = { rank: 'create', age: clock.now() },
): Promise<() => void> {
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
	let done = false;
	const queue = slots;
	return () => {
		if (done) return;
		done = true;
		budget.answered();
		queue.wake();
	};
}

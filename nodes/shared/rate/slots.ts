import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { createHash } from 'crypto';

import { isLoopbackHost } from '../core/addresses';
import { CREDENTIAL_NAME, serviceBaseUrl } from '../catalog/service';
import { executionStopSignal, stoppedError } from '../core/cancellation';
import { clock } from '../core/clock';
import { IdealHouseItemError } from '../core/errors';
import { PerExecution } from '../core/per-execution';
import { executionLimits, limits } from '../core/limits';
import { AccountBudget, type PaceSignal } from './account';
import type { SlotPriority } from './order';
import { PrioritySlots } from './order';

/**
 * One budget per account (the key, at the service's origin however spelt) in this n8n process,
 * shared by every execution and node that uses it: four webhook calls at once, or two Ideal
 * House nodes in parallel branches, all count against the account's one rate. The rate is the
 * lowest that any node run using the budget right now asks for, lowered while the service
 * throttles the account (see `AccountBudget`). Each worker process of n8n's queue mode has
 * budgets of its own: they share no state, and settle near the account's limit by adapting.
 */
const budgets = new Map<string, AccountBudget>();

/** A node run (one node in one execution): its account, as a digest, and the budget it uses. */
interface NodeRun {
	id: string;
	account: string;
	budget?: AccountBudget;
}

/**
 * The node runs of each execution. A run leaves its account's budget when its execution
 * finishes, and the budget goes with its last run; a day unused catches n8n versions without the
 * finish notice, far beyond any wait between two requests.
 */
const runs = new PerExecution<NodeRun>(executionLimits.stateIdleMs, 'drop', (run) => {
	const budget = run.budget;
	if (!budget) return;
	budget.rates.delete(run.id);
	if (budget.rates.size === 0) budgets.delete(run.account);
	else budget.ceilingChanged();
});

/**
 * The service a base URL reaches, one way however it is spelt: scheme and host in lower case, the
 * default port made explicit, and every name of this machine (`localhost`, 127.0.0.1, [::1]) as
 * one, so that two spellings of one service never get two budgets.
 */
export function serviceOrigin(configured: unknown): string {
	const base = serviceBaseUrl(configured);
	let url: URL;
	try {
		url = new URL(base);
	} catch {
		return base;
	}
	const host = isLoopbackHost(url.hostname) ? 'loopback' : url.hostname;
	const port =
		url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
	return `${url.protocol}//${host}:${port}${url.pathname.replace(/\/+$/, '')}`;
}

/** This node run, its account read from the credential the first time (the key is never kept). */
async function nodeRun(ctx: IExecuteSingleFunctions): Promise<NodeRun> {
	const node = ctx.getNode().name;
	const known = runs.peek(ctx, node);
	if (known) return known;
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	const account = createHash('sha256')
		.update(`${serviceOrigin(credentials.baseUrl)}\n${String(credentials.apiKey ?? '').trim()}`)
		.digest('hex');
	return runs.get(ctx, node, () => ({ id: `${ctx.getExecutionId()}|${node}`, account }));
}

/** The account (base URL and key) this node run uses, as a digest. */
export async function accountOfRun(ctx: IExecuteSingleFunctions): Promise<string> {
	return (await nodeRun(ctx)).account;
}

/** The account's budget, the rate this node run asks for taken into its ceiling. */
async function budgetFor(ctx: IExecuteSingleFunctions, rate: number): Promise<AccountBudget> {
	const run = await nodeRun(ctx);
	if (!run.budget) {
		run.budget = budgets.get(run.account) ?? new AccountBudget(rate);
		budgets.set(run.account, run.budget);
	}
	if (run.budget.rates.get(run.id) !== rate) {
		run.budget.rates.set(run.id, rate);
		run.budget.ceilingChanged();
	}
	return run.budget;
}

/**
 * The service answered a request of this node run, sent at `sentAt`: its account's budget adapts
 * (see `AccountBudget.heard`), and a change of the rate in force goes to n8n's log at debug level.
 */
export function recordServicePace(
	ctx: IExecuteSingleFunctions,
	sentAt: number,
	signal: PaceSignal,
): void {
	const news = runs
		.peek(ctx, ctx.getNode().name)
		?.budget?.heard(sentAt, signal, limits.createRetryAfterMaxMs);
	if (news) ctx.logger.debug(news, { node: ctx.getNode().name, executionId: ctx.getExecutionId() });
}

const ordered = new WeakMap<AccountBudget, PrioritySlots>();

function stoppedBeforeSlot(ctx: IExecuteSingleFunctions): IdealHouseItemError {
	return stoppedError(
		ctx,
		'Execution stopped while this item waited for its turn to send',
		"Nothing more was sent for this item (see 'Max Requests per Second').",
		{ kind: 'neverSent' },
	);
}

/** A request its sender gave up while it waited for its slot: nothing was sent. */
function withdrawnError(ctx: IExecuteSingleFunctions): IdealHouseItemError {
	return new IdealHouseItemError(
		ctx.getNode(),
		'The request was withdrawn before it was sent',
		{
			itemIndex: ctx.getItemIndex(),
			description: 'Another step of this item ended first, so nothing was sent for this request.',
		},
		{ kind: 'withdrawn' },
	);
}

/**
 * A request slot, once given: call it when the request's answer or failure has come, or call
 * `unused` when nothing was sent with it after all.
 */
export type RequestSlot = (() => void) & { unused(): void };

/** How a request waits for its slot. */
export interface SlotWait {
	/** Its place when requests wait for the request budget; a create's by default. */
	priority?: SlotPriority;
	/** Fired while it still waits for its slot: it is not sent, and fails meaning `withdrawn`. */
	withdraw?: AbortSignal;
	/**
	 * The latest time it may be sent (a status check's deadline). A slot that cannot open by then,
	 * the account held longer by a Retry-After or the wait running past it, withdraws it unsent.
	 */
	sendBy?: number;
}

/**
 * Waits for the account's next request slot (creates and polls share the budget), and
 * returns what to call once the request's answer or failure has come. When requests queue for a
 * slot, polls of tasks that are likely done go first, then creates, then other polls, the oldest
 * first within each (see `PrioritySlots`). When `withdraw` fires, or `sendBy` passes, while it
 * still waits, it gives its place up and throws an error meaning `withdrawn`.
 */
export async function takeRequestSlot(
	ctx: IExecuteSingleFunctions,
	rate: number,
	{ priority = { rank: 'create', age: clock.now() }, withdraw, sendBy }: SlotWait = {},
): Promise<RequestSlot> {
	const stop = executionStopSignal(ctx);
	if (stop.aborted) throw stoppedBeforeSlot(ctx);
	const shared = await budgetFor(ctx, rate);
	const budget = shared.slots;
	let slots = ordered.get(shared);
	if (!slots) {
		slots = new PrioritySlots(() => budget.tryTake());
		ordered.set(shared, slots);
	}
	// Held past it by a Retry-After: no slot can open in time, so the request goes at once, unsent.
	if (sendBy !== undefined && budget.heldUntilTime > sendBy) throw withdrawnError(ctx);
	let given: boolean;
	try {
		given = await slots.take(priority, withdraw ? AbortSignal.any([stop, withdraw]) : stop, sendBy);
	} catch {
		// The slots reject only when the execution is stopped or the sender gave the request up.
		if (withdraw?.aborted && !stop.aborted) throw withdrawnError(ctx);
		throw stoppedBeforeSlot(ctx);
	}
	if (!given) throw withdrawnError(ctx);
	let done = false;
	const queue = slots;
	const release = (free: () => void) => () => {
		if (done) return;
		done = true;
		free();
		queue.wake();
	};
	return Object.assign(
		release(() => budget.answered()),
		{ unused: release(() => budget.unused()) },
	);
}

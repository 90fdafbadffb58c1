// The request budget of each account in this process, shared by every execution and node on it.
// The model: docs/design/request-rate.md
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

/** By account: the key at the service's origin, however spelt. */
const budgets = new Map<string, AccountBudget>();

/** One node in one execution; its account as a digest. */
interface NodeRun {
	id: string;
	account: string;
	budget?: AccountBudget;
}

// A run leaves its budget when its execution finishes; the day unused catches n8n versions
// without the finish notice.
const runs = new PerExecution<NodeRun>(executionLimits.stateIdleMs, 'drop', (run) => {
	const budget = run.budget;
	if (!budget) return;
	budget.rates.delete(run.id);
	if (budget.rates.size === 0) budgets.delete(run.account);
	else budget.ceilingChanged();
});

/** One spelling per service (port explicit, loopback names as one): never two budgets for one. */
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

/** The key is never kept, only the account's digest. */
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

/** The account (base URL and key) of this node run, as a digest. */
export async function accountOfRun(ctx: IExecuteSingleFunctions): Promise<string> {
	return (await nodeRun(ctx)).account;
}

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

/** The account's budget adapts to an answer; a change of rate goes to n8n's debug log. */
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

const stoppedBeforeSlot = (ctx: IExecuteSingleFunctions): IdealHouseItemError =>
	stoppedError(
		ctx,
		'Execution stopped while this item waited for its turn to send',
		"Nothing more was sent for this item (see 'Max Requests per Second').",
		{ kind: 'neverSent' },
	);

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

/** Call it once the answer or failure has come, or `unused` when nothing was sent. */
type RequestSlot = (() => void) & { unused(): void };

export interface SlotWait {
	/** A create's by default. */
	priority?: SlotPriority;
	/** Fired while it waits: not sent, it fails meaning `withdrawn`. */
	withdraw?: AbortSignal;
	/** The latest it may be sent (a status check's deadline), else withdrawn unsent. */
	sendBy?: number;
}

/** Waits for the account's next slot, in `PrioritySlots` order; creates and polls share it. */
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
		// The slots reject only on Stop or when the sender gave the request up.
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

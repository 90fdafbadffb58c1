import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { IdealHouseItemError, type ErrorMeaning } from './errors';

/**
 * One stop signal per execution. n8n 2.x hands declarative nodes no cancel signal
 * (`getExecutionCancelSignal()` is undefined for them), but it runs the execution-finish handlers
 * at once when a user presses Stop. A handler added after that moment never runs, so the signal
 * is set up when the node's run starts (`watchForStop`, before any request), not when a wait
 * first needs it.
 */
const stops = new Map<string, AbortController>();

function keyOf(ctx: IExecuteSingleFunctions): string | undefined {
	const id = ctx.getExecutionId?.();
	return id ? String(id) : undefined;
}

function linkCancelSignal(ctx: IExecuteSingleFunctions, controller: AbortController): void {
	const cancel = ctx.getExecutionCancelSignal?.();
	if (cancel?.aborted) controller.abort();
	cancel?.addEventListener('abort', () => controller.abort(), { once: true });
}

/** Called first thing for every item, before anything is sent. */
export function watchForStop(ctx: IExecuteSingleFunctions): AbortSignal {
	return executionStopSignal(ctx);
}

/** The signal that fires when this execution is stopped (or has finished). */
export function executionStopSignal(ctx: IExecuteSingleFunctions): AbortSignal {
	const key = keyOf(ctx);
	const known = key === undefined ? undefined : stops.get(key);
	if (known) return known.signal;
	const controller = new AbortController();
	linkCancelSignal(ctx, controller);
	// n8n 1.x may lack the finish notice: then only a cancel signal, if n8n gives one, can stop.
	if (key !== undefined && typeof ctx.onExecutionFinish === 'function') {
		stops.set(key, controller);
		ctx.onExecutionFinish(() => {
			controller.abort();
			stops.delete(key);
		});
	}
	return controller.signal;
}

/** The error of an item ended by Stop; `message` says what was going on. Never retried. */
export function stoppedError(
	ctx: IExecuteSingleFunctions,
	message: string,
	description?: string,
	meaning: ErrorMeaning = {},
): IdealHouseItemError {
	return new IdealHouseItemError(
		ctx.getNode(),
		message,
		{ itemIndex: ctx.getItemIndex(), description },
		{ ...meaning, stopped: true },
	);
}

/** Rejects as soon as the signal fires, whether or not the work below honours it. */
export async function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(signal.reason);
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([work, aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
		aborted.catch(() => undefined);
	}
}

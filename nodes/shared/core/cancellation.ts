import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { IdealHouseItemError } from './errors';
import type { Outcome } from './outcome';
import { PerExecution } from './per-execution';
import { executionLimits } from './limits';

// One stop signal per execution. n8n 2.x gives declarative nodes no cancel signal but runs finish
// handlers at once on Stop, and one added later never runs: so the signal is set up when the
// node's run starts, before any request. Why: docs/design/execution-state.md
const stops = new PerExecution<AbortController>(
	executionLimits.stateIdleMs,
	'keep',
	(controller, reason) => {
		if (reason === 'finished') controller.abort();
	},
);

function linkCancelSignal(ctx: IExecuteSingleFunctions, controller: AbortController): void {
	const cancel = ctx.getExecutionCancelSignal?.();
	if (cancel?.aborted) controller.abort();
	cancel?.addEventListener('abort', () => controller.abort(), { once: true });
}

function linkedController(ctx: IExecuteSingleFunctions): AbortController {
	const controller = new AbortController();
	linkCancelSignal(ctx, controller);
	return controller;
}

/** The signal that fires when this execution is stopped (or has finished). */
export function executionStopSignal(ctx: IExecuteSingleFunctions): AbortSignal {
	// n8n 1.x may lack the finish notice: then only a cancel signal, if n8n gives one, can stop.
	if (!ctx.getExecutionId?.() || typeof ctx.onExecutionFinish !== 'function') {
		return linkedController(ctx).signal;
	}
	return stops.get(ctx, '', () => linkedController(ctx)).signal;
}

/** Before a step that would make or send anything: a stopped execution's item goes no further. */
export function refuseWhenStopped(ctx: IExecuteSingleFunctions): void {
	if (!executionStopSignal(ctx).aborted) return;
	throw stoppedError(
		ctx,
		'Execution stopped before this item sent anything',
		'Nothing was sent or charged for this item.',
		{ kind: 'neverSent' },
	);
}

/** The error of an item ended by Stop, with what its request had `cameTo`; never retried. */
export function stoppedError(
	ctx: IExecuteSingleFunctions,
	message: string,
	description: string | undefined,
	cameTo: Outcome,
): IdealHouseItemError {
	return new IdealHouseItemError(
		ctx.getNode(),
		message,
		{ itemIndex: ctx.getItemIndex(), description },
		{ ...cameTo, stopped: true },
	);
}

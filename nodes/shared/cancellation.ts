import type { IExecuteSingleFunctions } from 'n8n-workflow';

const signals = new WeakMap<IExecuteSingleFunctions, AbortSignal>();

/**
 * A signal that fires when the execution is stopped. n8n 2.x hands declarative nodes no cancel
 * signal (`getExecutionCancelSignal()` is undefined for them), but it does run the
 * execution-finish handlers at once when a user presses Stop, so both sources end the wait.
 */
export function executionStopSignal(ctx: IExecuteSingleFunctions): AbortSignal {
	const known = signals.get(ctx);
	if (known) return known;
	const controller = new AbortController();
	const cancel = ctx.getExecutionCancelSignal();
	if (cancel?.aborted) controller.abort();
	cancel?.addEventListener('abort', () => controller.abort(), { once: true });
	ctx.onExecutionFinish?.(() => controller.abort());
	signals.set(ctx, controller.signal);
	return controller.signal;
}

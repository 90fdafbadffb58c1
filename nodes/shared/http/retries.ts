import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { executionStopSignal } from '../core/cancellation';
import { clock } from '../core/clock';
import { toIdealHouseError, type IdealHouseError } from '../core/errors';
import { limits } from '../core/limits';

// The one retry loop of a single request (create, Get Result, download). Why: docs/design/retries.md

export type RetryDecision = { retryInMs: number } | { giveUp: Error };

export interface RetryPolicy {
	next(error: IdealHouseError, attemptNumber: number): RetryDecision;
	/** The error the item ends with when Stop comes while it waits to try again. */
	stoppedWhileWaiting(last: IdealHouseError): Error;
}

export async function withRetries<T>(
	ctx: IExecuteSingleFunctions,
	attempt: (attemptNumber: number) => Promise<T>,
	policy: RetryPolicy,
): Promise<T> {
	for (let attemptNumber = 1; ; attemptNumber++) {
		try {
			return await attempt(attemptNumber);
		} catch (caught) {
			const error = toIdealHouseError(ctx, caught);
			const decision = policy.next(error, attemptNumber);
			if ('giveUp' in decision) throw decision.giveUp;
			if (!(await pause(ctx, decision.retryInMs))) throw policy.stoppedWhileWaiting(error);
		}
	}
}

/** The service's Retry-After (at least 1 s), else `backoff`; refused again in a row, the longer. */
export function retryWaitMs(
	retryAfterMs: number | undefined,
	backoff: number,
	failures: number,
): number {
	if (retryAfterMs === undefined) return backoff;
	const asked = Math.max(limits.retryAfterFloorMs, retryAfterMs);
	return failures <= 1 ? asked : Math.max(backoff, asked);
}

/** The wait after the n-th failure in a row: doubling from `baseMs`, never beyond `maxMs`. */
export function backoffMs(baseMs: number, failures: number, maxMs = Infinity): number {
	return Math.min(maxMs, baseMs * 2 ** (failures - 1));
}

/** Waits; false when the execution was stopped meanwhile. */
async function pause(ctx: IExecuteSingleFunctions, ms: number): Promise<boolean> {
	const signal = executionStopSignal(ctx);
	try {
		await clock.sleep(ms, signal);
	} catch {
		// Stopped: the caller gives up with the error it has.
	}
	return !signal.aborted;
}

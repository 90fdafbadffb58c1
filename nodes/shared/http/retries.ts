import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { executionStopSignal } from '../core/cancellation';
import { clock } from '../core/clock';
import { toIdealHouseError, type IdealHouseError } from '../core/errors';
import { limits } from '../core/limits';

/** After a failed attempt: wait this long and try again, or end with this error. */
export type RetryDecision = { retryInMs: number } | { giveUp: Error };

/** The rule of one request's retries. */
export interface RetryPolicy {
	/** Decides from the error's outcome and the attempt number. */
	next(error: IdealHouseError, attemptNumber: number): RetryDecision;
	/** The error the item ends with when Stop comes while it waits to try again. */
	stoppedWhileWaiting(last: IdealHouseError): Error;
}

/**
 * The one retry loop of a single request (a create, a Get Result, a result download): try, and on
 * a failure let the request's policy decide, from the error's outcome and the attempt number, to
 * give up or to wait before the next attempt. A wait ends early when the execution is stopped.
 *
 * The poller has no loop of this kind: a status check that meets a passing fault is simply the
 * next poll, planned by the same loop that plans every poll, later by the backoff below.
 */
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

/**
 * The wait before a request that met a passing fault goes again, after `failures` in a row: the
 * service's Retry-After when it sent one (at least a second), else `backoff`. After the first, a
 * Retry-After says when the request will be taken, and the account's request budget paces what
 * follows: a longer backoff on top would only hold a refused request back while the others go.
 * Refused again in a row, it waits the longer of the two, so that the attempts still spread over
 * the backoff's half minute.
 */
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

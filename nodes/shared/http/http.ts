import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { untilAborted } from '../core/clock';

// Rules of every request: the whole answer whatever its status, one time limit, Stop ends it.

// n8n's helper never follows a redirect: a key or a signature would go with it. Also for requests
// n8n sends itself; a result download follows redirects itself, checking each hop.
export const NO_REDIRECTS = { disableFollowRedirect: true } as const;

// A credential's refusal to send its secret (a key over plain http elsewhere): nothing left n8n.
// Marked by a property, not a `code`: n8n's credential test shows a code in place of the message.
export function secretNotSent(message: string): Error {
	return Object.assign(new Error(message), { secretNotSent: true });
}

export function isSecretNotSent(error: unknown): boolean {
	return (error as { secretNotSent?: unknown } | null)?.secretNotSent === true;
}

interface RequestLimits {
	timeoutMs: number;
	/** The execution's Stop; none where there is no execution (the editor's option lists). */
	stop?: AbortSignal;
}

export interface GuardedRequest {
	options: IHttpRequestOptions;
	/** Fires on Stop or when the time limit is reached. */
	signal: AbortSignal;
	timedOut(): boolean;
}

export function guardedRequest(
	options: IHttpRequestOptions,
	limits: RequestLimits,
): GuardedRequest {
	const timeout = Math.max(1, Math.round(limits.timeoutMs));
	const deadline = AbortSignal.timeout(timeout);
	const signal = limits.stop ? AbortSignal.any([limits.stop, deadline]) : deadline;
	return {
		options: {
			...options,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			...NO_REDIRECTS,
			maxRedirects: 0,
			timeout,
			abortSignal: signal,
		},
		signal,
		timedOut: () => deadline.aborted,
	};
}

/** Sends with one of n8n's helpers, ended as soon as the request's signal fires. */
export async function sendGuarded(
	request: GuardedRequest,
	send: (options: IHttpRequestOptions) => Promise<unknown>,
): Promise<IN8nHttpFullResponse> {
	return (await untilAborted(request.signal, send(request.options))) as IN8nHttpFullResponse;
}

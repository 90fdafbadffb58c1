import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { untilAborted } from '../core/clock';

/**
 * The rules every request of the package follows, whoever it goes to: the service (with the key,
 * `transport/send.ts`) and a result link (without it). The whole answer comes back whatever its
 * status, so that the sender reads the service's or the host's own message; one time limit covers
 * the request, and Stop ends it at once.
 */

/**
 * A redirect is never followed by n8n's helper: a key or a signature would go with it. Set here
 * once, for the requests built below and for those n8n sends itself (the routed requests, the
 * credential's authenticate); a result download follows redirects itself, one checked hop at a time.
 */
export const NO_REDIRECTS = { disableFollowRedirect: true } as const;

/**
 * The failure a credential raises instead of sending its secret (a key over plain http to another
 * machine): the request never left n8n. Marked by a property of its own, not a `code`: n8n's
 * credential test shows an error's code in place of its message.
 */
export function secretNotSent(message: string): Error {
	return Object.assign(new Error(message), { secretNotSent: true });
}

export function isSecretNotSent(error: unknown): boolean {
	return (error as { secretNotSent?: unknown } | null)?.secretNotSent === true;
}

export interface RequestLimits {
	timeoutMs: number;
	/** The execution's Stop; none where there is no execution (the editor's option lists). */
	stop?: AbortSignal;
}

export interface GuardedRequest {
	options: IHttpRequestOptions;
	/** Fires on Stop or when the time limit is reached. */
	signal: AbortSignal;
	/** Whether it was the time limit that ended the request. */
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

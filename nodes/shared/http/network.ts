import type { Outcome } from '../basics/outcome';
import { redact } from '../basics/redact';

/** The codes of a request that failed on the way: no answer came back. */
const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'EPIPE',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EAI_AGAIN',
	'ENOTFOUND',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_NETWORK',
	'ERR_CANCELED',
]);

/** The codes that prove the request never reached its host. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export function networkCode(error: unknown): string | undefined {
	return codeInChain(error, (code) => NETWORK_CODES.has(code));
}

/** The first `code` of the error or of its causes that `accept` takes. */
export function codeInChain(error: unknown, accept: (code: string) => boolean): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && accept(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/**
 * What a request that failed on the way came to. A cancelled request or an unknown failure is no
 * passing fault; only a refused connection or an unknown host prove that it was never sent.
 */
export function networkOutcome(code: string | undefined): Outcome {
	if (!code || code === 'ERR_CANCELED') return { kind: 'maybeActed' };
	return { kind: NEVER_SENT_CODES.has(code) ? 'neverSent' : 'maybeActed', retry: { reason: code } };
}

/**
 * A failed request's own message, with the secrets cleared: the helper's error also carries the
 * request's configuration, headers included, so nothing else of it is kept.
 */
export function failureText(error: unknown, secrets: readonly string[]): string {
	return redact(String((error as Error)?.message ?? error), secrets);
}

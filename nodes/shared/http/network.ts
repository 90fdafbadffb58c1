import type { Outcome } from '../basics/outcome';
import { redact } from '../basics/redact';
import { SECRET_NOT_SENT } from './http';

/**
 * How a request failed on the way, whoever it went to: no answer came back. What each kind proves
 * about the request is its outcome (`NETWORK_FAILURES`); the codes below decide the kind.
 */
export type NetworkFailure =
	/** The credential would not send its secret there (`SECRET_NOT_SENT`): nothing left n8n. */
	| 'secretNotSent'
	/** Never connected: refused, an unknown host, no route. Nothing was sent. */
	| 'noConnection'
	/** The TLS handshake did not complete (a certificate refused, not HTTPS): nothing was sent. */
	| 'tlsHandshake'
	/** Connected, and the connection broke or stalled: the request may have been written. */
	| 'connectionCut'
	/** What came back was not HTTP: the request was written. */
	| 'notHttp'
	/** No code says how: the request may have been written. */
	| 'unknown';

const NO_CONNECTION = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);
const CONNECTION_CUT = new Set([
	'ECONNRESET',
	'ECONNABORTED',
	'EPIPE',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'ERR_NETWORK',
	// axios: the answer's stream broke off (or outgrew its bounds) once it had begun.
	'ERR_BAD_RESPONSE',
]);
/** Node's certificate checks (OpenSSL's names) and TLS handshake failures. */
const TLS_HANDSHAKE =
	/^(?:EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|ERR_TLS_CERT_ALTNAME_INVALID$|ERR_SSL_WRONG_VERSION_NUMBER$|ERR_SSL_.*(?:HANDSHAKE|ALERT|UNSUPPORTED_PROTOCOL))/;
/** Node's HTTP parser: the bytes that came back were not an HTTP answer. */
const NOT_HTTP = /^HPE_/;

function kindOfCode(code: string): NetworkFailure | undefined {
	if (code === SECRET_NOT_SENT) return 'secretNotSent';
	if (NO_CONNECTION.has(code)) return 'noConnection';
	if (CONNECTION_CUT.has(code)) return 'connectionCut';
	if (TLS_HANDSHAKE.test(code)) return 'tlsHandshake';
	if (NOT_HTTP.test(code)) return 'notHttp';
	return undefined;
}

/** What a failure on the way proves, and whether the same request again may well succeed. */
export const NETWORK_FAILURES: Record<
	NetworkFailure,
	{ outcome: Outcome['kind']; passing: boolean }
> = {
	secretNotSent: { outcome: 'neverSent', passing: false },
	noConnection: { outcome: 'neverSent', passing: true },
	tlsHandshake: { outcome: 'neverSent', passing: false },
	connectionCut: { outcome: 'maybeActed', passing: true },
	notHttp: { outcome: 'maybeActed', passing: true },
	unknown: { outcome: 'maybeActed', passing: false },
};

/** A failed request's kind, and the code that says so (none for `unknown`). */
export function networkFailure(error: unknown): { kind: NetworkFailure; code?: string } {
	let found: { kind: NetworkFailure; code: string } | undefined;
	codeInChain(error, (code) => {
		const kind = kindOfCode(code);
		if (kind) found = { kind, code };
		return kind !== undefined;
	});
	return found ?? { kind: 'unknown' };
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

/** What a request that failed on the way came to. */
export function networkOutcome(failure: { kind: NetworkFailure; code?: string }): Outcome {
	const row = NETWORK_FAILURES[failure.kind];
	const outcome = { kind: row.outcome } as Outcome;
	if (row.passing) outcome.retry = { reason: failure.code ?? failure.kind };
	return outcome;
}

/**
 * A failed request's own message, with the secrets cleared: the helper's error also carries the
 * request's configuration, headers included, so nothing else of it is kept.
 */
export function failureText(error: unknown, secrets: readonly string[]): string {
	return redact(String((error as Error)?.message ?? error), secrets);
}

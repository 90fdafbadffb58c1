import type { Retry } from '../core/outcome';
import { redact } from '../core/redact';
import { isSecretNotSent } from './http';

// How a request failed with no answer; what each kind proves: its row in `SERVICE_FAILURES`.
export type NetworkFailure =
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
	'EADDRNOTAVAIL',
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
const TLS_HANDSHAKE =
	/^(?:EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|ERR_TLS_CERT_ALTNAME_INVALID$|ERR_SSL_WRONG_VERSION_NUMBER$|ERR_SSL_.*(?:HANDSHAKE|ALERT|UNSUPPORTED_PROTOCOL))/;
/** Node's HTTP parser: the bytes that came back were not an HTTP answer. */
const NOT_HTTP = /^HPE_/;

function kindOfCode(code: string): NetworkFailure | undefined {
	if (NO_CONNECTION.has(code)) return 'noConnection';
	if (CONNECTION_CUT.has(code)) return 'connectionCut';
	if (TLS_HANDSHAKE.test(code)) return 'tlsHandshake';
	if (NOT_HTTP.test(code)) return 'notHttp';
	return undefined;
}

/** Whether the same request again may well succeed after a failure of this kind. */
const PASSING: Record<NetworkFailure, boolean> = {
	secretNotSent: false,
	noConnection: true,
	tlsHandshake: false,
	connectionCut: true,
	notHttp: true,
	unknown: false,
};

// A `code` on the error or its causes decides; else a code its words name, and then only as a
// failure after writing: words alone never prove that nothing was sent.
export function networkFailure(error: unknown): { kind: NetworkFailure; code?: string } {
	for (const link of causeChain(error)) {
		if (isSecretNotSent(link)) return { kind: 'secretNotSent' };
		const code = (link as { code?: unknown }).code;
		const kind = typeof code === 'string' ? kindOfCode(code) : undefined;
		if (kind) return { kind, code: code as string };
	}
	for (const words of wordsOf(error)) {
		for (const [code] of words.matchAll(/\b[A-Z][A-Z0-9_]{3,}\b/g)) {
			const kind = kindOfCode(code);
			if (kind === 'connectionCut' || kind === 'notHttp') return { kind, code };
		}
	}
	return { kind: 'unknown' };
}

/** The error and its causes, outermost first (n8n wraps a helper's failure in its own error). */
function causeChain(error: unknown): object[] {
	const chain: object[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
		chain.push(current);
		current = (current as { cause?: unknown }).cause;
	}
	return chain;
}

/** Every message along the chain, innermost first: the failure's own words before n8n's rewording. */
function wordsOf(error: unknown): string[] {
	const words: string[] = [];
	for (const link of causeChain(error).reverse()) {
		const { message, messages } = link as { message?: unknown; messages?: unknown };
		if (Array.isArray(messages)) words.push(...messages.filter((m) => typeof m === 'string'));
		if (typeof message === 'string') words.push(message);
	}
	if (words.length === 0) words.push(String(error));
	return words;
}

export function networkRetry(failure: { kind: NetworkFailure; code?: string }): Retry | undefined {
	return PASSING[failure.kind] ? { reason: failure.code ?? failure.kind } : undefined;
}

// A failure's own words, secrets cleared: not n8n's rewording (it may advise a retry), nor the
// rest of the error, whose request configuration holds the headers.
export function failureText(error: unknown, secrets: readonly string[]): string {
	return redact(wordsOf(error)[0], secrets);
}

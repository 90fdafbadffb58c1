// Fault injection for the API endpoints, so a client can be tested against the failures a
// real deployment shows: gateways answering 5xx, rate limiting, dropped connections and bodies
// cut short. On a create request a fault can hit before the task exists (nothing charged) or after
// it was created and charged: the second case is the one that tells whether a client that retries
// blindly creates (and pays for) the same task twice.
import type { Random } from './prng.ts';
import { CODE, envelopeText } from './envelope.ts';

/** Kinds that replace or spoil the response, tried in this order (the first one drawn wins). */
export const FAULT_KINDS = [
	'reset',
	'http500',
	'http502',
	'http503',
	'http429',
	'code1003',
	'truncated',
	'malformed',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** 429 and 1003 come from layers that answer before any work is done, so never "after". */
const AFTER_CREATE_KINDS: ReadonlySet<FaultKind> = new Set([
	'reset',
	'http500',
	'http502',
	'http503',
	'truncated',
	'malformed',
]);

export type FaultPhase = 'before' | 'after' | 'both';

export interface FaultConfig {
	/** Rates, 0..1, drawn per request. */
	http500?: number;
	http502?: number;
	http503?: number;
	/** HTTP 200 with the envelope code 1003 (INTERNAL_ERROR). */
	code1003?: number;
	/** HTTP 429 with a Retry-After header. */
	http429?: number;
	/** The socket is destroyed without any response. */
	reset?: number;
	/** A JSON body cut in the middle (correct framing, HTTP status as it would have been). */
	truncated?: number;
	/** A JSON body that is not valid JSON. */
	malformed?: number;
	/** Rate of requests delayed by latencyMs; it adds to any other fault. */
	latency?: number;
	latencyMs?: number;
	retryAfterSeconds?: number;
	/** Body of the 5xx answers: the 1003 envelope (default) or an HTML error page as a proxy sends. */
	serverErrorBody?: 'envelope' | 'html';
	/**
	 * Endpoints the faults apply to (default all). An entry is a full name such as
	 * 'photoEnhancer.generate' or 'style.getStyles', an API ('ai3d', 'style') or an action
	 * ('result', 'getStyles').
	 */
	endpoints?: string[];
	/** For the create endpoints: fault before the task is created, after, or both (default 'before'). */
	faultPhase?: FaultPhase;
}

export type FaultStage = 'before' | 'after' | 'request';

export function endpointSelected(config: FaultConfig, endpoint: string): boolean {
	if (!config.endpoints || config.endpoints.length === 0) return true;
	const [api, action] = endpoint.split('.');
	return config.endpoints.some((entry) => entry === endpoint || entry === api || entry === action);
}

/**
 * Draws the fault for one request at one stage: 'request' for result endpoints (no side effect to
 * be before or after), 'before'/'after' around the creation of a task.
 */
export function pickFault(
	config: FaultConfig,
	endpoint: string,
	stage: FaultStage,
	random: Random,
): FaultKind | null {
	if (!endpointSelected(config, endpoint)) return null;
	const phase = config.faultPhase ?? 'before';
	if (stage === 'before' && phase === 'after') return null;
	if (stage === 'after' && phase === 'before') return null;
	for (const kind of FAULT_KINDS) {
		if (stage === 'after' && !AFTER_CREATE_KINDS.has(kind)) continue;
		const rate = config[kind] ?? 0;
		if (rate > 0 && random() < rate) return kind;
	}
	return null;
}

export function pickLatency(config: FaultConfig, endpoint: string, random: Random): number {
	if (!endpointSelected(config, endpoint)) return 0;
	const rate = config.latency ?? 0;
	if (rate > 0 && random() < rate) return Math.max(0, config.latencyMs ?? 500);
	return 0;
}

export interface FaultResponse {
	status: number;
	headers: Record<string, string>;
	body: string;
}

const JSON_TYPE = 'application/json;charset=UTF-8';

const STATUS_TEXT: Record<number, string> = {
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
};

/**
 * The response a fault sends, or 'reset' to drop the connection. `body` and `status` are the
 * response the request would have had (used by truncated/malformed).
 */
export function faultResponse(
	kind: FaultKind,
	config: FaultConfig,
	body: string,
	status: number,
): FaultResponse | 'reset' {
	switch (kind) {
		case 'reset':
			return 'reset';
		case 'http500':
		case 'http502':
		case 'http503': {
			const code = Number(kind.slice(4));
			if (config.serverErrorBody === 'html') {
				const title = `${code} ${STATUS_TEXT[code]}`;
				return {
					status: code,
					headers: { 'content-type': 'text/html' },
					body: `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`,
				};
			}
			return {
				status: code,
				headers: { 'content-type': JSON_TYPE },
				body: envelopeText(CODE.INTERNAL_ERROR, 'internal error, please retry later'),
			};
		}
		case 'http429': {
			const seconds = Math.max(0, Math.round(config.retryAfterSeconds ?? 1));
			return {
				status: 429,
				headers: { 'content-type': JSON_TYPE, 'retry-after': String(seconds) },
				body: envelopeText(CODE.INTERNAL_ERROR, `too many requests, retry after ${seconds} s`),
			};
		}
		case 'code1003':
			return {
				status: 200,
				headers: { 'content-type': JSON_TYPE },
				body: envelopeText(CODE.INTERNAL_ERROR, 'internal error, please retry later'),
			};
		case 'truncated':
			return {
				status,
				headers: { 'content-type': JSON_TYPE },
				body: body.slice(0, Math.max(1, Math.floor(body.length / 2))),
			};
		case 'malformed':
			return {
				status,
				headers: { 'content-type': JSON_TYPE },
				// An unquoted key and a stray comma: close enough to JSON to fool a careless check.
				body: body.startsWith('{"code":') ? `{code:${body.slice(8, -1)},}` : `<${body}`,
			};
	}
}

import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { CREDENTIAL_NAME } from './api';
import { executionStopSignal } from './cancellation';
import type { SlotPriority } from './poll-schedule';
import { takeRequestSlot } from './throttle';
import { apiCodeError, httpStatusError } from './errors';
import { parseJsonLossless } from './json';

/**
 * The one path every request of both nodes takes: the create call sent by n8n's routing (its
 * response arrives here through `readEnvelope`) and every poll sent with `apiRequest`.
 *
 * Bodies are read as text and parsed losslessly because task ids are 64-bit; HTTP errors are
 * answered by us (the routing sets `ignoreHttpStatusErrors`) so the service's own message survives.
 */

/** Request settings shared by the routing defaults and `apiRequest`. */
export const RAW_RESPONSE: Pick<IHttpRequestOptions, 'encoding' | 'json' | 'ignoreHttpStatusErrors'> =
	{
		encoding: 'text',
		json: false,
		ignoreHttpStatusErrors: true,
	};

/** Defaults of every routed request (the create and Get Result calls) of both nodes. */
export const REQUEST_DEFAULTS = {
	baseURL: '={{ String($credentials.baseUrl).replace(/\\/+$/, "") }}',
	headers: { Accept: 'application/json' },
	...RAW_RESPONSE,
};

/** Faults after which repeating the same read is safe and likely to succeed. */
export interface TransientFault {
	reason: string;
	/** True when the service certainly did not act on the request (HTTP 429, code 1003, never sent). */
	notProcessed?: boolean;
	/** From a Retry-After header, when the service sent one. */
	retryAfterMs?: number;
}

const transientFaults = new WeakMap<object, TransientFault>();

/** Whether an error thrown by this module is a passing fault (retry) rather than a verdict. */
export function transientFault(error: unknown): TransientFault | undefined {
	return typeof error === 'object' && error !== null ? transientFaults.get(error) : undefined;
}

function markTransient<E extends object>(error: E, fault: TransientFault): E {
	transientFaults.set(error, fault);
	return error;
}

function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (body === undefined || body === null) return '';
	// Already parsed by someone else: digits beyond 2^53 may be gone, but the shape is usable.
	return JSON.stringify(body);
}

function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const value = headers?.['retry-after'];
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function tryParseJson(text: string): unknown {
	try {
		return parseJsonLossless(text);
	} catch {
		return undefined;
	}
}

interface Envelope {
	code: number;
	message: string;
	data: unknown;
}

function asEnvelope(value: unknown): Envelope | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const obj = value as IDataObject;
	if (typeof obj.code !== 'number') return undefined;
	return {
		code: obj.code,
		message: typeof obj.message === 'string' ? obj.message : String(obj.message ?? ''),
		data: obj.data,
	};
}

/**
 * Turns a full HTTP response into the envelope's `data`, or throws an error that says what
 * happened and what to do. Codes 1003, HTTP 429/5xx and unreadable bodies are marked transient.
 */
export function readEnvelope(this: IExecuteSingleFunctions, response: IN8nHttpFullResponse): unknown {
	const node = this.getNode();
	const itemIndex = this.getItemIndex();
	const status = response.statusCode;
	const text = bodyText(response.body);
	const transientStatus = status === 429 || status >= 500;
	const fault: TransientFault = { reason: `HTTP ${status}`, retryAfterMs: retryAfterMs(response.headers) };

	const envelope = asEnvelope(tryParseJson(text));

	if (!envelope) {
		if (status >= 400) {
			const error = httpStatusError(node, status, text, itemIndex);
			throw transientStatus ? markTransient(error, { ...fault, notProcessed: status === 429 }) : error;
		}
		const error = new NodeApiError(node, { statusCode: status } as JsonObject, {
			message: 'Ideal House sent a response that could not be read',
			description:
				'The response was cut short or was not the JSON the service sends. This is usually a passing network problem: run the node again. Check the base URL in the credential if it persists.',
			httpCode: String(status),
			itemIndex,
		});
		throw markTransient(error, { reason: 'unreadable response body' });
	}

	if (envelope.code !== 0 || status >= 400) {
		const error = apiCodeError(node, envelope.code, envelope.message, {
			itemIndex,
			httpCode: String(status),
		});
		if (envelope.code === 1003 && status < 400) {
			// The service itself answered "internal error": it did not take the request. The same
			// body behind a 5xx may come from a gateway after the service acted, so that one is not.
			throw markTransient(error, { reason: 'code 1003', retryAfterMs: fault.retryAfterMs, notProcessed: true });
		}
		throw transientStatus ? markTransient(error, { ...fault, notProcessed: status === 429 }) : error;
	}
	return envelope.data;
}

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

/** Only a refused connection or an unknown host prove the request never reached the service. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function networkCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/**
 * Rebuilds a failed request's error from scratch: the helper's error carries the request
 * configuration, headers included, and the API key must never reach an item or a log.
 */
export function networkError(this: IExecuteSingleFunctions, error: unknown): NodeApiError {
	const code = networkCode(error);
	// n8n rewrites any message naming a socket error code, so the code goes in the description.
	const message = code
		? 'The connection to Ideal House failed before an answer arrived'
		: `The request to Ideal House failed: ${(error as Error)?.message ?? String(error)}`;
	const safe = new NodeApiError(this.getNode(), { message, code: code ?? 'unknown' } as JsonObject, {
		message,
		description:
			code === 'ECONNREFUSED' || code === 'ENOTFOUND'
				? `Network error ${code}. Check the base URL in the "Ideal House API" credential and that this n8n instance can reach it.`
				: `Network error ${code ?? 'unknown'}. This is usually temporary: run the node again.`,
		itemIndex: this.getItemIndex(),
	});
	if (!code || code === 'ERR_CANCELED') return safe;
	return markTransient(safe, { reason: code, notProcessed: NEVER_SENT_CODES.has(code) });
}

async function baseUrl(ctx: IExecuteSingleFunctions): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Its place when requests wait for the request budget; a create's by default. */
	priority?: SlotPriority;
}

/** Sends one authenticated request to the service and returns the envelope's `data`. */
export async function apiRequest(this: IExecuteSingleFunctions, request: ApiRequest): Promise<unknown> {
	await takeRequestSlot(this, request.priority);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${await baseUrl(this)}${request.path}`,
		qs: request.qs,
		headers: { Accept: 'application/json' },
		returnFullResponse: true,
		abortSignal: executionStopSignal(this),
		...RAW_RESPONSE,
	};
	if (request.body) {
		options.body = request.body;
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_NAME,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		throw networkError.call(this, error);
	}
	return readEnvelope.call(this, response);
}

/** Task ids travel as exact decimal strings; a small id may arrive as a plain number. */
export function toTaskId(value: unknown): string | undefined {
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	return undefined;
}

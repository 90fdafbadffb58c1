import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BASE_URL_EXPRESSION, CREDENTIAL_NAME, serviceBaseUrl } from '../catalog/api';
import { executionStopSignal, stoppedError } from '../basics/cancellation';
import { clock } from '../basics/clock';
import { limits } from '../basics/limits';
import { parseJsonKeepingLongs } from '../basics/long-ids';
import {
	apiCodeError,
	httpStatusError,
	IdealHouseApiError,
	type TransientFault,
} from '../basics/errors';
import { redact, withoutSecrets } from '../basics/redact';
import { toTaskId } from '../catalog/task';
import { guardedRequest, sendGuarded, type GuardedRequest } from './http';
import { heardFromService, takeRequestSlot, type SlotWait } from './throttle';
import type { PaceSignal } from './account-budget';

/**
 * The one path every request of every node takes: the create call sent by n8n's routing (its
 * response arrives here through `readEnvelope`) and every poll sent with `apiRequest`.
 *
 * Bodies are read as text and parsed keeping long ids exact, because task ids are 64-bit; HTTP errors are
 * answered by us (the routing sets `ignoreHttpStatusErrors`) so the service's own message survives.
 *
 * Every request here: never follows a redirect (the API key would go with it), has a time limit,
 * ends at once when the execution is stopped, and has its answer cleared of the key before any
 * of it can reach a message, an item or a log line.
 */

/** Request settings shared by the routing defaults and `apiRequest`. */
export const RAW_RESPONSE: Pick<
	IHttpRequestOptions,
	'encoding' | 'json' | 'ignoreHttpStatusErrors'
> = {
	encoding: 'text',
	json: false,
	ignoreHttpStatusErrors: true,
};

/** Defaults of every routed request (the create and Get Result calls) of every node. */
export const REQUEST_DEFAULTS = {
	baseURL: BASE_URL_EXPRESSION,
	headers: { Accept: 'application/json' },
	disableFollowRedirect: true,
	...RAW_RESPONSE,
};

export function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (body === undefined || body === null) return '';
	// Already parsed by someone else: digits beyond 2^53 may be gone, but the shape is usable.
	return JSON.stringify(body);
}

/** A Retry-After in milliseconds, from seconds or an HTTP date; undefined without a readable one. */
export function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const value = headers?.['retry-after'];
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The service's Retry-After on a refused request. One that names no time the node can read
 * (neither seconds nor an HTTP date) still asks to wait: it counts as the longest wait the node
 * honours, for the account's pause and the request's own rule alike.
 */
function serviceRetryAfterMs(headers: IDataObject | undefined): number | undefined {
	const ms = retryAfterMs(headers);
	return ms === undefined && headers?.['retry-after'] !== undefined
		? limits.createRetryAfterMaxMs
		: ms;
}

function tryParseJson(text: string): unknown {
	try {
		return parseJsonKeepingLongs(text);
	} catch {
		return undefined;
	}
}

export interface Envelope {
	code: number;
	message: string;
	data: unknown;
}

/** The API envelope a body holds, if it holds one (long integers kept exact). */
export function envelopeIn(text: string): Envelope | undefined {
	return asEnvelope(tryParseJson(text));
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

/** The code of an answer's envelope, without judging it; undefined when it has none. */
export function envelopeCode(response: ServiceResponse): number | undefined {
	return asEnvelope(tryParseJson(response.body))?.code;
}

/**
 * The service answered with an error code of its own: it refused the request and did not act on
 * it. Behind a 5xx the same body may be a gateway's, after the service acted.
 */
export function isRefusal(statusCode: number, envelope: Envelope | undefined): boolean {
	// An error envelope that still names a task may stand for a task that exists (see answers.ts).
	return (
		envelope !== undefined &&
		envelope.code !== 0 &&
		statusCode < 500 &&
		toTaskId(envelope.data) === undefined
	);
}

/** Who reads an answer: a node's item, or the editor loading an option list (no item there). */
export interface EnvelopeReader {
	getNode(): INode;
	getItemIndex?(): number;
}

/**
 * Turns a full HTTP response into the envelope's `data`, or throws an error that says what
 * happened and what to do. Codes 1003, HTTP 429/5xx and unreadable bodies are marked transient.
 */
export function readEnvelope(
	this: EnvelopeReader,
	response: IN8nHttpFullResponse,
	secrets: readonly string[] = [],
): unknown {
	const node = this.getNode();
	const itemIndex = this.getItemIndex?.();
	const status = response.statusCode;
	const text = withoutSecrets(bodyText(response.body), secrets);
	if (status >= 300 && status < 400) throw movedError(this, response);
	// A 429 was refused before the service acted; after a 5xx, it may have acted.
	const statusFault: TransientFault | undefined =
		status === 429 || status >= 500
			? {
					reason: `HTTP ${status}`,
					notProcessed: status === 429,
					retryAfterMs: serviceRetryAfterMs(response.headers),
				}
			: undefined;

	const envelope = asEnvelope(tryParseJson(text));

	if (!envelope) {
		if (status >= 400) {
			throw httpStatusError(node, status, redact(text, secrets, 2000), itemIndex, {
				transient: statusFault,
			});
		}
		throw new IdealHouseApiError(
			node,
			{ statusCode: status } as JsonObject,
			{
				message: 'Ideal House sent a response that could not be read',
				description:
					'The response was cut short or was not the JSON the service sends. This is usually a passing network problem: run the node again. Check the base URL in the credential if it persists.',
				httpCode: String(status),
				itemIndex,
			},
			{ transient: { reason: 'unreadable response body', notProcessed: false } },
		);
	}

	if (envelope.code !== 0 || status >= 400) {
		// The service itself answered "internal error": it did not take the request. The same
		// body behind a 5xx may come from a gateway after the service acted, so that one is not.
		const internalError: TransientFault | undefined =
			envelope.code === 1003 && status < 400
				? {
						reason: 'code 1003',
						notProcessed: true,
						retryAfterMs: serviceRetryAfterMs(response.headers),
					}
				: undefined;
		throw apiCodeError(
			node,
			envelope.code,
			redact(envelope.message, secrets),
			{ itemIndex, httpCode: String(status) },
			{
				transient: internalError ?? statusFault,
				notActedOn: isRefusal(status, envelope),
			},
		);
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

/** The codes that prove the request never reached the service. */
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
 * Rebuilds a failed request's error from scratch: the helper's error carries the request
 * configuration, headers included, and the API key must never reach an item or a log.
 */
export function networkError(
	this: IExecuteSingleFunctions,
	error: unknown,
	secrets: readonly string[] = [],
): IdealHouseApiError {
	const code = networkCode(error);
	// n8n rewrites any message naming a socket error code, so the code goes in the description.
	const message = code
		? 'The connection to Ideal House failed before an answer arrived'
		: `The request to Ideal House failed: ${redact(String((error as Error)?.message ?? error), secrets)}`;
	// A cancelled request is no passing fault; only a refused connection or an unknown host prove it was never sent.
	const transient =
		code && code !== 'ERR_CANCELED'
			? { reason: code, notProcessed: NEVER_SENT_CODES.has(code) }
			: undefined;
	return new IdealHouseApiError(
		this.getNode(),
		{ message, code: code ?? 'unknown' } as JsonObject,
		{
			message,
			description:
				code === 'ECONNREFUSED' || code === 'ENOTFOUND'
					? `Network error ${code}. Check the base URL in the "Ideal House API" credential and that this n8n instance can reach it.`
					: `Network error ${code ?? 'unknown'}. This is usually temporary: run the node again.`,
			itemIndex: this.getItemIndex(),
		},
		{ transient },
	);
}

/** A 3xx: the request was not followed, so the key went nowhere but to the base URL. */
function movedError(ctx: EnvelopeReader, response: IN8nHttpFullResponse): IdealHouseApiError {
	const location = response.headers?.location;
	let where = '';
	try {
		where = typeof location === 'string' ? ` to ${new URL(location).host}` : '';
	} catch {
		where = '';
	}
	return new IdealHouseApiError(ctx.getNode(), { statusCode: response.statusCode } as JsonObject, {
		message: `Ideal House answered with a redirect${where} (HTTP ${response.statusCode}): the service moved or the base URL is not the service's`,
		description:
			'Redirects are not followed, so the key was not sent on. Check the base URL in the "Ideal House API" credential (it must be the address of the API itself).',
		httpCode: String(response.statusCode),
		itemIndex: ctx.getItemIndex?.(),
	});
}

function timeoutError(ctx: IExecuteSingleFunctions, timeoutMs: number): IdealHouseApiError {
	return new IdealHouseApiError(
		ctx.getNode(),
		{ message: 'timeout' } as JsonObject,
		{
			message: `Ideal House did not answer within ${Math.round(timeoutMs / 100) / 10} s`,
			description:
				'The service or the network is slow right now. This is usually temporary: run the node again.',
			itemIndex: ctx.getItemIndex(),
		},
		{ transient: { reason: 'no answer in time', notProcessed: false } },
	);
}

/** The credential's key, to clear from everything the service or the network says. */
export function secretsOfCredentials(credentials: ICredentialDataDecryptedObject): string[] {
	return typeof credentials.apiKey === 'string' && credentials.apiKey !== ''
		? [credentials.apiKey]
		: [];
}

export async function secretsOf(ctx: IExecuteSingleFunctions): Promise<string[]> {
	try {
		return secretsOfCredentials(await ctx.getCredentials(CREDENTIAL_NAME));
	} catch {
		return [];
	}
}

/** Sends to the service with its key: n8n's authenticated helper adds it to this request alone. */
async function sendWithKey(
	ctx: IExecuteSingleFunctions | ILoadOptionsFunctions,
	request: GuardedRequest,
): Promise<IN8nHttpFullResponse> {
	return await sendGuarded(
		request,
		async (sent) =>
			await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_NAME, sent),
	);
}

/**
 * What an answer says about the pace of the account's requests: HTTP 429, or code 1003 with a
 * Retry-After, is a throttle; any other answer below HTTP 500 went through at this pace; a 5xx
 * says nothing about it.
 */
export function paceSignalOf(response: ServiceResponse): PaceSignal | undefined {
	const retryAfter = serviceRetryAfterMs(response.headers);
	const busy = retryAfter !== undefined && envelopeCode(response) === 1003;
	if (response.statusCode === 429 || busy) return { throttled: true, retryAfterMs: retryAfter };
	return response.statusCode < 500 ? { throttled: false } : undefined;
}

/** An answer of the service, its body as text with the key already cleared from it. */
export interface ServiceResponse extends IN8nHttpFullResponse {
	body: string;
	secrets: string[];
}

/**
 * Sends one authenticated request: no redirects, at most `timeoutMs`, cut off by Stop. Failures
 * become errors without the request's configuration (which holds the key). What the answer says
 * about the pace (a throttle or not) goes to the account's request budget.
 */
export async function sendToService(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	timeoutMs: number,
): Promise<ServiceResponse> {
	const sentAt = clock.now();
	const stop = executionStopSignal(ctx);
	const secrets = await secretsOf(ctx);
	if (stop.aborted) {
		throw stoppedError(ctx, 'Execution stopped before the request was sent', undefined, {
			notActedOn: true,
		});
	}
	const request = guardedRequest({ ...options, ...RAW_RESPONSE }, { timeoutMs, stop });
	// n8n 2.x replaces an authenticated request's abortSignal with the execution's cancel signal,
	// which declarative nodes do not get: the helper runs on a view of this context that gives ours.
	const helperThis = Object.create(ctx, {
		getExecutionCancelSignal: { value: () => request.signal },
	}) as IExecuteSingleFunctions;
	let response: IN8nHttpFullResponse;
	try {
		response = await sendWithKey(helperThis, request);
	} catch (error) {
		if (stop.aborted) {
			throw stoppedError(
				ctx,
				'Execution stopped while waiting for Ideal House to answer',
				undefined,
				{
					requestSent: true,
				},
			);
		}
		if (request.timedOut()) throw timeoutError(ctx, timeoutMs);
		throw networkError.call(ctx, error, secrets);
	}
	const answer = { ...response, body: withoutSecrets(bodyText(response.body), secrets), secrets };
	const pace = paceSignalOf(answer);
	if (pace) heardFromService(ctx, sentAt, pace);
	return answer;
}

async function baseUrl(ctx: IExecuteSingleFunctions): Promise<string> {
	return serviceBaseUrl((await ctx.getCredentials(CREDENTIAL_NAME)).baseUrl);
}

/** How a request waits for its slot of the account's request budget. */
export interface InSlot extends SlotWait {
	/** The most this request may wait for its answer. */
	timeoutMs: number;
	/** The item's Max Requests per Second. */
	rate: number;
}

/** Waits for a slot of the account's request budget, sends, and gives the slot back with the answer. */
export async function sendInSlot(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	slot: InSlot,
): Promise<ServiceResponse> {
	const answered = await takeRequestSlot(ctx, slot.rate, slot);
	return await sendToService(ctx, options, slot.timeoutMs).finally(answered);
}

export interface ApiRequest extends InSlot {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
}

/** Sends one authenticated request to the service and returns the envelope's `data`. */
export async function apiRequest(
	this: IExecuteSingleFunctions,
	request: ApiRequest,
): Promise<unknown> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${await baseUrl(this)}${request.path}`,
		qs: request.qs,
		headers: { Accept: 'application/json' },
	};
	if (request.body) {
		options.body = request.body;
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	const response = await sendInSlot(this, options, request);
	return readEnvelope.call(this, response, response.secrets);
}

/**
 * A read the editor makes while the user edits the node (an option list), through the same rules
 * as every other request: no redirects, a time limit, the key cleared from whatever comes back.
 * There is no item or execution there, so no request budget and no Stop; `what` names the read
 * in the message when the service cannot be reached.
 */
export async function editorRead(
	ctx: ILoadOptionsFunctions,
	path: string,
	what: string,
	timeoutMs: number,
): Promise<unknown> {
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	const secrets = secretsOfCredentials(credentials);
	const request = guardedRequest(
		{
			method: 'GET',
			url: `${serviceBaseUrl(credentials.baseUrl)}${path}`,
			headers: { Accept: 'application/json' },
			...RAW_RESPONSE,
		},
		{ timeoutMs },
	);
	let response: IN8nHttpFullResponse;
	try {
		response = await sendWithKey(ctx, request);
	} catch (error) {
		// Rebuilt from the message alone: the helper's error carries the request, key included.
		throw new NodeOperationError(
			ctx.getNode(),
			`Could not load ${what} from Ideal House: ${redact(String((error as Error)?.message ?? error), secrets)}`,
			{ description: 'Check the credential, or type an ID using an expression instead.' },
		);
	}
	return readEnvelope.call(ctx, { ...response, body: bodyText(response.body) }, secrets);
}

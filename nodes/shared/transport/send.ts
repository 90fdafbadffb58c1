// Every request to Ideal House leaves here with the key, which n8n's authenticated helper adds to
// that request alone; its answer comes back with the key cleared before it can reach anything.
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { executionStopSignal, stoppedError } from '../core/cancellation';
import { clock } from '../core/clock';
import { IdealHouseApiError } from '../core/errors';
import { withoutSecrets } from '../core/redact';
import {
	BASE_URL_EXPRESSION,
	CREDENTIAL_NAME,
	secretsOf,
	serviceBaseUrl,
} from '../catalog/service';
import { guardedRequest, NO_REDIRECTS, sendGuarded, type GuardedRequest } from '../http/http';
import { failureText, networkFailure, networkRetry } from '../http/network';
import { bodyText } from '../http/responses';
import { paceSignalOf, readEnvelope, type ServiceResponse } from './answers';
import { failureError, SEND_AGAIN_WORDS } from './failures';
import { recordServicePace, takeRequestSlot, type SlotWait } from '../rate/slots';

/** Request settings shared by the routing defaults and the node's own requests. */
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
	...NO_REDIRECTS,
	...RAW_RESPONSE,
};

export async function sendWithKey(
	ctx: IExecuteSingleFunctions | ILoadOptionsFunctions,
	request: GuardedRequest,
): Promise<IN8nHttpFullResponse> {
	return await sendGuarded(
		request,
		async (sent) =>
			await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_NAME, sent),
	);
}

/** Rebuilt without the request's configuration (the key); the code goes in the description. */
function networkError(
	this: IExecuteSingleFunctions,
	error: unknown,
	secrets: readonly string[] = [],
): IdealHouseApiError {
	const failure = networkFailure(error);
	const said = failureText(error, secrets);
	const more =
		failure.kind === 'secretNotSent'
			? undefined
			: failure.code
				? `Code: ${failure.code}.`
				: SEND_AGAIN_WORDS.test(said)
					? undefined
					: `n8n said: ${said}.`;
	return failureError({ node: this.getNode(), itemIndex: this.getItemIndex() }, failure.kind, {
		more,
		retry: networkRetry(failure),
	});
}

function timeoutError(ctx: IExecuteSingleFunctions, timeoutMs: number): IdealHouseApiError {
	return failureError({ node: ctx.getNode(), itemIndex: ctx.getItemIndex() }, 'noAnswerInTime', {
		retry: { reason: 'no answer in time' },
		detail: `it was given ${Math.round(timeoutMs / 100) / 10} s`,
	});
}

/**
 * No redirects, at most `timeoutMs`, cut off by Stop; failures become errors without the request's
 * configuration (which holds the key). The answer's pace goes to the account's request budget.
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
		throw stoppedError(ctx, 'Execution stopped before the request was sent', 'It was not sent.', {
			kind: 'neverSent',
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
				'Stop cut the request off after it was sent, before its answer arrived.',
				{ kind: 'maybeActed' },
			);
		}
		if (request.timedOut()) throw timeoutError(ctx, timeoutMs);
		throw networkError.call(ctx, error, secrets);
	}
	const answer = { ...response, body: withoutSecrets(bodyText(response.body), secrets), secrets };
	const pace = paceSignalOf(answer);
	if (pace) recordServicePace(ctx, sentAt, pace);
	return answer;
}

async function baseUrl(ctx: IExecuteSingleFunctions): Promise<string> {
	return serviceBaseUrl((await ctx.getCredentials(CREDENTIAL_NAME)).baseUrl);
}

interface InSlot extends SlotWait {
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

interface ApiRequest extends InSlot {
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

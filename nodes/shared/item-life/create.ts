import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { stoppedError } from '../core/cancellation';
import { IdealHouseApiError, toIdealHouseError, type IdealHouseError } from '../core/errors';
import { holdsLongInteger, writeJsonBody } from '../core/json-body';
import { limits } from '../core/limits';
import { final, mayRepeatRead, mayResendCreate, type Outcome } from '../core/outcome';
import { taskFromResult, taskIdFromCreate, toTaskId, type Task } from '../catalog/task';
import {
	backoffMs,
	retryWaitMs,
	withRetries,
	type RetryDecision,
	type RetryPolicy,
} from '../http/retries';
import { envelopeIn, readEnvelope, type ServiceResponse } from '../transport/answers';
import { sendInSlot, sendToService } from '../transport/send';
import type { CreditCharge } from './credit-limit';
import type { Operation } from './settings';
import { waitForCreateTurn, type Turn } from './create-turn';

// An item's one request, retried around the send alone: nothing after an answer resends a create.

/**
 * Sends the create; a later attempt takes a turn of its own (a refused create gave its slot and
 * credits back). Sent again only when the service certainly did not act on it. Returns the task id.
 */
export async function sendCreate(
	ctx: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
	rate: number,
	turn: Turn,
	charge: CreditCharge,
): Promise<string> {
	const body = request.body as IDataObject;
	// n8n's helper would write a long integer as JavaScript rounds it: the text is ours then.
	const sent = holdsLongInteger(body) ? { ...request, body: writeJsonBody(body) } : request;
	return await withRetries(
		ctx,
		async (attempt) =>
			await createOnce(
				ctx,
				sent,
				attempt === 1 ? turn : await waitForCreateTurn(ctx, rate, charge),
			),
		sendAgainPolicy(ctx, 'create'),
	);
}

/** One attempt of a create, in its turn: the send, then its answer read into a task id. */
async function createOnce(
	ctx: IExecuteSingleFunctions,
	sent: IHttpRequestOptions,
	turn: Turn,
): Promise<string> {
	turn.stillOpen();
	let response: ServiceResponse | undefined;
	let failed: Outcome | undefined;
	try {
		response = await sendToService(ctx, sent, limits.createTimeoutMs);
		return taskIdFromCreate(ctx, createdData(ctx, response), response.secrets);
	} catch (error) {
		const failure = toIdealHouseError(ctx, error);
		failed = failure.outcome;
		throw failure;
	} finally {
		turn.answered(response, failed);
	}
}

/** Get Result's one read, each attempt in its own slot of the request budget. */
export async function sendRead(
	ctx: IExecuteSingleFunctions,
	request: IHttpRequestOptions,
	taskId: string,
	rate: number,
): Promise<Task> {
	return await withRetries(
		ctx,
		async () => {
			const response = await sendInSlot(ctx, request, {
				timeoutMs: limits.pollTimeoutMaxMs,
				rate,
			});
			const data = readEnvelope.call(ctx, response, response.secrets, { taskId });
			return taskFromResult(ctx, data, taskId, response.secrets);
		},
		sendAgainPolicy(ctx, 'read'),
	);
}

/**
 * The `data` of a create's answer: code 0 naming a task is a created task, never sent again,
 * whatever HTTP status a gateway put around it. An error envelope naming a task: `readEnvelope`.
 */
function createdData(ctx: IExecuteSingleFunctions, response: ServiceResponse): unknown {
	try {
		return readEnvelope.call(ctx, response, response.secrets, 'create');
	} catch (error) {
		const envelope = envelopeIn(response.body);
		const id = envelope?.code === 0 ? toTaskId(envelope.data) : undefined;
		if (envelope === undefined || id === undefined) throw toIdealHouseError(ctx, error);
		ctx.logger.warn(
			`Ideal House answered a create with HTTP ${response.statusCode} but code 0 and task ${id}: the task was created (execution ${ctx.getExecutionId()}, node "${ctx.getNode().name}", item ${ctx.getItemIndex()})`,
			{ taskId: id, itemIndex: ctx.getItemIndex() },
		);
		return envelope.data;
	}
}

/** A read is repeated on any passing fault; a create only when the service surely did not act. */
function sendAgainPolicy(ctx: IExecuteSingleFunctions, operation: Operation): RetryPolicy {
	return {
		next: (error, attempt) => afterFailedAttempt(ctx, operation, error, attempt),
		stoppedWhileWaiting: (last) => stoppedBeforeSendingAgain(ctx, operation, last),
	};
}

function afterFailedAttempt(
	ctx: IExecuteSingleFunctions,
	operation: Operation,
	error: IdealHouseError,
	attempt: number,
): RetryDecision {
	const { outcome } = error;
	if (outcome.stopped) {
		const cutOff = operation === 'create' && outcome.kind === 'maybeActed';
		return { giveUp: cutOff ? stoppedCreate(ctx) : error };
	}
	const repeatable = operation === 'read' ? mayRepeatRead(outcome) : mayResendCreate(outcome);
	// What to do then is said at the item's end, from what the last attempt came to (`finalAdvice`).
	if (!repeatable || attempt >= limits.sendAttempts) return { giveUp: error };
	const retryAfterMs = outcome.retry?.afterMs;
	if (retryAfterMs !== undefined && retryAfterMs > limits.createRetryAfterMaxMs) {
		return { giveUp: rateLimited(ctx, operation, retryAfterMs, final(outcome)) };
	}
	const backoff = backoffMs(limits.sendRetryBaseMs, attempt);
	return { retryInMs: retryWaitMs(retryAfterMs, backoff, attempt) };
}

function stoppedBeforeSendingAgain(
	ctx: IExecuteSingleFunctions,
	operation: Operation,
	last: IdealHouseError,
): IdealHouseError {
	return stoppedError(
		ctx,
		'Execution stopped before the request was sent again',
		operation === 'create'
			? `Nothing was created for this item: the last attempt was refused (${last.outcome.retry?.reason}).`
			: 'Nothing was changed: run Get Result again later.',
		final(last.outcome),
	);
}

/** A Retry-After too long to wait for inside a run: the item fails, and its last attempt's outcome stands. */
function rateLimited(
	ctx: IExecuteSingleFunctions,
	operation: Operation,
	retryAfterMs: number,
	outcome: Outcome,
): IdealHouseApiError {
	const todo =
		operation === 'create'
			? "Nothing was created or charged for this item: run it again later, or lower 'Max Requests per Second' or the batch size."
			: 'Nothing was changed: run Get Result for this task again later; the task itself is not affected.';
	return new IdealHouseApiError(
		ctx.getNode(),
		{ message: 'rate limited' },
		{
			message: `Ideal House is limiting the request rate and asked to wait ${Math.round(retryAfterMs / 1000)} s before the next request`,
			description: `That is longer than this node waits (${limits.createRetryAfterMaxMs / 1000} s). ${todo}`,
			httpCode: '429',
			itemIndex: ctx.getItemIndex(),
		},
		outcome,
	);
}

/** Stop cut a create off after it was sent: the service may have taken it. */
function stoppedCreate(ctx: IExecuteSingleFunctions): IdealHouseError {
	return stoppedError(
		ctx,
		'Execution stopped while the task was being created',
		'The create request had already been sent when Stop was pressed.',
		{ kind: 'maybeActed' },
	);
}

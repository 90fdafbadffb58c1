import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { stoppedError } from '../basics/cancellation';
import { IdealHouseApiError, toIdealHouseError, type IdealHouseError } from '../basics/errors';
import { holdsLongInteger, writeJsonBody } from '../basics/json-body';
import { limits } from '../basics/limits';
import { taskFromResult, taskIdFromCreate, toTaskId, type Task } from '../catalog/task';
import { backoffMs, withRetries } from '../http/retries';
import { envelopeIn, readEnvelope, type ServiceResponse } from '../transport/answers';
import { sendInSlot, sendToService } from '../transport/send';
import { aboutTask } from './created-task';
import type { CreditCharge } from './credit-limit';
import type { Operation } from './settings';
import { takeTurn, type Turn } from './turn';

/**
 * The one request of an item, sent with retries around the send alone: a create (once its turn
 * has come) or a Get Result. Each attempt is one request and the reading of its answer; what
 * follows (the wait, the downloads) runs after the loop has returned, so that nothing after the
 * answer can ever send a create again.
 */

/**
 * Sends the create. The first attempt goes in the item's turn; a later one takes a turn of its
 * own, because a create the service refused gave its slot and its credits back. Sent again only
 * when the service certainly did not act on it, and never once the answer named a task. Returns
 * the new task's id.
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
	let firstTurn: Turn | undefined = turn;
	return await withRetries(
		ctx,
		async () => {
			const inTurn = firstTurn ?? (await takeTurn(ctx, rate, charge));
			firstTurn = undefined;
			inTurn.stillOpen();
			const response = await sendToService(ctx, sent, limits.createTimeoutMs).then(
				(answer) => {
					inTurn.answered(answer);
					return answer;
				},
				(error) => {
					inTurn.answered();
					throw error;
				},
			);
			return taskIdFromCreate(ctx, createdData(ctx, response), response.secrets);
		},
		(error, attempt) => waitBeforeSendingAgain(ctx, 'create', error, attempt),
		(error) => stoppedBeforeSendingAgain(ctx, 'create', error),
	);
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
			try {
				const data = readEnvelope.call(ctx, response, response.secrets);
				return taskFromResult(ctx, data, taskId, response.secrets);
			} catch (error) {
				throw aboutTask(ctx, error, taskId);
			}
		},
		(error, attempt) => waitBeforeSendingAgain(ctx, 'read', error, attempt),
		(error) => stoppedBeforeSendingAgain(ctx, 'read', error),
	);
}

/**
 * The `data` of a create's answer. An envelope of code 0 that names a task is a created task
 * whatever the HTTP status around it (a gateway may put a 429 or a 5xx on the service's own
 * answer), and is never sent again. An error envelope that still carries a task id may stand
 * for a task that exists: it is never sent again either.
 */
function createdData(ctx: IExecuteSingleFunctions, response: ServiceResponse): unknown {
	try {
		return readEnvelope.call(ctx, response, response.secrets);
	} catch (error) {
		const envelope = envelopeIn(response.body);
		const id = envelope ? toTaskId(envelope.data) : undefined;
		if (envelope === undefined || id === undefined) throw toIdealHouseError(ctx, error);
		if (envelope.code === 0) {
			ctx.logger.warn(
				`Ideal House answered a create with HTTP ${response.statusCode} but code 0 and task ${id}: the task was created (execution ${ctx.getExecutionId()}, node "${ctx.getNode().name}", item ${ctx.getItemIndex()})`,
				{ taskId: id, itemIndex: ctx.getItemIndex() },
			);
			return envelope.data;
		}
		const failure = toIdealHouseError(ctx, error);
		failure.transient = undefined;
		failure.taskMayExist = true;
		failure.description =
			`${failure.description ?? ''} The answer named task ${id}, so that task may have been created and charged: fetch it with the Get Result operation before running this item again.`.trim();
		throw failure;
	}
}

/**
 * After a failed attempt: how long to wait before sending again, or (thrown) how the item ends.
 * A read is repeated on any passing fault; a create only when the service certainly did not act.
 */
function waitBeforeSendingAgain(
	ctx: IExecuteSingleFunctions,
	operation: Operation,
	error: IdealHouseError,
	attempt: number,
): number {
	if (error.stopped) {
		throw operation === 'create' && error.requestSent && !error.taskId ? stoppedCreate(ctx) : error;
	}
	const fault = error.transient;
	const repeatable =
		attempt < limits.sendAttempts &&
		fault !== undefined &&
		(operation === 'read' ||
			(fault.notProcessed && error.taskId === undefined && !error.taskMayExist));
	if (!repeatable) {
		if (operation === 'create' && fault && !fault.notProcessed && error.taskId === undefined) {
			error.description =
				`${error.description ?? ''} The task may have been created and charged even so: check the account's task list before running this item again.`.trim();
		}
		throw error;
	}
	const retryAfterMs = fault.retryAfterMs ?? 0;
	if (retryAfterMs > limits.createRetryAfterMaxMs)
		throw rateLimited(ctx, retryAfterMs, error.taskId);
	return Math.max(backoffMs(limits.sendRetryBaseMs, attempt), retryAfterMs);
}

function stoppedBeforeSendingAgain(
	ctx: IExecuteSingleFunctions,
	operation: Operation,
	error: IdealHouseError,
): IdealHouseError {
	return stoppedError(
		ctx,
		'Execution stopped before the request was sent again',
		operation === 'create'
			? `Nothing was created for this item: the last attempt was refused (${error.transient?.reason}).`
			: undefined,
		{ taskId: error.taskId, notActedOn: operation === 'create' },
	);
}

/** A Retry-After too long to wait for inside a run: the item fails, nothing was created. */
function rateLimited(
	ctx: IExecuteSingleFunctions,
	retryAfterMs: number,
	taskId?: string,
): IdealHouseApiError {
	return new IdealHouseApiError(
		ctx.getNode(),
		{ message: 'rate limited' },
		{
			message: `Ideal House is limiting the request rate and asked to wait ${Math.round(retryAfterMs / 1000)} s before the next request`,
			description: `That is longer than this node waits (${limits.createRetryAfterMaxMs / 1000} s). Nothing was created or charged for this item: run it again later, or lower Max Requests per Second or the batch size.`,
			httpCode: '429',
			itemIndex: ctx.getItemIndex(),
		},
		{ taskId, notActedOn: true },
	);
}

/** Stop cut a create off after it was sent: the service may have taken it. */
function stoppedCreate(ctx: IExecuteSingleFunctions): IdealHouseError {
	return stoppedError(
		ctx,
		'Execution stopped while the task was being created',
		"The create request was already sent, so the task may have been created and charged: check the account's task list before running this item again.",
	);
}

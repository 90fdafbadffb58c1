import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { answerToCreate, answerToRead, type Answer } from './answers';
import { createPath, resultPath, type IdealHouseApi } from '../catalog/catalog';
import { stoppedError, watchForStop } from '../basics/cancellation';
import { creditCharge, type CreditCharge } from './credit-limit';
import { IdealHouseApiError, toIdealHouseError, type IdealHouseError } from '../basics/errors';
import { holdsLongInteger, writeJsonBody } from '../basics/json-body';
import { limits } from '../basics/limits';
import { creditsKeyOf, noteAnswerCode, refuseWhenOutOfCredits } from './out-of-credits';
import { readItemSettings, type ItemSettings, type Operation } from './item-settings';
import type { PhotoFileRule } from '../storage/photo-files';
import { PhotoUploads } from './photo-uploads';
import { previewCreate, previewRead } from './preview';
import { backoffMs, withRetries } from '../transport/retries';
import { takeRequestSlot } from '../transport/throttle';
import { isToolCall, withAdviceInMessage } from '../results/tool';
import {
	envelopeCode,
	envelopeIn,
	isRefusal,
	sendToService,
	type ServiceResponse,
} from '../transport/transport';

/**
 * The request cycle of every item of every node: validate the item (with Preview, emit what would
 * be sent instead of sending it), wait for a request slot, check the account's credits and the
 * node's Credit Limit, send, retry as the operation allows, and on a final failure either fail
 * the node or, with Continue on Fail, emit an error item that keeps its link to the input item.
 *
 * Why it runs in a pagination hook: declarative routing builds and sends each item's request
 * itself, and its only hook around the send is `operations.pagination`, which with
 * `send.paginate: true` hands the built request to the node and takes back the items it returns.
 * Nothing is paginated: the hook sends the one request through the package's transport (no
 * redirects, a time limit, Stop) and owns what a plain routed request cannot do. `cycleRouting`
 * below is the only place that names it.
 */

/** Checks an item's request body before anything is sent, and returns the body to send. */
export type BodyCheck = (this: IExecuteSingleFunctions, body: IDataObject) => Promise<IDataObject>;

/**
 * The API an operation calls: a catalog row, or for an API named in the node's parameters
 * (`custom`), the row built from the item's parameters, checked before anything is sent.
 */
export type ApiOfItem = IdealHouseApi | ((this: IExecuteSingleFunctions) => IdealHouseApi);

/**
 * Routing of a create operation (Enhance, Remove, Create): the item is checked first; nothing is
 * sent unless it passes. With `photoFiles`, the photo may also be a file on the item (Image Source).
 */
export function createTaskRouting(
	api: ApiOfItem,
	validate: BodyCheck,
	photoFiles?: PhotoFileRule,
): INodePropertyRouting {
	return cycleRouting(
		{ method: 'POST', headers: { 'Content-Type': 'application/json' } },
		requestCycle('create', api, validate, photoFiles),
	);
}

/** Routing of Get Result: one read of the task, retried on passing faults. */
export function taskResultRouting(api: ApiOfItem): INodePropertyRouting {
	return cycleRouting({ method: 'GET' }, requestCycle('read', api));
}

type Cycle = (
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]>;

function cycleRouting(
	request: INodePropertyRouting['request'],
	cycle: Cycle,
): INodePropertyRouting {
	return { request, send: { paginate: true }, operations: { pagination: cycle } };
}

function requestCycle(
	operation: Operation,
	apiOfItem: ApiOfItem,
	validate?: BodyCheck,
	photoFiles?: PhotoFileRule,
): Cycle {
	return async function (this: IExecutePaginationFunctions, requestData) {
		// First, before anything can wait: a Stop pressed from now on reaches this item.
		watchForStop(this);
		try {
			// Here rather than in a preSend, so that a refused item, too, keeps its link. The item's
			// settings first, read and checked once: everything below is handed this value.
			const settings = readItemSettings(this, operation);
			const api = typeof apiOfItem === 'function' ? apiOfItem.call(this) : apiOfItem;
			requestData.options.url = operation === 'create' ? createPath(api) : resultPath(api);
			if (operation === 'read') {
				requestData.options.qs = { ...requestData.options.qs, taskId: settings.taskId };
				return await readTask(this, api, requestData.options as IHttpRequestOptions, settings);
			}
			// The files are checked and their links signed before the body check reads `imageUrl`.
			const photos = photoFiles
				? await PhotoUploads.prepare(
						this,
						(requestData.options.body ??= {}) as IDataObject,
						photoFiles,
						settings,
					)
				: undefined;
			if (validate) {
				requestData.options.body = await validate.call(this, {
					...(requestData.options.body as IDataObject),
				});
			}
			const options = requestData.options as IHttpRequestOptions;
			const create = async () => await createTask(this, api, options, settings);
			// A preview shows the signed link the service would get, and uploads nothing.
			if (!photos || settings.preview) return await create();
			// Uploaded only now that the whole item passed, and before anything can be charged.
			await photos.upload(this);
			return await photos.around(this, settings, create);
		} catch (error) {
			return continueOnFail(this, toIdealHouseError(this, error));
		}
	};
}

/** A create, or its preview; counted against the node's Credit Limit (see `creditCharge`). */
async function createTask(
	ctx: IExecutePaginationFunctions,
	api: IdealHouseApi,
	options: IHttpRequestOptions,
	settings: ItemSettings,
): Promise<INodeExecutionData[]> {
	const body = options.body as IDataObject;
	const charge = creditCharge(ctx, api, body, settings);
	if (settings.preview) {
		charge.reserve();
		return await previewCreate(ctx, api, body);
	}
	// n8n's helper would write a long integer as JavaScript rounds it: the text is ours then.
	const sent = holdsLongInteger(body) ? { ...options, body: writeJsonBody(body) } : options;
	try {
		return await sendWithRetries(
			ctx,
			'create',
			sent,
			settings,
			answerToCreate(api, body, settings),
			charge,
		);
	} catch (error) {
		const failure = toIdealHouseError(ctx, error);
		charge.failed(failure);
		throw failure;
	}
}

async function readTask(
	ctx: IExecutePaginationFunctions,
	api: IdealHouseApi,
	options: IHttpRequestOptions,
	settings: ItemSettings,
): Promise<INodeExecutionData[]> {
	if (settings.preview) return await previewRead(ctx, api, options.qs ?? {});
	return await sendWithRetries(ctx, 'read', options, settings, answerToRead(api, settings));
}

const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 2000;

/**
 * Sends the item's request, each attempt after a slot of the request budget (throttling), and
 * repeats it on a passing fault: a read always, a create only when the service certainly did
 * not act on it, and never once the task exists.
 */
async function sendWithRetries(
	ctx: IExecutePaginationFunctions,
	operation: Operation,
	options: IHttpRequestOptions,
	settings: ItemSettings,
	answer: Answer,
	charge?: CreditCharge,
): Promise<INodeExecutionData[]> {
	const timeoutMs = operation === 'create' ? limits.createTimeoutMs : limits.pollTimeoutMaxMs;
	const rate = settings.maxRequestsPerSecond;
	return await withRetries(
		ctx,
		async () => {
			const response = charge
				? await sendCreate(ctx, options, timeoutMs, rate, charge)
				: await sendRead(ctx, options, timeoutMs, rate);
			return await answer.call(ctx, response);
		},
		(error, attempt) => waitBeforeSendingAgain(ctx, operation, error, attempt),
		(error) =>
			stoppedError(
				ctx,
				'Execution stopped before the request was sent again',
				operation === 'create'
					? `Nothing was created for this item: the last attempt was refused (${error.transient?.reason}).`
					: undefined,
				{ taskId: error.taskId, notActedOn: operation === 'create' },
			),
	);
}

/** After a failed attempt: how long to wait before sending again, or (thrown) how the item ends. */
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
		attempt < MAX_ATTEMPTS &&
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
	return Math.max(backoffMs(RETRY_BASE_MS, attempt), retryAfterMs);
}

async function sendRead(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	timeoutMs: number,
	rate: number,
): Promise<ServiceResponse> {
	const answered = await takeRequestSlot(ctx, rate);
	return await sendToService(ctx, options, timeoutMs).finally(answered);
}

/**
 * One attempt of a create. Once the item's turn has come, and not before, so that items waiting
 * on the request rate are held back: it is not sent when the account already ran out of credits
 * in this execution, nor when it would pass the Credit Limit. A refusal (9051 above all) is taken
 * into account before the slot is given back, so that the next item in line already sees it.
 */
async function sendCreate(
	ctx: IExecuteSingleFunctions,
	options: IHttpRequestOptions,
	timeoutMs: number,
	rate: number,
	charge: CreditCharge,
): Promise<ServiceResponse> {
	const creditsKey = await creditsKeyOf(ctx);
	const slot = await takeRequestSlot(ctx, rate);
	try {
		refuseWhenOutOfCredits(ctx, creditsKey);
		charge.reserve();
	} catch (error) {
		slot.unused();
		throw toIdealHouseError(ctx, error);
	}
	try {
		const response = await sendToService(ctx, options, timeoutMs);
		const code = envelopeCode(response);
		noteAnswerCode(ctx, creditsKey, code);
		if (isRefusal(response.statusCode, envelopeIn(response.body))) charge.giveBack();
		return response;
	} finally {
		slot();
	}
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

/**
 * A final failure: the node fails, or with Continue on Fail the item becomes an error item. It
 * keeps what the user needs to act and to account for the task: what to do, the task id and
 * what it cost. n8n routes an item to the error output only when its json holds nothing but
 * `error`, `message` and `details`, so the rest goes under `details`.
 */
function continueOnFail(
	ctx: IExecutePaginationFunctions,
	error: IdealHouseError,
): INodeExecutionData[] {
	// A model reads only the message: called as a tool, it carries what to do as well.
	if (!ctx.continueOnFail()) throw isToolCall(ctx) ? withAdviceInMessage(error) : error;
	const details: IDataObject = {};
	if (error.description) details.description = error.description;
	if (error.taskId) {
		details.id = error.taskId;
		if (error.creditsCharged !== undefined) details.creditsCharged = error.creditsCharged;
	}
	return [{ json: { error: error.message, details }, pairedItem: { item: ctx.getItemIndex() } }];
}

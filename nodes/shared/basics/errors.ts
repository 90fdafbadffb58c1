import type { IExecuteSingleFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { API_CODES } from './api-codes';

/**
 * The package's errors. Each one carries, in typed fields set where it is thrown, everything the
 * request cycle decides on: whether repeating the request may help, whether the service certainly
 * did not act, whether the user pressed Stop, and, once a task exists, its id and what it cost.
 *
 * A family of two, as in n8n: `IdealHouseApiError` when the service or the network failed,
 * `IdealHouseItemError` when this node refused or ended the item (bad input, Stop, a wait that ran
 * out). Both keep their n8n class name: n8n's engine rethrows only errors named `NodeApiError` or
 * `NodeOperationError` as they are, and turns any other into a plain Error without description.
 */

/** A passing fault: the same request again is safe and may well succeed. */
export interface TransientFault {
	/** What went wrong, in a few words (`HTTP 503`, `code 1003`, `ECONNRESET`). */
	reason: string;
	/** The service certainly did not act on the request (HTTP 429, code 1003, never sent): even a create may be sent again. */
	notProcessed: boolean;
	/** From a Retry-After header, when the service sent one. */
	retryAfterMs?: number;
}

export interface ErrorMeaning {
	/** Set when the failure is passing rather than a verdict. */
	transient?: TransientFault;
	/** The user pressed Stop: never retried. */
	stopped?: boolean;
	/** Stop came after the request had left: the service may have acted on it. */
	requestSent?: boolean;
	/**
	 * The service took a create but its answer named no usable task: a task may exist and be paid
	 * for, so the item is never sent again.
	 */
	taskMayExist?: boolean;
	/** The task the item is about. On a create, set only once the task exists, so never created again. */
	taskId?: string;
	/** What the task costs the account, once known (`null`: its price is not published). */
	creditsCharged?: number | null;
	/** The task ended Failed and the service gave its credits back. */
	refunded?: boolean;
	/**
	 * The service certainly did not act on the request: it never left the node, or the service
	 * refused it with an error code. A create that ends so cost nothing.
	 */
	notActedOn?: boolean;
	/** The code of the service's error envelope, when it answered with one. */
	apiCode?: number;
	/** Its sender gave the request up while it waited for a request slot: nothing was sent. */
	withdrawn?: boolean;
}

type ApiErrorOptions = NonNullable<ConstructorParameters<typeof NodeApiError>[2]>;
type ItemErrorOptions = NonNullable<ConstructorParameters<typeof NodeOperationError>[2]>;

export class IdealHouseApiError extends NodeApiError implements ErrorMeaning {
	declare transient?: TransientFault;
	declare stopped?: boolean;
	declare requestSent?: boolean;
	declare taskMayExist?: boolean;
	declare taskId?: string;
	declare creditsCharged?: number | null;
	declare refunded?: boolean;
	declare notActedOn?: boolean;
	declare apiCode?: number;
	declare withdrawn?: boolean;

	constructor(
		node: INode,
		response: JsonObject,
		options: ApiErrorOptions,
		meaning: ErrorMeaning = {},
	) {
		super(node, response, options);
		this.name = 'NodeApiError';
		Object.assign(this, meaning);
	}
}

export class IdealHouseItemError extends NodeOperationError implements ErrorMeaning {
	declare transient?: TransientFault;
	declare stopped?: boolean;
	declare requestSent?: boolean;
	declare taskMayExist?: boolean;
	declare taskId?: string;
	declare creditsCharged?: number | null;
	declare refunded?: boolean;
	declare notActedOn?: boolean;
	declare apiCode?: number;
	declare withdrawn?: boolean;

	constructor(
		node: INode,
		error: string | Error,
		options: ItemErrorOptions,
		meaning: ErrorMeaning = {},
	) {
		super(node, error, options);
		this.name = 'NodeOperationError';
		Object.assign(this, meaning);
	}
}

export type IdealHouseError = IdealHouseApiError | IdealHouseItemError;

/** Any failure as one of the package's errors; one from elsewhere means no more than its message. */
export function toIdealHouseError(ctx: IExecuteSingleFunctions, error: unknown): IdealHouseError {
	if (error instanceof IdealHouseApiError || error instanceof IdealHouseItemError) return error;
	const cause = error instanceof Error ? error : new Error(String(error));
	return new IdealHouseItemError(ctx.getNode(), cause, { itemIndex: ctx.getItemIndex() });
}

export interface ApiErrorContext {
	/** Absent outside an item, e.g. while the editor loads an option list. */
	itemIndex?: number;
	/** HTTP status that came with the error, as text (n8n's convention). */
	httpCode: string;
}

/** An error envelope (code ≠ 0) turned into an error that says what happened and what to do. */
export function apiCodeError(
	node: INode,
	code: number,
	serverMessage: string,
	context: ApiErrorContext,
	meaning?: ErrorMeaning,
): IdealHouseApiError {
	const info = Object.hasOwn(API_CODES, code) ? API_CODES[code] : undefined;
	const detail = serverMessage ? `: ${serverMessage}` : '';
	const message = info
		? `Ideal House error ${code} (${info.name}) – ${info.meaning}${detail}`
		: `Ideal House error ${code}${detail || ': no message'}`;
	const description = info
		? info.action
		: 'This code is not documented. Check the message, then retry or contact Ideal House support.';
	return new IdealHouseApiError(
		node,
		{ code, message: serverMessage } as JsonObject,
		{ message, description, httpCode: context.httpCode, itemIndex: context.itemIndex },
		{ ...meaning, apiCode: code },
	);
}

/** An HTTP error whose body is not an API envelope (a proxy page, an empty 503, …). */
export function httpStatusError(
	node: INode,
	statusCode: number,
	bodyText: string,
	itemIndex: number | undefined,
	meaning?: ErrorMeaning,
): IdealHouseApiError {
	const snippet = bodyText
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 200);
	const hint =
		statusCode === 429
			? 'The service is limiting the request rate: lower the request rate option or the batch size, then run again.'
			: statusCode >= 500
				? 'The service is unavailable or failing right now. Retry after a short delay.'
				: 'Check the credential’s base URL and the node’s parameters.';
	return new IdealHouseApiError(
		node,
		{ statusCode, body: snippet } as JsonObject,
		{
			message: `Ideal House answered HTTP ${statusCode}${snippet ? `: ${snippet}` : ''}`,
			description: hint,
			httpCode: String(statusCode),
			itemIndex,
		},
		meaning,
	);
}

import type { IExecuteSingleFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { API_CODES } from './api-codes';
import type { Outcome } from './outcome';

/**
 * The package's errors. Each one carries what its request came to (`Outcome`), set where it is
 * thrown: the request cycle decides from it alone whether repeating the request may help, whether
 * credits come back, and which task the item is about.
 *
 * A family of two, as in n8n: `IdealHouseApiError` when the service or the network failed,
 * `IdealHouseItemError` when this node refused or ended the item (bad input, Stop, a wait that ran
 * out). Both keep their n8n class name: n8n's engine rethrows only errors named `NodeApiError` or
 * `NodeOperationError` as they are, and turns any other into a plain Error without description.
 */

type ApiErrorOptions = NonNullable<ConstructorParameters<typeof NodeApiError>[2]>;
type ItemErrorOptions = NonNullable<ConstructorParameters<typeof NodeOperationError>[2]>;

export class IdealHouseApiError extends NodeApiError {
	outcome: Outcome;

	constructor(node: INode, response: JsonObject, options: ApiErrorOptions, outcome: Outcome) {
		super(node, response, options);
		this.name = 'NodeApiError';
		this.outcome = outcome;
	}
}

export class IdealHouseItemError extends NodeOperationError {
	outcome: Outcome;

	constructor(node: INode, error: string | Error, options: ItemErrorOptions, outcome: Outcome) {
		super(node, error, options);
		this.name = 'NodeOperationError';
		this.outcome = outcome;
	}
}

export type IdealHouseError = IdealHouseApiError | IdealHouseItemError;

/**
 * Any failure as one of the package's errors. One from elsewhere means no more than its message:
 * nothing is known of its request, so the service may have acted on it.
 */
export function toIdealHouseError(ctx: IExecuteSingleFunctions, error: unknown): IdealHouseError {
	if (error instanceof IdealHouseApiError || error instanceof IdealHouseItemError) return error;
	const cause = error instanceof Error ? error : new Error(String(error));
	return new IdealHouseItemError(
		ctx.getNode(),
		cause,
		{ itemIndex: ctx.getItemIndex() },
		{ kind: 'maybeActed' },
	);
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
	outcome: Outcome,
	more?: string,
): IdealHouseApiError {
	const info = Object.hasOwn(API_CODES, code) ? API_CODES[code] : undefined;
	const detail = serverMessage ? `: ${serverMessage}` : '';
	const message = info
		? `Ideal House error ${code} (${info.name}) – ${info.meaning}${detail}`
		: `Ideal House error ${code}${detail || ': no message'}`;
	const advice = info
		? info.action
		: 'This code is not documented. Check the message, then retry or contact Ideal House support.';
	const description = more ? `${advice} ${more}` : advice;
	return new IdealHouseApiError(
		node,
		{ code, message: serverMessage } as JsonObject,
		{ message, description, httpCode: context.httpCode, itemIndex: context.itemIndex },
		outcome,
	);
}

/** An HTTP error whose body is not an API envelope (a proxy page, an empty 503, …). */
export function httpStatusError(
	node: INode,
	statusCode: number,
	bodyText: string,
	itemIndex: number | undefined,
	outcome: Outcome,
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
		outcome,
	);
}

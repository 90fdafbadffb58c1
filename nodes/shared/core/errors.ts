import type { IExecuteSingleFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { RunAgain } from './api-codes';
import { certainlyNotActedOn, taskOf, type Outcome } from './outcome';

/**
 * The package's errors. Each one carries what its request came to (`Outcome`), set where it is
 * thrown: the request cycle decides from it alone whether repeating the request may help, whether
 * credits come back, and which task the item is about.
 *
 * A family of two, as in n8n: `IdealHouseApiError` when the service or the network failed,
 * `IdealHouseItemError` when this node refused or ended the item (bad input, Stop, a wait that ran
 * out). Both keep their n8n class name: n8n's engine rethrows only errors named `NodeApiError` or
 * `NodeOperationError` as they are, and turns any other into a plain Error without description.
 *
 * An error of a request says what happened in its message and what that means in its
 * description; `fix` is what to do about it, and `runAgain` whether running the node again then
 * helps. Only the item's end (`finalAdvice`) adds them, once it knows whether a task of the item
 * may exist: running a create again would then pay twice.
 */

type ApiErrorOptions = NonNullable<ConstructorParameters<typeof NodeApiError>[2]>;
type ItemErrorOptions = NonNullable<ConstructorParameters<typeof NodeOperationError>[2]>;

export class IdealHouseApiError extends NodeApiError {
	outcome: Outcome;
	fix?: string;
	runAgain?: RunAgain;

	constructor(node: INode, response: JsonObject, options: ApiErrorOptions, outcome: Outcome) {
		super(node, response, options);
		this.name = 'NodeApiError';
		this.outcome = outcome;
		this.message = withItem(this.message, options.itemIndex);
	}
}

export class IdealHouseItemError extends NodeOperationError {
	outcome: Outcome;
	fix?: string;
	runAgain?: RunAgain;
	/** The field a refused value came from, as the panel labels it (`fieldError`). */
	field?: string;

	constructor(node: INode, error: string | Error, options: ItemErrorOptions, outcome: Outcome) {
		super(node, error, options);
		this.name = 'NodeOperationError';
		this.outcome = outcome;
		this.message = withItem(this.message, options.itemIndex);
	}
}

/** n8n's rule: an error about an item ends its message with the item, `[item 2]`. */
export function withItem(message: string, itemIndex: number | undefined): string {
	if (typeof itemIndex !== 'number') return message;
	const item = `[item ${itemIndex}]`;
	return message.endsWith(item) ? message : `${message} ${item}`;
}

export type IdealHouseError = IdealHouseApiError | IdealHouseItemError;

/**
 * The system codes whose name in a message makes n8n replace the message with its own text (its
 * `COMMON_ERRORS`, matched in any case), which may tell the user to retry a create that may
 * already have been charged ("retry the request immediately", "Retry on Fail"). Such words go in
 * the description, which n8n leaves as it is.
 */
const REWRITTEN_BY_N8N =
	/ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|ERRADDRINUSE|EADDRNOTAVAIL|ECONNABORTED|EHOSTUNREACH|EAI_AGAIN|ENOENT|EISDIR|ENOTDIR|EACCES|EEXIST|EPERM|GETADDRINFO/i;

export function rewrittenByN8n(text: string): boolean {
	return REWRITTEN_BY_N8N.test(text);
}

/**
 * Any failure as one of the package's errors. One from elsewhere means no more than its message:
 * nothing is known of its request, so the service may have acted on it. A message that names a
 * system code goes to the description, where n8n leaves it as it is.
 */
export function toIdealHouseError(ctx: IExecuteSingleFunctions, error: unknown): IdealHouseError {
	if (error instanceof IdealHouseApiError || error instanceof IdealHouseItemError) return error;
	const cause = error instanceof Error ? error : new Error(String(error));
	const itemIndex = ctx.getItemIndex();
	const named = rewrittenByN8n(cause.message);
	return new IdealHouseItemError(
		ctx.getNode(),
		named ? `This item ended unexpectedly [item ${itemIndex}]` : cause,
		{
			itemIndex,
			description: `${named ? `It ended with: ${cause.message}. ` : ''}This came from outside the node's own checks; if it keeps happening, report it with these words.`,
		},
		{ kind: 'maybeActed' },
	);
}

/**
 * What to do when a create may have reached the service: look for the task, never simply send it
 * again (that would create and charge a second one).
 */
export function mayExistAdvice(taskId?: string): string {
	return taskId
		? `Task ${taskId} may have been created and charged: fetch it with the Get Result operation and this ID. Running this item again would create and charge another task.`
		: 'The task may have been created and charged: look for it in your Ideal House account first. Running this item again would create and charge another task.';
}

/**
 * The words an item ends with, read from what its request came to, after its cause: what to do
 * (`fix`), then whether to run the node again. A read changes nothing, so it may always be run
 * again. A create may be run again only when no task of it can exist (never sent, refused, or
 * ended Failed and refunded); one that may have reached the service says so and how to look for
 * its task; one whose task is known already names it (`failureNamingCreatedTask`).
 */
export function finalAdvice(error: IdealHouseError, operation: 'create' | 'read'): IdealHouseError {
	const { outcome } = error;
	const refunded = outcome.kind === 'finished' && outcome.refunded;
	const nothingCharged = certainlyNotActedOn(outcome);
	const parts = [error.description ?? ''];
	const worded = error.fix !== undefined || error.runAgain !== undefined;
	if (operation === 'create' && nothingCharged && worded) {
		parts.push('Nothing was created or charged for this item.');
	}
	if (error.fix) parts.push(error.fix);
	if (error.runAgain && (operation === 'read' || nothingCharged || refunded)) {
		parts.push(
			error.runAgain === 'later'
				? 'Then run the node again after a short delay.'
				: 'Then run the node again.',
		);
	}
	if (operation === 'create' && outcome.kind === 'maybeActed') {
		parts.push(mayExistAdvice(taskOf(outcome)?.taskId));
	}
	const description = parts.filter(Boolean).join(' ').trim();
	if (description) error.description = description;
	error.fix = undefined;
	error.runAgain = undefined;
	return error;
}

import type { IExecuteSingleFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { RunAgain } from './api-codes';
import { certainlyNotActedOn, taskOf, type Outcome } from './outcome';

// The package's two errors, each carrying its request's Outcome. They keep n8n's class names:
// n8n passes on only errors so named, with their description. Why: docs/design/outcome.md

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
function withItem(message: string, itemIndex: number | undefined): string {
	if (typeof itemIndex !== 'number') return message;
	const item = `[item ${itemIndex}]`;
	return message.endsWith(item) ? message : `${message} ${item}`;
}

export type IdealHouseError = IdealHouseApiError | IdealHouseItemError;

// Codes whose name makes n8n replace a message with its own words, which may advise retrying a
// create already charged: such words go in the description, which n8n leaves alone.
const REWRITTEN_BY_N8N =
	/ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|ERRADDRINUSE|EADDRNOTAVAIL|ECONNABORTED|EHOSTUNREACH|EAI_AGAIN|ENOENT|EISDIR|ENOTDIR|EACCES|EEXIST|EPERM|GETADDRINFO/i;

export function rewrittenByN8n(text: string): boolean {
	return REWRITTEN_BY_N8N.test(text);
}

/** Any failure as one of the package's errors; one from elsewhere may have been acted on. */
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

/** A create that may have reached the service: look for its task, never send it again. */
function mayExistAdvice(taskId?: string): string {
	return taskId
		? `Task ${taskId} may have been created and charged: fetch it with the Get Result operation and this ID. Running this item again would create and charge another task.`
		: 'The task may have been created and charged: look for it in your Ideal House account first. Running this item again would create and charge another task.';
}

/** The item's last words from its outcome: `fix`, then run again (a create only if no task exists). */
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

import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { refuseWhenStopped } from '../core/cancellation';
import { finalAdvice, toIdealHouseError, type IdealHouseError } from '../core/errors';
import { taskOf } from '../core/outcome';
import { isToolCall, withAdviceInMessage } from '../output/tool';
import { createItem, readItem, type ApiOfItem, type CreateRoute } from './path';

// Routing's one hook around its send, `operations.pagination`, runs the item's path.
// Why: docs/design/item-life.md#where-an-item-starts

/** Routing of a create (Enhance, Remove, Create); with `photoFiles` the photo may be a file. */
export function createTaskRouting(route: CreateRoute): INodePropertyRouting {
	return itemLifeRouting(
		{ method: 'POST', headers: { 'Content-Type': 'application/json' } },
		'create',
		async (ctx, request) => await createItem(ctx, route, request),
	);
}

/** Routing of Get Result: one read of the task, retried on passing faults. */
export function taskResultRouting(api: ApiOfItem): INodePropertyRouting {
	return itemLifeRouting(
		{ method: 'GET' },
		'read',
		async (ctx, request) => await readItem(ctx, api, request),
	);
}

type ItemPath = (
	ctx: IExecutePaginationFunctions,
	request: IHttpRequestOptions,
) => Promise<INodeExecutionData[]>;

function itemLifeRouting(
	request: INodePropertyRouting['request'],
	operation: 'create' | 'read',
	path: ItemPath,
): INodePropertyRouting {
	return {
		request,
		send: { paginate: true },
		operations: { pagination: itemHook(operation, path) },
	};
}

/** The hook n8n calls with each item's routed request: the item's path, and its final failure. */
function itemHook(operation: 'create' | 'read', path: ItemPath) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		try {
			// First: a Stop from now on reaches this item; one n8n starts after Stop sends nothing.
			refuseWhenStopped(this);
			return await path(this, requestData.options as IHttpRequestOptions);
		} catch (error) {
			return continueOnFail(this, finalAdvice(toIdealHouseError(this, error), operation));
		}
	};
}

/**
 * A final failure: thrown, or with Continue on Fail an error item. n8n routes to the error output
 * only json of `error`, `message` and `details`, so the advice, task id and cost go in `details`.
 */
function continueOnFail(
	ctx: IExecutePaginationFunctions,
	error: IdealHouseError,
): INodeExecutionData[] {
	// A model reads only the message: called as a tool, it carries what to do as well.
	if (!ctx.continueOnFail()) throw isToolCall(ctx) ? withAdviceInMessage(error) : error;
	const details: IDataObject = {};
	if (error.description) details.description = error.description;
	const task = taskOf(error.outcome);
	if (task?.taskId) {
		details.id = task.taskId;
		if (task.creditsCharged !== undefined) details.creditsCharged = task.creditsCharged;
	}
	return [{ json: { error: error.message, details }, pairedItem: { item: ctx.getItemIndex() } }];
}

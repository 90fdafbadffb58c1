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

/**
 * Where n8n's declarative routing hands an item to the package. Routing builds each item's
 * request from the fields (the body of a create, the task id of a Get Result) and would send it
 * itself; its only hook around the send is `operations.pagination`, which with
 * `send.paginate: true` hands the built request to the node and takes back the items it returns.
 * Nothing is paginated: the hook runs the item's path (`path.ts`), which sends through the
 * package's transport (no redirects, a time limit, Stop). `itemLifeRouting` is the only place that
 * names it.
 */

/**
 * Routing of a create operation (Enhance, Remove, Create): the item is checked first; nothing is
 * sent unless it passes. With `photoFiles`, the photo may also be a file on the item (Image Source).
 */
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
			// First, before anything can wait: a Stop pressed from now on reaches this item, and an
			// item that n8n starts after Stop (its Batching does) sends nothing.
			refuseWhenStopped(this);
			return await path(this, requestData.options as IHttpRequestOptions);
		} catch (error) {
			return continueOnFail(this, finalAdvice(toIdealHouseError(this, error), operation));
		}
	};
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
	const task = taskOf(error.outcome);
	if (task?.taskId) {
		details.id = task.taskId;
		if (task.creditsCharged !== undefined) details.creditsCharged = task.creditsCharged;
	}
	return [{ json: { error: error.message, details }, pairedItem: { item: ctx.getItemIndex() } }];
}

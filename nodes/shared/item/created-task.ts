import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/catalog';
import { price } from '../catalog/credits';
import { toIdealHouseError, type IdealHouseError } from '../basics/errors';

/**
 * The task is paid for from here on. While the node waits, its id exists only in this process,
 * so it goes to n8n's log at once: if the process dies (a queue-mode worker killed mid-run), the
 * log is where the id can still be found and the task finished with Get Result.
 */
function logCreated(ctx: IExecuteSingleFunctions, api: IdealHouseApi, taskId: string): void {
	const where = {
		executionId: ctx.getExecutionId(),
		workflowId: ctx.getWorkflow().id,
		node: ctx.getNode().name,
		itemIndex: ctx.getItemIndex(),
	};
	// n8n's default log format prints the message alone: it names everything needed to find the task.
	ctx.logger.info(
		`Ideal House ${api.label} task ${taskId} created (execution ${where.executionId}, workflow ${where.workflowId}, node "${where.node}", item ${where.itemIndex})`,
		{ taskId, kind: api.name, ...where },
	);
}

function creditsInWords(credits: number | null): string {
	if (credits === null) return 'its price is not known';
	return `${credits} credit${credits === 1 ? '' : 's'} charged`;
}

/** A failure about a task that exists: it names the task and what it cost. */
export function aboutTask(
	ctx: IExecuteSingleFunctions,
	error: unknown,
	taskId: string,
	credits?: number | null,
): IdealHouseError {
	const failure = toIdealHouseError(ctx, error);
	failure.taskId ??= taskId;
	if (credits !== undefined && failure.creditsCharged === undefined) {
		failure.creditsCharged = credits;
	}
	return failure;
}

/**
 * Whoever reads only the message and description (the node failed, no Continue on Fail) can
 * still find a created task instead of paying for it again.
 */
function namingCreatedTask(failure: IdealHouseError): IdealHouseError {
	const taskId = failure.taskId ?? '';
	if (`${failure.message} ${failure.description ?? ''}`.includes(taskId)) return failure;
	const cost = failure.refunded ? 'refunded' : creditsInWords(failure.creditsCharged ?? null);
	failure.description =
		`${failure.description ?? ''} Task ${taskId} was created (${cost}): fetch it with the Get Result operation and this ID rather than running this item again.`.trim();
	return failure;
}

/**
 * Everything that happens to a created task, from the moment its id is known: whatever ends the
 * item from here (an item error, a thrown exception, Stop, the timeout, a failed download) ends
 * it with the task's id and what it was charged, and its message tells how to fetch the task
 * rather than pay for it again. This is the one place that guarantees it.
 */
export async function keepingCreatedTask(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	taskId: string,
	sent: IDataObject,
	steps: (charged: number | null) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	let charged: number | null = null;
	try {
		charged = price(api, sent);
		logCreated(ctx, api, taskId);
		return await steps(charged);
	} catch (error) {
		throw namingCreatedTask(aboutTask(ctx, error, taskId, charged));
	}
}

/** Get Result: whatever ends the item names the task it read. */
export async function keepingReadTask(
	ctx: IExecuteSingleFunctions,
	taskId: string,
	steps: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	try {
		return await steps();
	} catch (error) {
		throw aboutTask(ctx, error, taskId);
	}
}

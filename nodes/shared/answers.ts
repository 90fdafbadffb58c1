import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import type { IdealHouseApi } from './catalog';
import { creditsCharged } from './credits';
import { toIdealHouseError, type IdealHouseError } from './errors';
import { emitTask } from './output';
import { checkWaitOptions, readWaitOptions, waitForTask } from './poller';
import { taskFromResult, taskIdFromCreate } from './task';
import { readEnvelope, type ServiceResponse } from './transport';

/** What the node makes of the service's answer: to a create call, and to a Get Result call. */
export type Answer = (
	this: IExecuteSingleFunctions,
	response: ServiceResponse,
) => Promise<INodeExecutionData[]>;

/** From here on the task exists: a failure names it and what it cost, and the create is never sent again. */
function aboutTask(
	ctx: IExecuteSingleFunctions,
	error: unknown,
	taskId: string,
	credits?: number | null,
): IdealHouseError {
	const failure = toIdealHouseError(ctx, error);
	failure.taskId ??= taskId;
	if (credits !== undefined) failure.creditsCharged ??= credits;
	return failure;
}

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

/** After a create call: the new task, or — with Wait for Completion — its final state. `sent` is the body that was sent. */
export function answerToCreate(api: IdealHouseApi, sent: IDataObject): Answer {
	return async function (
		this: IExecuteSingleFunctions,
		response: ServiceResponse,
	): Promise<INodeExecutionData[]> {
		const data = readEnvelope.call(this, response, response.secrets);
		const taskId = taskIdFromCreate(this, data, response.secrets);
		logCreated(this, api, taskId);
		const charged = creditsCharged(api, 'Unprocessed', sent);
		try {
			if (this.getNodeParameter('waitForCompletion', true) === false) {
				const json = { id: taskId, status: 'Unprocessed', creditsCharged: charged };
				return [{ json, pairedItem: { item: this.getItemIndex() } }];
			}
			const options = checkWaitOptions(this, readWaitOptions(this));
			const task = await waitForTask.call(this, api, taskId, options);
			return await emitTask.call(this, api, task, options, sent);
		} catch (error) {
			throw aboutTask(this, error, taskId, charged);
		}
	};
}

/** After a Get Result call: the task as the service reports it now. */
export function answerToRead(api: IdealHouseApi): Answer {
	return async function (
		this: IExecuteSingleFunctions,
		response: ServiceResponse,
	): Promise<INodeExecutionData[]> {
		const taskId = String(this.getNodeParameter('taskId', '')).trim();
		try {
			const data = readEnvelope.call(this, response, response.secrets);
			const task = taskFromResult(this, data, taskId, response.secrets);
			return await emitTask.call(this, api, task, readWaitOptions(this), task.input);
		} catch (error) {
			throw aboutTask(this, error, taskId);
		}
	};
}

import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import type { TaskKind } from './api';
import { emitTask } from './output';
import { asNodeError, readWaitOptions, waitForTask } from './poller';
import { taskFromResult, taskIdFromCreate } from './task';
import { readEnvelope } from './transport';

type PostReceive = (
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
) => Promise<INodeExecutionData[]>;

/**
 * With Continue on Fail, an item's error is returned here as an item of its own, so that it keeps
 * its link to the input item (n8n's routing would emit it without one) and the task id, if any.
 */
async function keepingItemLink(
	ctx: IExecuteSingleFunctions,
	taskId: () => string | undefined,
	work: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	try {
		return await work();
	} catch (caught) {
		const error = asNodeError(ctx, caught);
		if (!ctx.continueOnFail()) throw error;
		const id = taskId();
		return [
			{
				json: { error: error.message, ...(id ? { id } : {}) },
				error,
				pairedItem: { item: ctx.getItemIndex() },
			},
		];
	}
}

/** After a create call: the new task, or — with Wait for Completion — its final state. */
export function receiveCreatedTask(kind: TaskKind): PostReceive {
	return async function (this: IExecuteSingleFunctions, _items, response) {
		let id: string | undefined;
		return await keepingItemLink(this, () => id, async () => {
			id = taskIdFromCreate(this, readEnvelope.call(this, response));
			if (this.getNodeParameter('waitForCompletion', true) === false) {
				return [{ json: { id, status: 'Unprocessed' }, pairedItem: { item: this.getItemIndex() } }];
			}
			const options = readWaitOptions(this);
			const task = await waitForTask.call(this, kind, id, options);
			return await emitTask.call(this, kind, task, options);
		});
	};
}

/** After a Get Result call: the task as the service reports it now. */
export function receiveTaskResult(kind: TaskKind): PostReceive {
	return async function (this: IExecuteSingleFunctions, _items, response) {
		const taskId = String(this.getNodeParameter('taskId', '')).trim();
		return await keepingItemLink(this, () => taskId, async () => {
			const task = taskFromResult(this, readEnvelope.call(this, response));
			return await emitTask.call(this, kind, task, readWaitOptions(this));
		});
	};
}

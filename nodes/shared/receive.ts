import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData } from 'n8n-workflow';

import type { TaskKind } from './api';
import { emitTask } from './output';
import { readWaitOptions, waitForTask } from './poller';
import { taskFromResult, taskIdFromCreate } from './task';
import { readEnvelope } from './transport';

type PostReceive = (
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
) => Promise<INodeExecutionData[]>;

/** After a create call: the new task, or — with Wait for Completion — its final state. */
export function receiveCreatedTask(kind: TaskKind): PostReceive {
	return async function (this: IExecuteSingleFunctions, _items, response) {
		const taskId = taskIdFromCreate(this, readEnvelope.call(this, response));
		if (this.getNodeParameter('waitForCompletion', true) === false) {
			return [{ json: { id: taskId, status: 'Unprocessed' }, pairedItem: { item: this.getItemIndex() } }];
		}
		const options = readWaitOptions(this);
		const task = await waitForTask.call(this, kind, taskId, options);
		return await emitTask.call(this, kind, task, options);
	};
}

/** After a Get Result call: the task as the service reports it now. */
export function receiveTaskResult(kind: TaskKind): PostReceive {
	return async function (this: IExecuteSingleFunctions, _items, response) {
		const task = taskFromResult(this, readEnvelope.call(this, response));
		return await emitTask.call(this, kind, task, readWaitOptions(this));
	};
}

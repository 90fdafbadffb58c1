import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { KINDS, type TaskKind } from './api';
import type { Task } from './task';
import { downloadResultImage } from './download';

const failedTaskErrors = new WeakSet<object>();

/** Whether an error is the verdict of a task that ended Failed (and so was refunded). */
export function isFailedTaskError(error: unknown): boolean {
	return typeof error === 'object' && error !== null && failedTaskErrors.has(error);
}

/** What the task costs the account: nothing once it has Failed, as the service refunds it. */
export function creditsCharged(kind: TaskKind, status: string): number {
	return status === 'Failed' ? 0 : KINDS[kind].credits;
}

/**
 * One task becomes one item linked to its input item. A Failed task is an item error (its
 * credits are refunded by the service); a finished one can bring its image along as binary.
 */
export async function emitTask(
	this: IExecuteSingleFunctions,
	kind: TaskKind,
	task: Task,
	options: IDataObject,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	if (task.status === 'Failed') {
		const error = new NodeApiError(
			this.getNode(),
			{ message: `Task ${task.id} failed` },
			{
				message: `Ideal House ${KINDS[kind].label} task ${task.id} failed. Its ${KINDS[kind].credits} credit${KINDS[kind].credits === 1 ? ' was' : 's were'} refunded automatically`,
				description:
					'The service could not process this image. Check that it is a JPG, PNG or WebP of at most 20 MB and 128–6,000 px that the service can download, then try again or with another preset, prompt or mask.',
				itemIndex,
			},
		);
		failedTaskErrors.add(error);
		throw error;
	}
	const json = { ...task, creditsCharged: creditsCharged(kind, task.status) };
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	if (options.downloadResult === true && task.status === 'Success' && task.output?.resultUrl) {
		const property = String(options.binaryPropertyName || 'data');
		item.binary = { [property]: await downloadResultImage(this, task.id, task.output.resultUrl) };
	}
	return [item];
}

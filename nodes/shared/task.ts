import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { toTaskId } from './transport';

/** The spec's Task object as emitted to the workflow: `id` is always the exact decimal string. */
export interface Task extends IDataObject {
	id: string;
	status: string;
	waitNumber?: number;
	percentage?: number;
	input?: IDataObject;
	output?: { resultUrl: string; width: number; height: number } | null;
}

function unexpected(ctx: IExecuteSingleFunctions, what: string): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{ message: what },
		{
			message: `Ideal House sent an unexpected response: ${what}`,
			description: 'The service answered in a shape this node does not know. Check the credential’s base URL.',
			itemIndex: ctx.getItemIndex(),
		},
	);
}

export function taskIdFromCreate(ctx: IExecuteSingleFunctions, data: unknown): string {
	const id = toTaskId(data);
	if (id === undefined) throw unexpected(ctx, 'the create call returned no task id');
	return id;
}

export function taskFromResult(ctx: IExecuteSingleFunctions, data: unknown): Task {
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		throw unexpected(ctx, 'the result call returned no task');
	}
	const raw = data as IDataObject;
	const id = toTaskId(raw.id);
	if (id === undefined || typeof raw.status !== 'string') {
		throw unexpected(ctx, 'the task has no id or status');
	}
	return { ...raw, id, status: raw.status, output: (raw.output as Task['output']) ?? null };
}

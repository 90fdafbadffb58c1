import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/catalog';
import { price, priceOfStoredTask } from '../catalog/credits';
import { toIdealHouseError, type IdealHouseError } from '../basics/errors';
import { emitTask } from '../results/output';
import type { ItemSettings } from './item-settings';
import { waitForTask } from './poller';
import { taskFromResult, taskIdFromCreate, toTaskId } from '../catalog/task';
import { envelopeIn, readEnvelope, type ServiceResponse } from '../transport/transport';

/** What the node makes of the service's answer: to a create call, and to a Get Result call. */
export type Answer = (
	this: IExecuteSingleFunctions,
	response: ServiceResponse,
) => Promise<INodeExecutionData[]>;

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
function aboutTask(
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
 * it with the task's id and what it was charged. This is the one place that guarantees it.
 */
async function withCreatedTask(
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

/**
 * The `data` of a create's answer. An envelope of code 0 that names a task is a created task
 * whatever the HTTP status around it (a gateway may put a 429 or a 5xx on the service's own
 * answer), and is never sent again. An error envelope that still carries a task id may stand
 * for a task that exists: it is never sent again either.
 */
function createdData(ctx: IExecuteSingleFunctions, response: ServiceResponse): unknown {
	try {
		return readEnvelope.call(ctx, response, response.secrets);
	} catch (error) {
		const envelope = envelopeIn(response.body);
		const id = envelope ? toTaskId(envelope.data) : undefined;
		if (envelope === undefined || id === undefined) throw toIdealHouseError(ctx, error);
		if (envelope.code === 0) {
			ctx.logger.warn(
				`Ideal House answered a create with HTTP ${response.statusCode} but code 0 and task ${id}: the task was created (execution ${ctx.getExecutionId()}, node "${ctx.getNode().name}", item ${ctx.getItemIndex()})`,
				{ taskId: id, itemIndex: ctx.getItemIndex() },
			);
			return envelope.data;
		}
		const failure = toIdealHouseError(ctx, error);
		failure.transient = undefined;
		failure.taskMayExist = true;
		failure.description =
			`${failure.description ?? ''} The answer named task ${id}, so that task may have been created and charged: fetch it with the Get Result operation before running this item again.`.trim();
		throw failure;
	}
}

/** After a create call: the new task, or — with Wait for Completion — its final state. `sent` is the body that was sent. */
export function answerToCreate(
	api: IdealHouseApi,
	sent: IDataObject,
	settings: ItemSettings,
): Answer {
	return async function (
		this: IExecuteSingleFunctions,
		response: ServiceResponse,
	): Promise<INodeExecutionData[]> {
		const taskId = taskIdFromCreate(this, createdData(this, response), response.secrets);
		return await withCreatedTask(this, api, taskId, sent, async (charged) => {
			if (!settings.waitForCompletion) {
				const json = { id: taskId, status: 'Unprocessed', creditsCharged: charged };
				return [{ json, pairedItem: { item: this.getItemIndex() } }];
			}
			const task = await waitForTask.call(this, api, taskId, settings);
			return await emitTask.call(this, api, task, settings.download, charged);
		});
	};
}

/** After a Get Result call: the task as the service reports it now. */
export function answerToRead(api: IdealHouseApi, settings: ItemSettings): Answer {
	return async function (
		this: IExecuteSingleFunctions,
		response: ServiceResponse,
	): Promise<INodeExecutionData[]> {
		const taskId = settings.taskId ?? '';
		try {
			const data = readEnvelope.call(this, response, response.secrets);
			const task = taskFromResult(this, data, taskId, response.secrets);
			const credits = priceOfStoredTask(api, task.input);
			return await emitTask.call(this, api, task, settings.download, credits);
		} catch (error) {
			throw aboutTask(this, error, taskId);
		}
	};
}

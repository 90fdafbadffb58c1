import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/apis';
import { toIdealHouseError, type IdealHouseError } from '../core/errors';
import { aboutTask, taskOf, type NamedTask } from '../core/outcome';

/** Paid for from here on: the id goes to n8n's log at once, where it outlives a killed worker. */
export function logCreated(ctx: IExecuteSingleFunctions, api: IdealHouseApi, taskId: string): void {
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

/** The task an item created: its id, and what it costs the account (`null`: not published). */
export interface CreatedTask {
	taskId: string;
	creditsCharged: number | null;
}

/**
 * Whatever ends the item once its task exists names the task, its cost and how to fetch it, in
 * the description, read even when the node fails without Continue on Fail.
 */
export function failureNamingCreatedTask(
	ctx: IExecuteSingleFunctions,
	error: unknown,
	task: CreatedTask,
): IdealHouseError {
	const failure = failureAboutTask(ctx, error, task);
	const named = taskOf(failure.outcome) ?? task;
	if (`${failure.message} ${failure.description ?? ''}`.includes(named.taskId)) return failure;
	const { outcome } = failure;
	const refunded = outcome.kind === 'finished' && outcome.refunded;
	const cost = refunded ? 'refunded' : creditsInWords(named.creditsCharged ?? null);
	failure.description =
		`${failure.description ?? ''} Task ${named.taskId} was created (${cost}): fetch it with the Get Result operation and this ID rather than running this item again.`.trim();
	return failure;
}

/** A failure after the task is known: its outcome names the task and, when known, its cost. */
export function failureAboutTask(
	ctx: IExecuteSingleFunctions,
	error: unknown,
	task: NamedTask,
): IdealHouseError {
	const failure = toIdealHouseError(ctx, error);
	failure.outcome = aboutTask(failure.outcome, task);
	return failure;
}

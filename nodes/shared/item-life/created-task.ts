import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/apis';
import { toIdealHouseError, type IdealHouseError } from '../core/errors';
import { aboutTask, taskOf, type NamedTask } from '../core/outcome';

/**
 * The task is paid for from here on. While the node waits, its id exists only in this process,
 * so it goes to n8n's log at once: if the process dies (a queue-mode worker killed mid-run), the
 * log is where the id can still be found and the task finished with Get Result.
 */
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
 * Whatever ends the item once its task exists (an item error, a thrown exception, Stop, the
 * timeout, a failed download) ends it with the task's id and what it was charged, and a message
 * that tells how to fetch the task rather than pay for it again. Whoever reads only the message
 * and description (the node failed, no Continue on Fail) can still find it.
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

/**
 * A failure after the item's task is known: its outcome names the task (its own task, when it
 * already names one) and, when the item knows it, what the task cost.
 */
export function failureAboutTask(
	ctx: IExecuteSingleFunctions,
	error: unknown,
	task: NamedTask,
): IdealHouseError {
	const failure = toIdealHouseError(ctx, error);
	failure.outcome = aboutTask(failure.outcome, task);
	return failure;
}

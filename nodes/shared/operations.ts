import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { KINDS, type TaskKind } from './api';
import { executionStopSignal, isStopError, stoppedError, watchForStop } from './cancellation';
import { clock } from './clock';
import { limits } from './limits';
import { creditsCharged, emitTask, isFailedTaskError } from './output';
import { asNodeError, checkWaitOptions, readWaitOptions, waitForTask } from './poller';
import { parseTaskIdField, taskFromResult, taskIdFromCreate } from './task';
import { maxRequestsPerSecond, takeRequestSlot } from './throttle';
import { readEnvelope, sendToService, transientFault, type ServiceResponse } from './transport';
import { isToolCall, withAdviceInMessage } from './tool';

/**
 * The two operations every node has — create a task, read a task — as declarative routing.
 *
 * n8n builds each item's request from the fields' routing. The routing's `operations.pagination`
 * hook (n8n's way to let a node drive its own request) then sends it through the package's one
 * transport, for what a plain routed request cannot do: no redirects, a time limit, Stop while
 * the request is in flight, retry a create only when the service certainly did not take it,
 * retry a read on any passing fault, and keep a failed item linked to its input.
 */

/** Checks an item's request body before anything is sent, and returns the body to send. */
export type BodyCheck = (this: IExecuteSingleFunctions, body: IDataObject) => Promise<IDataObject>;

interface ErrorOrigin {
	/** 'response': reading the create/read answer; 'task': waiting for or emitting the task. */
	phase: 'response' | 'task';
	taskId?: string;
}

const origins = new WeakMap<object, ErrorOrigin>();

function tagged(ctx: IExecuteSingleFunctions, error: unknown, origin: ErrorOrigin) {
	const nodeError = asNodeError(ctx, error);
	if (!origins.has(nodeError)) origins.set(nodeError, origin);
	return nodeError;
}

/**
 * The task is paid for from here on. While the node waits, its id exists only in this process,
 * so it goes to n8n's log at once: if the process dies (a queue-mode worker killed mid-run), the
 * log is where the id can still be found and the task finished with Get Result.
 */
function logCreated(ctx: IExecuteSingleFunctions, kind: TaskKind, taskId: string): void {
	const where = {
		executionId: ctx.getExecutionId(),
		workflowId: ctx.getWorkflow().id,
		node: ctx.getNode().name,
		itemIndex: ctx.getItemIndex(),
	};
	// n8n's default log format prints the message alone: it names everything needed to find the task.
	ctx.logger.info(
		`Ideal House ${KINDS[kind].label} task ${taskId} created (execution ${where.executionId}, workflow ${where.workflowId}, node "${where.node}", item ${where.itemIndex})`,
		{ taskId, kind, ...where },
	);
}

/** After a create call: the new task, or — with Wait for Completion — its final state. */
function receiveCreatedTask(kind: TaskKind) {
	return async function (this: IExecuteSingleFunctions, response: ServiceResponse): Promise<INodeExecutionData[]> {
		let taskId: string;
		try {
			taskId = taskIdFromCreate(this, readEnvelope.call(this, response, response.secrets));
		} catch (error) {
			throw tagged(this, error, { phase: 'response' });
		}
		logCreated(this, kind, taskId);
		try {
			if (this.getNodeParameter('waitForCompletion', true) === false) {
				const json = {
					id: taskId,
					status: 'Unprocessed',
					creditsCharged: creditsCharged(kind, 'Unprocessed'),
				};
				return [{ json, pairedItem: { item: this.getItemIndex() } }];
			}
			const options = checkWaitOptions(this, readWaitOptions(this));
			const task = await waitForTask.call(this, kind, taskId, options);
			return await emitTask.call(this, kind, task, options);
		} catch (error) {
			throw tagged(this, error, { phase: 'task', taskId });
		}
	};
}

/** After a Get Result call: the task as the service reports it now. */
function receiveTaskResult(kind: TaskKind) {
	return async function (this: IExecuteSingleFunctions, response: ServiceResponse): Promise<INodeExecutionData[]> {
		const taskId = String(this.getNodeParameter('taskId', '')).trim();
		try {
			const task = taskFromResult(this, readEnvelope.call(this, response, response.secrets));
			return await emitTask.call(this, kind, task, readWaitOptions(this));
		} catch (error) {
			throw tagged(this, error, { phase: 'response', taskId });
		}
	};
}

/**
 * An error item keeps what the user needs to act and to account for the task: what to do, the
 * task id and what it cost. n8n routes an item to the error output only when its json holds
 * nothing but `error`, `message` and `details`, so the rest goes under `details`.
 */
function errorJson(
	kind: TaskKind,
	operation: 'create' | 'read',
	error: NodeApiError | NodeOperationError,
	origin: ErrorOrigin | undefined,
): IDataObject {
	const details: IDataObject = {};
	if (error.description) details.description = error.description;
	if (origin?.taskId) {
		details.id = origin.taskId;
		if (isFailedTaskError(error)) details.creditsCharged = creditsCharged(kind, 'Failed');
		else if (operation === 'create') details.creditsCharged = creditsCharged(kind, 'Unprocessed');
	}
	return { error: error.message, details };
}

const MAX_ATTEMPTS = 5;

/** Waits before a retry; false when the execution was stopped meanwhile. */
async function pause(ctx: IExecuteSingleFunctions, ms: number): Promise<boolean> {
	const signal = executionStopSignal(ctx);
	try {
		await clock.sleep(ms, signal);
	} catch {
		// Stopped: the caller gives up with the error it has.
	}
	return !signal.aborted;
}
const RETRY_BASE_MS = 2000;

/** The checks of an item that come before anything is sent: its body, then the node's options. */
async function checkItem(
	ctx: IExecutePaginationFunctions,
	operation: 'create' | 'read',
	requestData: DeclarativeRestApiSettings.ResultOptions,
	validate?: BodyCheck,
): Promise<void> {
	if (validate) {
		requestData.options.body = await validate.call(ctx, { ...(requestData.options.body as IDataObject) });
	}
	if (operation === 'read') {
		requestData.options.qs = { ...requestData.options.qs, taskId: parseTaskIdField(ctx, ctx.getNodeParameter('taskId', '')) };
	}
	maxRequestsPerSecond(ctx);
	if (operation === 'create' && ctx.getNodeParameter('waitForCompletion', true) !== false) {
		checkWaitOptions(ctx, readWaitOptions(ctx));
	}
}

/** A Retry-After too long to wait for inside a run: the item fails, nothing was created. */
function rateLimited(ctx: IExecuteSingleFunctions, retryAfterMs: number): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message: 'rate limited' }, {
		message: `Ideal House is limiting the request rate and asked to wait ${Math.round(retryAfterMs / 1000)} s before the next request`,
		description: `That is longer than this node waits (${limits.createRetryAfterMaxMs / 1000} s). Nothing was created or charged for this item: run it again later, or lower Max Requests per Second or the batch size.`,
		httpCode: '429',
		itemIndex: ctx.getItemIndex(),
	});
}

/** Stop cut a create off after it was sent: the service may have taken it. */
function stoppedCreate(ctx: IExecuteSingleFunctions): NodeOperationError {
	return stoppedError(
		ctx,
		'Execution stopped while the task was being created',
		'The create request was already sent, so the task may have been created and charged: check the account\'s task list before running this item again.',
	);
}

/**
 * Checks the item, sends the routed request (through the one transport: no redirects, a time
 * limit, Stop), retrying as the operation allows, and turns a final error into an error item
 * (Continue on Fail) that keeps its pairedItem and, when known, the task id. The check runs here
 * rather than in a preSend so that a refused item, too, keeps its link.
 */
function sendWithRetry(kind: TaskKind, operation: 'create' | 'read', validate?: BodyCheck) {
	const receive = operation === 'create' ? receiveCreatedTask(kind) : receiveTaskResult(kind);
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		// First, before anything can wait: a Stop pressed from now on reaches this item.
		watchForStop(this);
		const fail = (
			error: NodeApiError | NodeOperationError,
			origin?: ErrorOrigin,
		): INodeExecutionData[] => {
			// A model reads only the message: called as a tool, it carries what to do as well.
			if (!this.continueOnFail()) throw isToolCall(this) ? withAdviceInMessage(error) : error;
			return [
				{
					json: errorJson(kind, operation, error, origin),
					pairedItem: { item: this.getItemIndex() },
				},
			];
		};
		try {
			await checkItem(this, operation, requestData, validate);
		} catch (error) {
			return fail(asNodeError(this, error));
		}
		const timeoutMs = operation === 'create' ? limits.createTimeoutMs : limits.pollTimeoutMaxMs;
		for (let attempt = 1; ; attempt++) {
			let origin: ErrorOrigin | undefined;
			let error;
			try {
				await takeRequestSlot(this);
				return await receive.call(
					this,
					await sendToService(this, requestData.options as IHttpRequestOptions, timeoutMs),
				);
			} catch (caught) {
				origin = origins.get(caught as object);
				error = asNodeError(this, caught);
			}
			if (isStopError(error)) {
				const cutOff = operation === 'create' && !origin && (error as { requestSent?: boolean }).requestSent;
				return fail(cutOff ? stoppedCreate(this) : error, origin);
			}
			const fault = transientFault(error);
			const retryable =
				attempt < MAX_ATTEMPTS &&
				fault !== undefined &&
				origin?.phase !== 'task' &&
				(operation === 'read' || fault.notProcessed === true);
			if (retryable && (fault.retryAfterMs ?? 0) > limits.createRetryAfterMaxMs) {
				return fail(rateLimited(this, fault.retryAfterMs ?? 0), origin);
			}
			if (retryable) {
				if (await pause(this, Math.max(RETRY_BASE_MS * 2 ** (attempt - 1), fault.retryAfterMs ?? 0))) continue;
				return fail(
					stoppedError(
						this,
						'Execution stopped before the request was sent again',
						operation === 'create'
							? `Nothing was created for this item: the last attempt was refused (${fault.reason}).`
							: undefined,
					),
					origin,
				);
			}
			if (operation === 'create' && fault && !fault.notProcessed && origin?.phase !== 'task') {
				error.description =
					`${error.description ?? ''} The task may have been created and charged even so: check the account's task list before running this item again.`.trim();
			}
			return fail(error, origin);
		}
	};
}

/** Routing of a create operation (Enhance, Remove): the item is checked first; nothing is sent unless it passes. */
export function createTaskRouting(kind: TaskKind, validate: BodyCheck): INodePropertyRouting {
	return {
		request: {
			method: 'POST',
			url: KINDS[kind].createPath,
			headers: { 'Content-Type': 'application/json' },
		},
		send: { paginate: true },
		operations: { pagination: sendWithRetry(kind, 'create', validate) },
	};
}

/** Routing of Get Result: one read of the task, retried on passing faults. */
export function taskResultRouting(kind: TaskKind): INodePropertyRouting {
	return {
		request: { method: 'GET', url: KINDS[kind].resultPath },
		send: { paginate: true },
		operations: { pagination: sendWithRetry(kind, 'read') },
	};
}

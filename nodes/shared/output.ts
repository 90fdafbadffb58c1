import type {
	IBinaryData,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { CREDENTIAL_NAME, KINDS, type TaskKind } from './api';
import { isLocalHost } from './addresses';
import { executionStopSignal, stoppedError } from './cancellation';
import { clock } from './clock';
import { creditsCharged, refundNote } from './credits';
import { downloadError, downloadResultImage } from './download';
import { IdealHouseApiError, toIdealHouseError } from './errors';
import type { Task } from './task';
import { compactTask, isToolCall } from './tool';

/** Whether the service is on this machine or network, where its result links may be too. */
async function serviceIsLocal(ctx: IExecuteSingleFunctions): Promise<boolean> {
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	try {
		return isLocalHost(new URL(String(credentials.baseUrl ?? '')).hostname);
	} catch {
		return false;
	}
}

const DOWNLOAD_ATTEMPTS = 4;
const DOWNLOAD_RETRY_BASE_MS = 4000;
const DOWNLOAD_RETRY_MAX_MS = 30_000;

/** The finished task's image, downloaded; passing faults are retried with a backoff, as polls are. */
async function resultImage(ctx: IExecuteSingleFunctions, task: Task): Promise<IBinaryData> {
	const url = task.output?.resultUrl;
	if (typeof url !== 'string' || url.trim() === '') {
		throw downloadError(ctx, task.id, 'the service gave no result URL');
	}
	const allowLocal = await serviceIsLocal(ctx);
	for (let attempt = 1; ; attempt++) {
		try {
			return await downloadResultImage(ctx, task.id, url.trim(), allowLocal);
		} catch (error) {
			const failure = toIdealHouseError(ctx, error);
			const fault = failure.transient;
			if (!fault || attempt >= DOWNLOAD_ATTEMPTS) throw failure;
			const backoff = DOWNLOAD_RETRY_BASE_MS * 2 ** (attempt - 1);
			const wait = Math.min(DOWNLOAD_RETRY_MAX_MS, Math.max(backoff, fault.retryAfterMs ?? 0));
			const stop = executionStopSignal(ctx);
			try {
				await clock.sleep(wait, stop);
			} catch {
				// Stopped: reported below.
			}
			if (stop.aborted)
				throw stoppedError(
					ctx,
					`Execution stopped while downloading the result of task ${task.id}`,
				);
		}
	}
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
		throw new IdealHouseApiError(
			this.getNode(),
			{ message: `Task ${task.id} failed` },
			{
				message: `Ideal House ${KINDS[kind].label} task ${task.id} failed. ${refundNote(kind)}`,
				description:
					'The service could not process this image. Check that it is a JPG, PNG or WebP of at most 20 MB and 128–6,000 px that the service can download, then try again or with another preset, prompt or mask.',
				itemIndex,
			},
			{ taskId: task.id, creditsCharged: creditsCharged(kind, 'Failed'), refunded: true },
		);
	}
	const credits = creditsCharged(kind, task.status);
	const json = isToolCall(this) ? compactTask(task, credits) : { ...task, creditsCharged: credits };
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	if (options.downloadResult === true && task.status === 'Success') {
		const property = String(options.binaryPropertyName || 'data');
		item.binary = { [property]: await resultImage(this, task) };
	}
	return [item];
}

import type {
	IBinaryData,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { CREDENTIAL_NAME, KINDS, serviceBaseUrl, type TaskKind } from './api';
import { isLocalHost } from './addresses';
import { executionStopSignal, stoppedError } from './cancellation';
import { clock } from './clock';
import { creditsCharged, refundNote } from './credits';
import { downloadError, downloadResultImage } from './download';
import { IdealHouseApiError, toIdealHouseError } from './errors';
import { limits } from './limits';
import type { Task } from './task';
import { compactTask, isToolCall } from './tool';

/**
 * The service's own host when it is on this machine or network (development against the local
 * service), where its result links are too. Only that host is exempt from the download rules: a
 * base URL with a local-looking name must not open every private address to result links.
 */
async function localServiceHost(ctx: IExecuteSingleFunctions): Promise<string | undefined> {
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	try {
		const { hostname } = new URL(serviceBaseUrl(credentials.baseUrl));
		return isLocalHost(hostname) ? hostname : undefined;
	} catch {
		return undefined;
	}
}

const DOWNLOAD_ATTEMPTS = 4;
const DOWNLOAD_RETRY_BASE_MS = 4000;
const DOWNLOAD_RETRY_MAX_MS = 30_000;

/**
 * The finished task's image, downloaded; passing faults are retried with a backoff, as polls are.
 * The download time limit holds for all attempts together: a host that stalls cannot keep the
 * item waiting once per attempt.
 */
async function resultImage(ctx: IExecuteSingleFunctions, task: Task): Promise<IBinaryData> {
	const url = task.output?.resultUrl;
	if (typeof url !== 'string' || url.trim() === '') {
		throw downloadError(ctx, task.id, 'the service gave no result URL');
	}
	const localHost = await localServiceHost(ctx);
	const deadline = clock.now() + limits.downloadTimeoutMs;
	for (let attempt = 1; ; attempt++) {
		try {
			return await downloadResultImage(ctx, task.id, url.trim(), {
				localServiceHost: localHost,
				timeoutMs: deadline - clock.now(),
			});
		} catch (error) {
			const failure = toIdealHouseError(ctx, error);
			const fault = failure.transient;
			const backoff = DOWNLOAD_RETRY_BASE_MS * 2 ** (attempt - 1);
			const wait = Math.min(DOWNLOAD_RETRY_MAX_MS, Math.max(backoff, fault?.retryAfterMs ?? 0));
			// A retry that could not finish before the deadline is not started.
			if (!fault || attempt >= DOWNLOAD_ATTEMPTS || clock.now() + wait + 1000 > deadline) {
				// The download's own retries are spent: a Get Result around it must not start them again.
				failure.transient = undefined;
				throw failure;
			}
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

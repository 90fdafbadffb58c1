import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { CREDENTIAL_NAME, serviceBaseUrl } from './api';
import type { IdealHouseApi } from './catalog';
import { isLocalHost } from './addresses';
import { executionStopSignal, stoppedError } from './cancellation';
import { clock } from './clock';
import { creditsCharged, refundNote } from './credits';
import { downloadError, downloadResultFile } from './download';
import { IdealHouseApiError, toIdealHouseError } from './errors';
import { limits } from './limits';
import { resultUrls, type Task } from './task';
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
 * One result file, downloaded; passing faults are retried with a backoff, as polls are. The
 * download time limit holds for all attempts together: a host that stalls cannot keep the item
 * waiting once per attempt.
 */
async function resultFile(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	taskId: string,
	url: string,
	localHost: string | undefined,
): Promise<IBinaryData> {
	const deadline = clock.now() + limits.downloadTimeoutMs;
	for (let attempt = 1; ; attempt++) {
		try {
			return await downloadResultFile(ctx, taskId, url, {
				localServiceHost: localHost,
				timeoutMs: deadline - clock.now(),
				accept: api.results,
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
				throw stoppedError(ctx, `Execution stopped while downloading the result of task ${taskId}`);
		}
	}
}

/**
 * Every file of a finished task, one after the other: the first in `property`, the others in
 * `property_1`, `property_2`, … in the order the service lists them.
 */
async function resultFiles(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	task: Task,
	property: string,
): Promise<IBinaryKeyData> {
	const urls = resultUrls(task);
	if (urls.length === 0) throw downloadError(ctx, task.id, 'the service gave no result URL');
	const localHost = await localServiceHost(ctx);
	const files: IBinaryKeyData = {};
	for (const [index, url] of urls.entries()) {
		files[index === 0 ? property : `${property}_${index}`] = await resultFile(
			ctx,
			api,
			task.id,
			url,
			localHost,
		);
	}
	return files;
}

const DEFAULT_FAILURE_ADVICE =
	'The service could not process this task. Check that its image URLs lead to JPG, PNG or WebP images the service can download and that its option IDs are valid, then try again or with other inputs.';

/**
 * One task becomes one item linked to its input item. A Failed task is an item error (its
 * credits are refunded by the service); a finished one can bring its files along as binary.
 * `price` is what the task cost when it was created (`null`: not known).
 */
export async function emitTask(
	this: IExecuteSingleFunctions,
	api: IdealHouseApi,
	task: Task,
	options: IDataObject,
	price: number | null,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	if (task.status === 'Failed') {
		throw new IdealHouseApiError(
			this.getNode(),
			{ message: `Task ${task.id} failed` },
			{
				message: `Ideal House ${api.label} task ${task.id} failed. ${refundNote(price)}`,
				description: api.failureAdvice ?? DEFAULT_FAILURE_ADVICE,
				itemIndex,
			},
			{ taskId: task.id, creditsCharged: creditsCharged('Failed', price), refunded: true },
		);
	}
	const credits = creditsCharged(task.status, price);
	const json = isToolCall(this) ? compactTask(task, credits) : { ...task, creditsCharged: credits };
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	if (options.downloadResult === true && task.status === 'Success') {
		item.binary = await resultFiles(this, api, task, String(options.binaryPropertyName || 'data'));
	}
	return [item];
}

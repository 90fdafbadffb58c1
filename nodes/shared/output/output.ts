import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { CREDENTIAL_NAME, serviceBaseUrl } from '../catalog/service';
import type { IdealHouseApi } from '../catalog/apis';
import { isLocalHost } from '../core/addresses';
import { clock } from '../core/clock';
import { creditsCharged, refundNote } from '../catalog/credits';
import { DownloadError, downloadError, downloadResultFile, downloadStopped } from './download';
import { IdealHouseApiError, toIdealHouseError, type IdealHouseError } from '../core/errors';
import { limits } from '../core/limits';
import { bounded } from '../core/redact';
import { resultUrls, type Task } from '../catalog/task';
import { backoffMs, withRetries, type RetryDecision } from '../http/retries';
import { compactSkipped, compactTask, isToolCall } from './tool';

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

/** One result file; passing faults retried until the item's download deadline, not per attempt. */
async function resultFile(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	taskId: string,
	url: string,
	localHost: string | undefined,
	deadline: number,
): Promise<IBinaryData> {
	return await withRetries(
		ctx,
		async () =>
			await downloadResultFile(ctx, taskId, url, {
				localServiceHost: localHost,
				timeoutMs: deadline - clock.now(),
				accept: api.results,
			}),
		{
			next: (failure, attempt) => downloadAgain(failure, attempt, deadline),
			stoppedWhileWaiting: () => downloadStopped(ctx, taskId),
		},
	);
}

/** Tried again after a passing fault, while a retry can still finish before the deadline. */
function downloadAgain(failure: IdealHouseError, attempt: number, deadline: number): RetryDecision {
	const { retry, stopped } = failure.outcome;
	const wait = Math.min(
		limits.downloadRetryMaxMs,
		Math.max(backoffMs(limits.downloadRetryBaseMs, attempt), retry?.afterMs ?? 0),
	);
	const tooLate = clock.now() + wait + 1000 > deadline;
	if (stopped || !retry || attempt >= limits.downloadAttempts || tooLate)
		return { giveUp: failure };
	return { retryInMs: wait };
}

const filesText = (count: number) => `${count} file${count === 1 ? '' : 's'}`;

/** A listed result file that is not on the item, and why. */
type SkippedFile = { url: string; reason: string };

interface AttachedFiles {
	binary: IBinaryKeyData;
	skipped: SkippedFile[];
}

/** Why a listed file was not downloaded, in a few words. */
function skipReason(failure: IdealHouseError): string {
	return bounded(failure instanceof DownloadError ? failure.reason : failure.message, 300);
}

/** The item's error when a list of several files brought none: each file's reason, in order. */
function noFileAttached(
	ctx: IExecuteSingleFunctions,
	taskId: string,
	skipped: SkippedFile[],
): IdealHouseError {
	const reasons = skipped.map((file, index) => `${index + 1}. ${file.reason}`).join('; ');
	return downloadError(
		ctx,
		taskId,
		bounded(`none of its ${skipped.length} files could be attached (${reasons})`, 800),
	);
}

/**
 * Every file of a finished task, in order, in `property`, `property_1`, …: all are paid for, so
 * one that fails is named in `skipped` and the item fails only when none came.
 */
async function resultFiles(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	task: Task,
	property: string,
): Promise<AttachedFiles> {
	const urls = resultUrls(task);
	if (urls.length === 0) throw downloadError(ctx, task.id, 'the service gave no result URL');
	const localHost = await localServiceHost(ctx);
	const deadline = clock.now() + limits.downloadTimeoutMs;
	const binary: IBinaryKeyData = {};
	const skipped: SkippedFile[] = [];
	let attached = 0;
	for (const [index, url] of urls.entries()) {
		if (index >= limits.downloadMaxFiles) {
			skipped.push({
				url,
				reason: `not downloaded: an item downloads at most ${filesText(limits.downloadMaxFiles)}`,
			});
			continue;
		}
		if (clock.now() >= deadline) {
			skipped.push({
				url,
				reason: `not downloaded: the item's ${Math.round(limits.downloadTimeoutMs / 100) / 10} s for downloads had run out`,
			});
			continue;
		}
		try {
			const file = await resultFile(ctx, api, task.id, url, localHost, deadline);
			binary[attached === 0 ? property : `${property}_${attached}`] = file;
			attached++;
		} catch (error) {
			const failure = toIdealHouseError(ctx, error);
			// Stop ends the item; a single file's own error says more than a summary of one.
			if (failure.outcome.stopped || urls.length === 1) throw failure;
			skipped.push({ url, reason: skipReason(failure) });
		}
	}
	if (attached === 0) throw noFileAttached(ctx, task.id, skipped);
	return { binary, skipped };
}

/** The files of a result list that are not on the item, in the item's JSON. */
function skippedFilesJson(ctx: IExecuteSingleFunctions, skipped: SkippedFile[]): IDataObject {
	return isToolCall(ctx) ? compactSkipped(skipped) : { resultFilesSkipped: skipped };
}

const DEFAULT_FAILURE_ADVICE =
	'The service could not process this task. Check that its image URLs lead to JPG, PNG or WebP images the service can download and that its option IDs are valid, then try again or with other inputs.';

/** One task as one item; a Failed task is an item error (refunded). `price`: its cost, or null. */
export async function emitTask(
	this: IExecuteSingleFunctions,
	api: IdealHouseApi,
	task: Task,
	download: { result: boolean; property: string },
	price: number | null,
): Promise<INodeExecutionData[]> {
	const itemIndex = this.getItemIndex();
	if (task.status === 'Failed') {
		throw new IdealHouseApiError(
			this.getNode(),
			{ message: `Task ${task.id} failed` },
			{
				message: `Ideal House ${api.label} task ${task.id} ended with status "Failed": ${refundNote(price)}`,
				description: api.failureAdvice ?? DEFAULT_FAILURE_ADVICE,
				itemIndex,
			},
			{
				kind: 'finished',
				taskId: task.id,
				creditsCharged: creditsCharged('Failed', price),
				refunded: true,
			},
		);
	}
	const credits = creditsCharged(task.status, price);
	const json = isToolCall(this) ? compactTask(task, credits) : { ...task, creditsCharged: credits };
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	if (download.result && task.status === 'Success') {
		const { binary, skipped } = await resultFiles(this, api, task, download.property);
		item.binary = binary;
		if (skipped.length > 0) Object.assign(json, skippedFilesJson(this, skipped));
	}
	return [item];
}

import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { toIdealHouseError } from '../core/errors';
import { TERMINAL_STATUSES } from '../catalog/service';
import { createPath, resultPath, type IdealHouseApi } from '../catalog/apis';
import { price, priceOfStoredTask } from '../catalog/credits';
import { emitTask } from '../output/output';
import { imageUrlOf } from '../photo-files/n8n-links';
import type { PhotoFile } from '../photo-files/item-photos';
import { sendCreate, sendRead } from './create';
import {
	logCreated,
	failureNamingCreatedTask,
	failureAboutTask,
	type CreatedTask,
} from './created-task';
import { creditCharge } from './credit-limit';
import { checkPhotoFiles } from './photos';
import { preview } from './preview';
import {
	itemParameters,
	readItemSettings,
	type ItemParameters,
	type PhotoFileRule,
} from './settings';
import { waitForCreateTurn } from './create-turn';
import { waitForTask } from './wait';

// An item's life, settings to output, read top to bottom. Why: docs/design/item-life.md

/** What a body check knows of the item besides its routed body: its API and its own parameters. */
export interface ItemOfCheck {
	api: IdealHouseApi;
	parameters: ItemParameters;
	/** The item's photo files, checked, when its Image Source is Binary File. */
	photos?: PhotoFile[];
}

/** Checks an item's request body before anything is sent, and returns the body to send. */
export type BodyCheck = (
	this: IExecuteSingleFunctions,
	body: IDataObject,
	item: ItemOfCheck,
) => Promise<IDataObject>;

/** A catalog row, or for Custom API the row built (and checked) from the item's parameters. */
export type ApiOfItem =
	| IdealHouseApi
	| ((this: IExecuteSingleFunctions, parameters: ItemParameters) => IdealHouseApi);

/** A create as its node routes it: its API, its body check, and whether it takes photo files. */
export interface CreateRoute {
	api: ApiOfItem;
	bodyCheck?: BodyCheck;
	photoFiles?: PhotoFileRule;
}

function apiOf(ctx: IExecuteSingleFunctions, api: ApiOfItem, parameters: ItemParameters) {
	return typeof api === 'function' ? api.call(ctx, parameters) : api;
}

/** A create: every refusal comes before anything leaves n8n; a named task is in every failure. */
export async function createItem(
	ctx: IExecuteSingleFunctions,
	route: CreateRoute,
	request: IHttpRequestOptions,
): Promise<INodeExecutionData[]> {
	// 1. The settings, read and checked once.
	const settings = readItemSettings(ctx, 'create', route.photoFiles);
	const parameters = itemParameters(ctx);
	// 2. The API.
	const api = apiOf(ctx, route.api, parameters);
	request.url = createPath(api);
	// 3. The photo check: files read, their links planned, nothing sent.
	const routed = (request.body ?? {}) as IDataObject;
	const photos = route.photoFiles ? await checkPhotoFiles(ctx, api, settings) : undefined;
	const several = route.photoFiles?.several ?? false;
	if (photos) routed.imageUrl = imageUrlOf(photos.planned, several);
	// 4. The body check, and the create's place against the Credit Limit.
	const body = route.bodyCheck
		? await route.bodyCheck.call(ctx, { ...routed }, { api, parameters, photos: photos?.files })
		: routed;
	request.body = body;
	const charge = creditCharge(ctx, api, body, settings);
	// 5. Preview: what would be sent and its price, counted apart; nothing leaves n8n.
	if (settings.preview) {
		charge.reserve();
		return await preview(ctx, {
			method: 'POST',
			path: request.url,
			body,
			credits: price(api, body),
		});
	}
	// 6. The item's turn: a request slot, no 9051 in this execution, the Credit Limit's count.
	const rate = settings.maxRequestsPerSecond;
	const turn = await waitForCreateTurn(ctx, rate, charge);
	let task: CreatedTask | undefined;
	try {
		// 7. The photos' links, in the item's turn: signed by n8n.
		if (photos) body.imageUrl = imageUrlOf(await photos.publish(ctx), several);
		// 8. The create, its retries around the send alone.
		const taskId = await sendCreate(ctx, request, rate, turn, charge);
		// 9. The task: whatever ends the item names it from here on; its id goes to n8n's log.
		task = { taskId, creditsCharged: null };
		task.creditsCharged = price(api, body);
		logCreated(ctx, api, taskId);
		if (!settings.waitForCompletion) {
			// The task may fetch its photo after the item ends: the item says until when it can.
			const items = unfinished(ctx, task);
			photos?.noteOnUnfinished(items);
			return items;
		}
		// 10. The wait.
		const status = await waitForTask.call(ctx, api, taskId, settings);
		// 11. The results and downloads.
		const items = await emitTask.call(ctx, api, status, settings.download, task.creditsCharged);
		if (!TERMINAL_STATUSES.includes(status.status)) photos?.noteOnUnfinished(items);
		// 12. The output.
		return items;
	} catch (error) {
		const failure = task
			? failureNamingCreatedTask(ctx, error, task)
			: toIdealHouseError(ctx, error);
		// A refusal of the photo says what to check; a task left running, until when it can fetch it.
		photos?.explainRefusal(failure);
		photos?.noteOnLeftRunning(ctx, failure);
		// A Failed task was refunded, a refused create cost nothing: the Credit Limit gets it back.
		charge.failed(failure);
		throw failure;
	} finally {
		// 13. A turn no create went with, given back.
		turn.release();
	}
}

/** Wait for Completion off: the task as just created, left running. */
function unfinished(ctx: IExecuteSingleFunctions, task: CreatedTask): INodeExecutionData[] {
	const json = { id: task.taskId, status: 'Unprocessed', creditsCharged: task.creditsCharged };
	return [{ json, pairedItem: { item: ctx.getItemIndex() } }];
}

/** Get Result: the same steps, but for the create's. */
export async function readItem(
	ctx: IExecuteSingleFunctions,
	apiOfItem: ApiOfItem,
	request: IHttpRequestOptions,
): Promise<INodeExecutionData[]> {
	// 1. The settings, the task id among them.
	const settings = readItemSettings(ctx, 'read');
	const taskId = settings.taskId ?? '';
	// 2. The API.
	const api = apiOf(ctx, apiOfItem, itemParameters(ctx));
	request.url = resultPath(api);
	request.qs = { ...request.qs, taskId };
	// 3. Preview.
	if (settings.preview) {
		return await preview(ctx, {
			method: 'GET',
			path: request.url,
			qs: request.qs,
			body: null,
			credits: 0,
		});
	}
	// 4. The read, each attempt in its own request slot.
	const task = await sendRead(ctx, request, taskId, settings.maxRequestsPerSecond);
	const creditsCharged = priceOfStoredTask(api, task.input);
	try {
		// 5. The output and its downloads.
		return await emitTask.call(ctx, api, task, settings.download, creditsCharged);
	} catch (error) {
		throw failureAboutTask(ctx, error, { taskId, creditsCharged });
	}
}

import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { toIdealHouseError, type IdealHouseError } from '../basics/errors';
import { TERMINAL_STATUSES } from '../catalog/api';
import { createPath, resultPath, type IdealHouseApi } from '../catalog/catalog';
import { price, priceOfStoredTask } from '../catalog/credits';
import { emitTask } from '../results/output';
import type { PhotoFile } from '../storage/photo-files';
import { sendCreate, sendRead } from './create';
import { keepingCreatedTask, keepingReadTask } from './created-task';
import { creditCharge } from './credit-limit';
import { imageUrlOf, type PhotoLinks } from '../storage/photo-links';
import { checkPhotoFiles } from './photos';
import { preview } from './preview';
import {
	itemParameters,
	readItemSettings,
	type ItemParameters,
	type PhotoFileRule,
} from './settings';
import { takeTurn, type Turn } from './turn';
import { waitForTask } from './wait';

/**
 * The life of one item, from its settings to its output, as two straight paths: a create
 * (Enhance, Remove, Create) and Get Result. Each step is one call into the room that does it.
 */

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

/**
 * The API an operation calls: a catalog row, or for an API named in the node's parameters
 * (`custom`), the row built from the item's parameters, checked before anything is sent.
 */
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

/**
 * A create. Everything that can refuse the item comes before anything leaves n8n; its photo
 * leaves only once its create may go; once the service has named the task, whatever ends the item
 * keeps the task's id; and the photos' clean-up runs however it ended.
 */
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
	// 3. The photo check (files read, their links planned, nothing sent), then the body check.
	const routed = (request.body ?? {}) as IDataObject;
	const photos = route.photoFiles ? await checkPhotoFiles(ctx, api, settings) : undefined;
	const several = route.photoFiles?.several ?? false;
	if (photos) routed.imageUrl = imageUrlOf(photos.planned, several);
	const body = route.bodyCheck
		? await route.bodyCheck.call(ctx, { ...routed }, { api, parameters, photos: photos?.files })
		: routed;
	request.body = body;
	const charge = creditCharge(ctx, api, body, settings);
	// 4. Preview: what would be sent and its price, counted apart; nothing leaves n8n.
	if (settings.preview) {
		charge.reserve();
		return await preview(ctx, {
			method: 'POST',
			path: request.url,
			body,
			credits: price(api, body),
		});
	}
	// 5. The item's turn: a request slot, no 9051 in this execution, the Credit Limit's count.
	const rate = settings.maxRequestsPerSecond;
	const turn = await takeTurn(ctx, rate, charge);
	// 6. The photos' links, in the item's turn: uploaded to the bucket, or signed by n8n.
	if (photos) body.imageUrl = imageUrlOf(await publishInTurn(ctx, photos, turn), several);
	let items: INodeExecutionData[] = [];
	let failure: IdealHouseError | undefined;
	try {
		// 7. The create, its retries around the send alone.
		const taskId = await sendCreate(ctx, request, rate, turn, charge);
		// 8. From here on, whatever ends the item keeps the task's id and its price.
		items = await keepingCreatedTask(ctx, api, taskId, body, async (charged) => {
			if (!settings.waitForCompletion) {
				photos?.keepForUnfinishedTask();
				const json = { id: taskId, status: 'Unprocessed', creditsCharged: charged };
				return [{ json, pairedItem: { item: ctx.getItemIndex() } }];
			}
			// 9. The wait.
			const task = await waitForTask.call(ctx, api, taskId, settings);
			if (!TERMINAL_STATUSES.includes(task.status)) photos?.keepForUnfinishedTask();
			// 10. The results and downloads.
			return await emitTask.call(ctx, api, task, settings.download, charged);
		});
		// 12. The output.
		return items;
	} catch (error) {
		failure = toIdealHouseError(ctx, error);
		// A refusal that names the photo says what to check for the way it was linked.
		photos?.explainRefusal(failure);
		// A Failed task was refunded, a refused create cost nothing: the Credit Limit gets it back.
		charge.failed(failure);
		throw failure;
	} finally {
		// 11. The clean-up: the photos deleted, or kept for a task left running. It notes on the
		// returned items (or the error) where they are, or a delete that failed.
		await photos?.cleanUp(ctx, { items, failure });
	}
}

/** A photo that cannot be linked sends no create: the turn's slot and credits go back. */
async function publishInTurn(ctx: IExecuteSingleFunctions, photos: PhotoLinks, turn: Turn) {
	try {
		return await photos.publish(ctx);
	} catch (error) {
		turn.cancel();
		throw toIdealHouseError(ctx, error);
	}
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
	// 4. Preview.
	if (settings.preview) {
		return await preview(ctx, {
			method: 'GET',
			path: request.url,
			qs: request.qs,
			body: null,
			credits: 0,
		});
	}
	// 5, 7. The read, each attempt in its own request slot.
	const task = await sendRead(ctx, request, taskId, settings.maxRequestsPerSecond);
	// 8, 10, 12. The output and its downloads, the task named whatever ends the item.
	return await keepingReadTask(ctx, taskId, async () => {
		const credits = priceOfStoredTask(api, task.input);
		return await emitTask.call(ctx, api, task, settings.download, credits);
	});
}

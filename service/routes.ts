/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// The photo enhancer and object remover rules as docs/ideal-house-api.md states them, the task creation and
// the result view that every API shares. Everything here throws ServiceError for envelope errors;
// the server turns it into HTTP 200 + {code, message, data: null}.
import type { ClientRequest } from 'node:http';
import type { Accounts } from './accounts.ts';
import type { ServiceConfig } from './config.ts';
import type { Counters } from './stats.ts';
import type { ImageInfo } from './images.ts';
import type { Random } from './prng.ts';
import type { Progress } from './queue.ts';
import type { TaskOutput } from './result-files.ts';
import type { TaskQueues } from './task-queues.ts';
import type { TaskKind, TaskRecord, TaskStore } from './tasks.ts';
import { CODE, ServiceError } from './envelope.ts';
import { fetchBytes, inspectImage, MEGABYTE } from './images.ts';
import { isKnownPreset } from './presets.ts';
import { taskOutput } from './result-files.ts';
import { MAX_LONG, TASK_COST } from './tasks.ts';

export interface ServiceContext {
	config: ServiceConfig;
	accounts: Accounts;
	tasks: TaskStore;
	queues: TaskQueues;
	counters: Counters;
	random: { failures: Random; durations: Random };
	now(): number;
	/** Base of the URLs the service hands out (result images). */
	publicUrl: string;
	/** Refunds the tasks that have ended Failed by now. */
	settle(): void;
	trackFetch(request: ClientRequest): () => void;
}

export const IMAGE_SIZES: Record<string, number> = {
	'512': 512,
	'1K': 1024,
	'2K': 2048,
	'4K': 4096,
};

const PHOTO_ENHANCER_MAX_BYTES = 20 * MEGABYTE;
const PHOTO_ENHANCER_MIN_SIDE = 128;
/** Not a spec limit (the spec lists none for the object remover): only keeps memory bounded. */
export const OBJECT_REMOVER_MAX_BYTES = 64 * MEGABYTE;

const EMPTY_TYPES = ['single_furniture', 'whole_house'];

export function paramError(message: string): ServiceError {
	return new ServiceError(CODE.PARAM_ERROR, message);
}

export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
	const value = body[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') throw paramError(`${field} must be a string`);
	return value;
}

export async function loadImage(
	context: ServiceContext,
	label: string,
	url: string,
	maxBytes: number,
): Promise<ImageInfo> {
	let bytes: Buffer;
	try {
		bytes = await fetchBytes(url, {
			maxBytes,
			timeoutMs: context.config.imageFetchTimeoutMs,
			track: context.trackFetch,
		});
	} catch (error) {
		throw paramError(`${label} (${url}) ${(error as Error).message}`);
	}
	return checkImageBytes(label, url, bytes);
}

function checkImageBytes(label: string, source: string, bytes: Buffer): ImageInfo {
	const info = inspectImage(bytes);
	if (typeof info === 'string') throw paramError(`${label}${source ? ` (${source})` : ''} ${info}`);
	return info;
}

function wordPattern(word: string): RegExp {
	const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	// Whole words for plain words ("nude" must not match "denuded"); anything else as a substring.
	return /^[\p{L}\p{N}_]+$/u.test(word)
		? new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'iu')
		: new RegExp(escaped, 'iu');
}

export function findBannedWord(prompt: string, bannedWords: readonly string[]): string | undefined {
	return bannedWords.find((word) => word.trim() !== '' && wordPattern(word.trim()).test(prompt));
}

export function containsPhrase(text: string, phrase: string): boolean {
	return phrase !== '' && text.toLowerCase().includes(phrase.toLowerCase());
}

export function safeDecode(url: string): string {
	try {
		return decodeURIComponent(url);
	} catch {
		return url;
	}
}

/** Long edge at the requested size, short edge keeping the first source image's aspect ratio. */
export function enhancedSize(source: { width: number; height: number }, imageSize: string) {
	const longEdge = IMAGE_SIZES[imageSize];
	const scale = longEdge / Math.max(source.width, source.height);
	const side = (value: number) => Math.max(1, Math.round(value * scale));
	return source.width >= source.height
		? { width: longEdge, height: side(source.height) }
		: { width: side(source.width), height: longEdge };
}

export function requireCredits(context: ServiceContext, apiKey: string, cost: number): void {
	context.settle();
	if (context.accounts.balance(apiKey) < cost) {
		throw new ServiceError(
			CODE.COINS_NOT_ENOUGH,
			`insufficient credits: this task costs ${cost}, the balance is ${context.accounts.balance(apiKey)}`,
		);
	}
}

export interface NewTask {
	kind: TaskKind;
	cost: number;
	input: Record<string, unknown>;
	/** Size of the result image; null for a 3D model. */
	output: { width: number | null; height: number | null };
	/** Texts in which `failTrigger` makes the task end Failed (the image URLs). */
	triggerTexts: readonly string[];
	resultCount?: number;
}

export function createTask(context: ServiceContext, apiKey: string, spec: NewTask): TaskRecord {
	const { kind, cost, input, output } = spec;
	// Checked again after the image downloads: the balance may have moved meanwhile.
	requireCredits(context, apiKey, cost);
	if (!context.accounts.tryCharge(apiKey, cost)) {
		throw new ServiceError(CODE.COINS_NOT_ENOUGH, 'insufficient credits');
	}
	const { config, random } = context;
	const jitter = config.taskDurationJitterMs * (random.durations() * 2 - 1);
	const failureDraw = random.failures();
	const triggered =
		config.failTrigger !== '' &&
		spec.triggerTexts.some((text) => containsPhrase(safeDecode(text), config.failTrigger));
	const now = context.now();
	const task: TaskRecord = {
		id: context.tasks.nextId(),
		apiKey,
		kind,
		slot: context.queues
			.queueFor(kind, apiKey)
			.schedule(now, Math.max(0, Math.round(config.taskDurationMs + jitter))),
		willFail: triggered || failureDraw < config.failureRate,
		cost,
		refunded: false,
		input,
		outputWidth: output.width,
		outputHeight: output.height,
		resultCount: spec.resultCount ?? 1,
		createdAt: now,
	};
	context.tasks.add(task);
	context.counters.taskCreated(apiKey, `${kind}.generate`);
	return task;
}

export async function createPhotoEnhancerTask(
	context: ServiceContext,
	apiKey: string,
	body: Record<string, unknown>,
): Promise<TaskRecord> {
	const presetId = optionalString(body, 'presetId');
	const prompt = optionalString(body, 'prompt');
	if (isBlank(presetId) && isBlank(prompt)) {
		throw paramError('presetId and prompt must not both be empty: provide at least one of them');
	}
	if (!isBlank(presetId) && !isKnownPreset(presetId as string)) {
		throw paramError(`presetId "${presetId}" is not a known preset`);
	}

	let imageSize = '4K';
	if (body.imageSize !== undefined && body.imageSize !== null) {
		if (typeof body.imageSize !== 'string' || !Object.hasOwn(IMAGE_SIZES, body.imageSize)) {
			throw paramError(
				`imageSize must be one of ${Object.keys(IMAGE_SIZES).join(', ')} (as a string); got ${JSON.stringify(body.imageSize)}`,
			);
		}
		imageSize = body.imageSize;
	}

	const imageUrl = body.imageUrl;
	let imageUrls: string[];
	if (typeof imageUrl === 'string') {
		if (imageUrl.trim() === '') throw paramError('imageUrl is required and must not be empty');
		imageUrls = [imageUrl];
	} else if (Array.isArray(imageUrl)) {
		if (imageUrl.length === 0) throw paramError('imageUrl must not be an empty array');
		imageUrl.forEach((item, index) => {
			if (typeof item !== 'string' || item.trim() === '') {
				throw paramError(`imageUrl[${index}] must be a non-empty string`);
			}
		});
		imageUrls = imageUrl as string[];
	} else if (imageUrl === undefined || imageUrl === null) {
		throw paramError('imageUrl is required (a URL string or an array of URL strings)');
	} else {
		throw paramError('imageUrl must be a string or an array of strings');
	}

	const banned = prompt ? findBannedWord(prompt, context.config.bannedWords) : undefined;
	if (banned !== undefined) {
		throw new ServiceError(
			CODE.SCAN_TEXT_ERROR,
			`prompt failed text review (contains "${banned}")`,
		);
	}

	const cost = TASK_COST.photoEnhancer;
	requireCredits(context, apiKey, cost);

	const labels = imageUrls.map((_, index) =>
		typeof imageUrl === 'string' ? 'imageUrl' : `imageUrl[${index}]`,
	);
	const images = await Promise.all(
		imageUrls.map((url, index) => loadImage(context, labels[index], url, PHOTO_ENHANCER_MAX_BYTES)),
	);
	images.forEach((image, index) => {
		if (image.width < PHOTO_ENHANCER_MIN_SIDE || image.height < PHOTO_ENHANCER_MIN_SIDE) {
			throw paramError(
				`${labels[index]} (${imageUrls[index]}) is ${image.width}x${image.height} px; images must be at least ${PHOTO_ENHANCER_MIN_SIDE}x${PHOTO_ENHANCER_MIN_SIDE} px`,
			);
		}
	});

	// The spec says a generated image can be rejected (9038) without saying when the client
	// learns it; this stand-in answers 9038 at creation and charges nothing. A client must also
	// cope with it arriving later, as a Failed task.
	if (prompt && containsPhrase(prompt, context.config.rejectPhrase)) {
		throw new ServiceError(
			CODE.PROHIBITED_CONTENT,
			'generated image content was rejected (PROHIBITED_CONTENT)',
		);
	}

	const input = {
		imageUrl,
		imageUrls: [...imageUrls],
		prompt: prompt ?? '',
		presetId: isBlank(presetId) ? null : presetId,
		imageSize,
		isApiCall: true,
		modelType: imageUrls.length > 1 ? 'MULTI_IMAGE' : 'SINGLE_IMAGE',
		model: 'ideal-house-enhancer-local',
	};
	return createTask(context, apiKey, {
		kind: 'photoEnhancer',
		cost: TASK_COST.photoEnhancer,
		input,
		output: enhancedSize(images[0], imageSize),
		triggerTexts: imageUrls,
	});
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function decodeMask(maskBase64: string): Buffer {
	if (/^\s*data:/i.test(maskBase64)) {
		throw paramError('maskBase64 must be plain base64, without a data: prefix');
	}
	if (!BASE64.test(maskBase64) || maskBase64.length % 4 !== 0) {
		throw paramError(
			'maskBase64 is not valid base64 (A-Z, a-z, 0-9, +, / with = padding, no line breaks)',
		);
	}
	return Buffer.from(maskBase64, 'base64');
}

export async function createObjectRemoverTask(
	context: ServiceContext,
	apiKey: string,
	body: Record<string, unknown>,
): Promise<TaskRecord> {
	const imageUrl = body.imageUrl;
	if (imageUrl === undefined || imageUrl === null || imageUrl === '') {
		throw paramError('imageUrl is required');
	}
	if (typeof imageUrl !== 'string') throw paramError('imageUrl must be a string (one image URL)');

	const emptyType = body.emptyType;
	if (emptyType === undefined || emptyType === null || emptyType === '') {
		throw paramError(`emptyType is required: one of ${EMPTY_TYPES.join(', ')}`);
	}
	if (typeof emptyType !== 'string' || !EMPTY_TYPES.includes(emptyType)) {
		throw paramError(
			`emptyType must be one of ${EMPTY_TYPES.join(', ')}; got ${JSON.stringify(emptyType)}`,
		);
	}

	let maskUrl: string | undefined;
	let maskBytes: Buffer | undefined;
	if (emptyType === 'single_furniture') {
		const rawMaskUrl = body.maskUrl;
		if (rawMaskUrl !== undefined && rawMaskUrl !== null && typeof rawMaskUrl !== 'string') {
			throw paramError('maskUrl must be a string');
		}
		if (typeof rawMaskUrl === 'string' && rawMaskUrl.trim() !== '') {
			maskUrl = rawMaskUrl; // takes precedence: maskBase64 is then ignored, even if invalid
		} else {
			const rawBase64 = body.maskBase64;
			if (rawBase64 !== undefined && rawBase64 !== null && typeof rawBase64 !== 'string') {
				throw paramError('maskBase64 must be a string');
			}
			if (typeof rawBase64 !== 'string' || rawBase64.trim() === '') {
				throw paramError('single_furniture needs a mask: provide maskUrl or maskBase64');
			}
			maskBytes = decodeMask(rawBase64);
		}
	}

	requireCredits(context, apiKey, TASK_COST.objectRemover);

	// A decoded mask is judged before any download starts, so a 1011 here leaves nothing running.
	const maskFromBase64 = maskBytes ? checkImageBytes('maskBase64', '', maskBytes) : undefined;
	const [image, maskFromUrl] = await Promise.all([
		loadImage(context, 'imageUrl', imageUrl, OBJECT_REMOVER_MAX_BYTES),
		maskUrl !== undefined
			? loadImage(context, 'maskUrl', maskUrl, OBJECT_REMOVER_MAX_BYTES)
			: undefined,
	]);
	const mask = maskFromUrl ?? maskFromBase64;
	if (mask && (mask.width !== image.width || mask.height !== image.height)) {
		throw paramError(
			`the mask is ${mask.width}x${mask.height} px but the image is ${image.width}x${image.height} px; they must have the same dimensions`,
		);
	}

	// See the photo enhancer: 9038 at creation. The remover has no prompt, so the phrase is
	// looked for in the image URL.
	if (containsPhrase(safeDecode(imageUrl), context.config.rejectPhrase)) {
		throw new ServiceError(
			CODE.PROHIBITED_CONTENT,
			'generated image content was rejected (PROHIBITED_CONTENT)',
		);
	}

	// Whether the real service stores maskBase64 in the input is not shown; it is left out here.
	const input: Record<string, unknown> = { imageUrl };
	if (maskUrl !== undefined) input.maskUrl = maskUrl;
	input.emptyType = emptyType;
	return createTask(context, apiKey, {
		kind: 'objectRemover',
		cost: TASK_COST.objectRemover,
		input,
		output: image,
		triggerTexts: [imageUrl],
	});
}

/** Parses the taskId query as a 64-bit decimal, never through Number (it would lose digits). */
export function parseTaskId(raw: string | null): bigint {
	if (raw === null || raw === '') throw paramError('taskId is required');
	if (!/^\d+$/.test(raw)) throw paramError(`taskId must be a decimal integer; got "${raw}"`);
	const id = BigInt(raw);
	if (id > MAX_LONG) throw paramError('taskId is out of range for a 64-bit integer');
	return id;
}

export interface TaskView {
	id: bigint;
	status: Progress['status'];
	waitNumber: number;
	percentage: number;
	input: Record<string, unknown>;
	output: TaskOutput | null;
}

export function viewTask(context: ServiceContext, task: TaskRecord): TaskView {
	const progress = context.queues
		.queueFor(task.kind, task.apiKey)
		.progress(task.slot, task.willFail, context.now(), context.config.progressModel);
	return {
		id: task.id,
		status: progress.status,
		waitNumber: progress.waitNumber,
		percentage: progress.percentage,
		input: task.input,
		output: progress.status === 'Success' ? taskOutput(context.publicUrl, task) : null,
	};
}

export function getTaskResult(
	context: ServiceContext,
	kind: TaskKind,
	apiKey: string,
	query: URLSearchParams,
): TaskView {
	const id = parseTaskId(query.get('taskId'));
	const task = context.tasks.get(id);
	// Another account's task, or another API's, is as unknown to the caller as a made-up id.
	if (!task || task.apiKey !== apiKey || task.kind !== kind) {
		throw new ServiceError(CODE.FAILED, `task not found: ${id}`);
	}
	const view = viewTask(context, task);
	if (task.doneSeenAt === undefined && (view.status === 'Success' || view.status === 'Failed')) {
		task.doneSeenAt = context.now();
	}
	return view;
}

// Create requests of the catalog APIs, checked against their row in apis.ts. The order is the
// photo enhancer's: request rules (1011), text review (9010), credits (9051), the image downloads
// (1011), the content check (9038), and only then a charge. Nothing is charged when any of them
// refuses the request.
import type { ApiRow, FieldRule, ModelType } from './apis.ts';
import { modelTypesOf, priceOf } from './apis.ts';
import { CODE, ServiceError } from './envelope.ts';
import type { ServiceContext } from './routes.ts';
import {
	containsPhrase,
	createTask,
	findBannedWord,
	isBlank,
	loadImage,
	OBJECT_REMOVER_MAX_BYTES,
	paramError,
	requireCredits,
	safeDecode,
} from './routes.ts';
import { isOptionOf } from './style-config.ts';
import type { TaskRecord } from './tasks.ts';

type Body = Record<string, unknown>;

/** Result size for a request without imageUrl, when its row names no size of its own. */
const SQUARE = { width: 1024, height: 1024 };

function stringValues(body: Body): string[] {
	return Object.values(body).filter((value): value is string => typeof value === 'string');
}

function describeValue(value: unknown): string {
	return JSON.stringify(value) ?? String(value);
}

function checkStyleOption(
	row: ApiRow,
	field: string,
	rule: { group: string; multi?: boolean },
	value: string,
): void {
	const styleKey = row.styleKey as string;
	const ids = rule.multi ? value.split(',').map((id) => id.trim()) : [value];
	for (const id of ids) {
		if (id === '') {
			throw paramError(`${field} holds an empty id; join several ids with commas: id1,id2`);
		}
		if (!isOptionOf(styleKey, rule.group, id)) {
			throw paramError(
				`${field} "${id}" is not an id of the ${rule.group} group of ${styleKey} (see GET /api/v1/style/${styleKey}/getStyles)`,
			);
		}
	}
}

/** Checks one field that was given (not null, not blank); returns its image URL, if it is one. */
function checkGivenField(
	row: ApiRow,
	field: string,
	rule: FieldRule,
	value: unknown,
): string | undefined {
	switch (rule.type) {
		case 'image':
		case 'prompt':
		case 'text':
		case 'styleOption':
			if (typeof value !== 'string') throw paramError(`${field} must be a string`);
			if (rule.type === 'text' && rule.oneOf && !rule.oneOf.includes(value)) {
				throw paramError(
					`${field} must be one of ${rule.oneOf.join(', ')}; got ${describeValue(value)}`,
				);
			}
			if (rule.type === 'styleOption') checkStyleOption(row, field, rule, value);
			return rule.type === 'image' ? value : undefined;
		case 'textOrInteger':
			if (typeof value !== 'string' && !Number.isInteger(value)) {
				throw paramError(`${field} must be a string or a whole number`);
			}
			return undefined;
		case 'integer': {
			const min = rule.min ?? -Infinity;
			const max = rule.max ?? Infinity;
			if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
				const range = rule.max === undefined ? `of at least ${min}` : `from ${min} to ${rule.max}`;
				throw paramError(`${field} must be an integer ${range}; got ${describeValue(value)}`);
			}
			return undefined;
		}
		case 'objectList': {
			const items = `an array of ${rule.min} to ${rule.max} objects`;
			if (!Array.isArray(value)) throw paramError(`${field} must be ${items}`);
			if (value.length < rule.min || value.length > rule.max) {
				throw paramError(`${field} has ${value.length} items; it must be ${items}`);
			}
			value.forEach((item, index) => {
				if (typeof item !== 'object' || item === null || Array.isArray(item)) {
					throw paramError(`${field}[${index}] must be an object`);
				}
			});
			return undefined;
		}
	}
}

function checkModelType(row: ApiRow, value: unknown): ModelType | undefined {
	const allowed = modelTypesOf(row);
	// An API priced flat shows no modelType: one sent anyway is an unknown field, echoed only.
	if (allowed.length === 0 || value === undefined || value === null) return undefined;
	if (typeof value !== 'string' || !allowed.includes(value as ModelType)) {
		throw paramError(`modelType must be one of ${allowed.join(', ')}; got ${describeValue(value)}`);
	}
	return value as ModelType;
}

interface CheckedRequest {
	modelType: ModelType | undefined;
	/** [field, URL] of every image field given, in the row's order. */
	images: Array<[string, string]>;
	prompt: string | undefined;
}

function checkRequest(row: ApiRow, body: Body): CheckedRequest {
	const images: Array<[string, string]> = [];
	for (const [field, rule] of Object.entries(row.fields)) {
		const value = body[field];
		if (isBlank(value)) {
			if ('required' in rule && rule.required) throw paramError(`${field} is required`);
			continue;
		}
		const url = checkGivenField(row, field, rule, value);
		if (url !== undefined) images.push([field, url]);
	}
	if (row.atLeastOneOf && row.atLeastOneOf.every((field) => isBlank(body[field]))) {
		throw paramError(`${row.atLeastOneOf.join(' or ')} is required: provide at least one of them`);
	}
	const modelType = checkModelType(row, body.modelType);
	// Screened only where the row lists it (and so has checked it is a string).
	const prompt = row.fields.prompt && !isBlank(body.prompt) ? (body.prompt as string) : undefined;
	const priced = modelType ?? ('byModelType' in row.price ? row.price.defaultModelType : undefined);
	if (priced && row.promptRequiredFor?.includes(priced) && prompt === undefined) {
		throw paramError(`prompt is required when modelType is ${priced}`);
	}
	return { modelType, images, prompt };
}

export async function createCatalogTask(
	context: ServiceContext,
	row: ApiRow,
	apiKey: string,
	body: Body,
): Promise<TaskRecord> {
	const { modelType, images, prompt } = checkRequest(row, body);

	const banned = prompt ? findBannedWord(prompt, context.config.bannedWords) : undefined;
	if (banned !== undefined) {
		throw new ServiceError(
			CODE.SCAN_TEXT_ERROR,
			`prompt failed text review (contains "${banned}")`,
		);
	}

	const cost = priceOf(row, modelType);
	requireCredits(context, apiKey, cost);

	// As for the object remover: the format is checked, no size limits (the catalog shows none).
	const loaded = await Promise.all(
		images.map(([field, url]) => loadImage(context, field, url, OBJECT_REMOVER_MAX_BYTES)),
	);

	const urls = images.map(([, url]) => url);
	if (
		[prompt ?? '', ...urls].some((text) =>
			containsPhrase(safeDecode(text), context.config.rejectPhrase),
		)
	) {
		throw new ServiceError(
			CODE.PROHIBITED_CONTENT,
			'generated image content was rejected (PROHIBITED_CONTENT)',
		);
	}

	const sourceAt = images.findIndex(([field]) => field === 'imageUrl');
	const source = sourceAt >= 0 ? loaded[sourceAt] : undefined;
	const output =
		row.result === 'model3d'
			? { width: null, height: null }
			: source
				? { width: source.width, height: source.height }
				: (row.defaultSize ?? SQUARE);
	return createTask(context, apiKey, {
		kind: row.name,
		cost,
		// What was sent, unknown fields included: the real pages do not show every field.
		input: { ...body },
		output,
		// Without an image URL (floor and house plans, AI 3D from text), any text field can carry it.
		triggerTexts: urls.length > 0 ? urls : stringValues(body),
		resultCount: row.result === 'imageWithList' ? context.config.housePlanResults : 1,
	});
}

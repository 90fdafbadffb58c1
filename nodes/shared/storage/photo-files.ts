import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/catalog';
import { fieldError } from '../basics/validation';
import { readImageFile, type ImageField, type ImageFile } from './image-files';

/** How an operation takes its photo files. */
export interface PhotoFileRule {
	/** Several files make one task: the Photo Enhancer's HDR brackets, sent as one list. */
	several: boolean;
	/** The API they are for, where its row is known: the smallest photo it takes (`minImageSize`). */
	api?: IdealHouseApi;
}

export type PhotoFile = ImageFile;

const FIELD = 'Image Binary Property';

const PHOTO_RULES =
	'The service takes JPEG, PNG and WebP photos of at most 20 MB. The file is judged by its bytes, not by its name or MIME type.';

/**
 * The property names in Image Binary Property: a comma list, at least one, one unless the API
 * takes several, and none twice (the same file twice would be uploaded and sent twice).
 */
export function photoPropertyNames(
	ctx: IExecuteSingleFunctions,
	value: unknown,
	rule: PhotoFileRule,
): string[] {
	const names = (typeof value === 'string' ? value : '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (names.length === 0) {
		throw fieldError(
			ctx,
			FIELD,
			'is empty',
			'Name the binary property that holds the photo (e.g. data).',
		);
	}
	if (names.length > 1 && !rule.several) {
		throw fieldError(
			ctx,
			FIELD,
			`names ${names.length} properties, but this API takes one photo per task`,
			'Give one property name.',
		);
	}
	const twice = names.find((name, index) => names.indexOf(name) !== index);
	if (twice !== undefined) {
		throw fieldError(
			ctx,
			FIELD,
			`names "${twice}" more than once`,
			'Name each photo once: every name is a file of its own in the task (the brackets of an HDR merge are different photos).',
		);
	}
	return names;
}

/**
 * The item's photos, each checked before anything leaves n8n (see `readImageFile`), with the
 * smallest size the API takes where its spec gives one.
 */
export async function readPhotoFiles(
	ctx: IExecuteSingleFunctions,
	propertyList: unknown,
	rule: PhotoFileRule,
): Promise<PhotoFile[]> {
	const { api } = rule;
	const photo: ImageField = {
		field: FIELD,
		holds: 'the photo',
		rules: PHOTO_RULES,
		smallest: api?.minImageSize ? { size: api.minImageSize, api: api.label } : undefined,
	};
	const files: PhotoFile[] = [];
	for (const property of photoPropertyNames(ctx, propertyList, rule)) {
		files.push(await readImageFile(ctx, property, photo));
	}
	return files;
}

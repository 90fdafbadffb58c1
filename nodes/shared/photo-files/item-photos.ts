import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/apis';
import { readImageFile, type ImageField, type ImageFile } from './image-files';
import { requireBracketsOfOneSize } from './image-sizes';

export type PhotoFile = ImageFile;

const FIELD = 'Input Binary Field';

const PHOTO_RULES =
	'The service takes JPEG, PNG and WebP photos of at most 20 MB. The file is judged by its bytes, not by its name or MIME type.';

/** The item's photos, each checked (`readImageFile`); several (HDR brackets) of one size. */
export async function readPhotoFiles(
	ctx: IExecuteSingleFunctions,
	properties: string[],
	api: IdealHouseApi,
): Promise<PhotoFile[]> {
	const photo: ImageField = {
		field: FIELD,
		holds: 'the photo',
		rules: PHOTO_RULES,
		smallest: api.minImageSize ? { size: api.minImageSize, api: api.label } : undefined,
	};
	const files: PhotoFile[] = [];
	for (const property of properties) {
		files.push(await readImageFile(ctx, property, photo));
	}
	requireBracketsOfOneSize(ctx, FIELD, files);
	return files;
}

import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { fieldError } from '../core/validation';

// Images of one item that must share a size (a mask and its photo, HDR brackets), checked
// before anything is sent; a photo given by URL is not downloaded: the service judges it.

/** A checked image: its width and height, and the field that gave it as messages name it. */
export interface SizedImage {
	/** `Mask (Base64)`, `Input Binary Field "photo"`. */
	label: string;
	width: number;
	height: number;
}

const sizeText = ({ width, height }: Pick<SizedImage, 'width' | 'height'>) =>
	`${width} × ${height} px`;

const sameSize = (a: SizedImage, b: SizedImage) => a.width === b.width && a.height === b.height;

/** The mask against the item's photo file, when the photo is one: else an item error naming both. */
export function requireMaskOfPhotoSize(
	ctx: IExecuteSingleFunctions,
	mask: SizedImage,
	photo: SizedImage | undefined,
	rules: string,
): void {
	if (!photo || sameSize(mask, photo)) return;
	throw fieldError(
		ctx,
		mask.label,
		`is ${sizeText(mask)}, but the photo (${photo.label}) is ${sizeText(photo)}`,
		rules,
	);
}

/** Several photo files of one task (HDR brackets): one size, else an item error naming each. */
export function requireBracketsOfOneSize(
	ctx: IExecuteSingleFunctions,
	field: string,
	files: ReadonlyArray<SizedImage & { property: string }>,
): void {
	if (files.every((file) => sameSize(file, files[0]))) return;
	const sizes = files.map((file) => `"${file.property}" ${sizeText(file)}`).join(', ');
	throw fieldError(
		ctx,
		field,
		`names photos of different sizes: ${sizes}`,
		'Several files are sent as the brackets of one HDR merge, exposures of one shot: give files of the same width and height.',
	);
}

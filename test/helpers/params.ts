/**
 * Node parameters the tests start from, each test overriding what it is about: one listing photo
 * and one preset for the Photo Enhancer, one room photo for the Object Remover, a download of a
 * finished task for Get Result.
 */
export const LISTING_PHOTO = 'https://photos.example.com/listing/living-room.jpg';
export const LISTING_PRESET = 'sky-replacement-sunset-sky';

/** Photo Enhancer's Enhance operation on one photo URL with one preset, waiting for the result. */
export function enhance(parameters: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		operation: 'enhance',
		imageUrl: LISTING_PHOTO,
		presetId: LISTING_PRESET,
		...parameters,
	};
}

export const ROOM_PHOTO = 'https://photos.example.com/listing/bedroom.jpg';

/** Object Remover's Remove operation on one room photo URL (its mode and mask as the test says). */
export function remove(parameters: Record<string, unknown> = {}): Record<string, unknown> {
	return { operation: 'remove', imageUrl: ROOM_PHOTO, ...parameters };
}

/** Get Result of a task, with its result image downloaded. */
export function downloadResult(taskId: string, options: Record<string, unknown> = {}) {
	return { operation: 'getResult', taskId, options: { downloadResult: true, ...options } };
}

/** Each node's create with its photo from the item's file(s): HDR Merge, Whole House, Virtual Staging. */
export function fromFile(
	node: 'photoEnhancer' | 'objectRemover' | 'idealHouse',
	property = 'photo',
): Record<string, unknown> {
	const photo = { imageSource: 'binary', imageBinaryProperty: property };
	if (node === 'photoEnhancer') {
		return { operation: 'enhance', presetId: 'hdr-merge-hdr-merge', imageSize: '2K', ...photo };
	}
	if (node === 'objectRemover') return { operation: 'remove', emptyType: 'whole_house', ...photo };
	return { resource: 'virtualStaging', operation: 'create', ...photo };
}

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

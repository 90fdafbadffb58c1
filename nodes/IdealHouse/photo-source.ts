import type { INodeProperties } from 'n8n-workflow';

import type { PhotoFileRule } from '../shared/engine/photo-uploads';
import {
	imageBinaryPropertyField,
	imageSourceField,
	onlyForUrlSource,
} from '../shared/descriptions/photo-fields';
import type { Resource } from './resource';

/** The API field a photo file stands in for. */
const PHOTO_FIELD = 'imageUrl';

/** How a resource's Create takes a photo file: only APIs with an `imageUrl` field do. */
export function photoFileRule(resource: Resource): PhotoFileRule | undefined {
	return resource.fields.some((field) => field.name === PHOTO_FIELD)
		? { several: false }
		: undefined;
}

/** Image Source, once for the node: on every Create whose API takes `imageUrl`. */
export function photoSourceField(resources: Resource[]): INodeProperties {
	const withoutPhoto = resources.filter((resource) => !photoFileRule(resource));
	return imageSourceField({
		operation: ['getResult'],
		resource: withoutPhoto.map((resource) => resource.value),
	});
}

/**
 * A resource's fields as the panel shows them: where the API takes `imageUrl`, Image Binary
 * Property replaces the URL when the photo is a file.
 */
export function withPhotoSource(resource: Resource): INodeProperties[] {
	if (!photoFileRule(resource)) return resource.fields;
	const show = { resource: [resource.value], operation: ['create'] };
	return [
		...resource.fields.flatMap((field) =>
			field.name === PHOTO_FIELD
				? [onlyForUrlSource(field), imageBinaryPropertyField(show, false)]
				: [field],
		),
	];
}

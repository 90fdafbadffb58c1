import type { INodeProperties } from 'n8n-workflow';

import { IMAGE_SOURCE } from '../catalog/service';
import type { PhotoFileRule } from '../item-life/settings';
import type { Resource } from './resource';

// Image Source shows by a `hide` rule, on every create whose API takes a photo; Input Binary
// Field and the URL fields it switches by `show` rules of their own.

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;
type Hide = NonNullable<NonNullable<INodeProperties['displayOptions']>['hide']>;

/** Where the photo comes from; shown before the Image URL field it switches, hidden by `hide`. */
function imageSourceField(hide: Hide): INodeProperties {
	return {
		displayName: 'Image Source',
		name: 'imageSource',
		type: 'options',
		// Decides which fields the panel shows: no expression.
		noDataExpression: true,
		// IMAGE_SOURCE.url, written out: n8n's lint reads a default as a literal or a name only.
		default: 'url',
		displayOptions: { hide },
		options: [
			{
				name: 'Binary File',
				value: IMAGE_SOURCE.binary,
				description:
					'The image is a file on the incoming item (form upload, Google Drive, email attachment); Ideal House gets a link to it that expires',
			},
			{
				name: 'URL',
				value: IMAGE_SOURCE.url,
				description: 'The image is at a public URL',
			},
		],
	};
}

function imageBinaryPropertyField({
	show,
	several,
}: {
	/** When its resource's create is shown. */
	show: Show;
	/** Whether several files make one task (the Photo Enhancer's HDR brackets). */
	several: boolean;
}): INodeProperties {
	return {
		displayName: 'Input Binary Field',
		name: 'imageBinaryProperty',
		type: 'string',
		default: 'data',
		hint: 'The name of the input binary field containing the image',
		description: several
			? "Name of the incoming item's binary field that holds the image (JPEG, PNG or WebP, up to 20 MB). Several names separated by commas are sent as one task, e.g. the bracketed exposures of an HDR merge."
			: "Name of the incoming item's binary field that holds the image (JPEG, PNG or WebP, up to 20 MB)",
		displayOptions: { show: { ...show, imageSource: [IMAGE_SOURCE.binary] } },
	};
}

/** A field shown only when the photo comes from a URL. */
function onlyForUrlSource(field: INodeProperties): INodeProperties {
	const show = field.displayOptions?.show ?? {};
	return {
		...field,
		displayOptions: { ...field.displayOptions, show: { ...show, imageSource: [IMAGE_SOURCE.url] } },
	};
}

/** The API field a photo file stands in for, where the resource names no others. */
const PHOTO_FIELD = 'imageUrl';

/** How a resource's create takes a photo file; none for an API without a photo URL. */
export function photoFileRule(resource: Resource): PhotoFileRule | undefined {
	if (resource.photo) return { several: resource.photo.several };
	return resource.fields.some((field) => field.name === PHOTO_FIELD)
		? { several: false }
		: undefined;
}

function photoFieldNames(resource: Resource): string[] {
	return resource.photo?.fields ?? [PHOTO_FIELD];
}

/** Image Source, once for the node, hidden for Get Result and the resources without a photo. */
export function photoSourceFields(resources: Resource[], byResource: boolean): INodeProperties[] {
	const withoutPhoto = resources.filter((resource) => !photoFileRule(resource));
	const hide: Hide = {
		operation: ['getResult'],
		...(byResource ? { resource: withoutPhoto.map((resource) => resource.value) } : {}),
	};
	return [imageSourceField(hide)];
}

/** A resource's fields: its photo URL fields for URL, Input Binary Field after the last of them. */
export function withPhotoSource(resource: Resource, show: Show): INodeProperties[] {
	const rule = photoFileRule(resource);
	if (!rule) return resource.fields;
	const names = photoFieldNames(resource);
	const last = resource.fields.reduce(
		(found, field, index) => (names.includes(field.name) ? index : found),
		-1,
	);
	return resource.fields.flatMap((field, index) => {
		if (!names.includes(field.name)) return [field];
		const urlField = onlyForUrlSource(field);
		return index === last
			? [urlField, imageBinaryPropertyField({ show, several: rule.several })]
			: [urlField];
	});
}

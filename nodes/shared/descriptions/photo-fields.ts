import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { IMAGE_SOURCE, PHOTO_LINK, PHOTO_LINK_VERSION } from '../catalog/api';
import type { PhotoFileRule } from '../item/settings';
import { STORAGE_CREDENTIAL_NAME, UPLOAD_PREFIX } from '../storage/settings';
import type { Resource } from './resource';

/**
 * Why Image Source and Photo Link are placed with `hide` rules only: n8n's editor takes every
 * parameter that a credential's `displayOptions.show` names (here both, which ask for the storage
 * credential) for an authentication field, and leaves out of the panel every parameter that such
 * a field's own `show` names. Shown with `show: { operation }`, Image Source would take Resource
 * and Operation off the panel, and Photo Link shown with `show: { imageSource }` would take Image
 * Source off. Photo Link's `show` names only `@version`, which is no parameter.
 */

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;
type Hide = NonNullable<NonNullable<INodeProperties['displayOptions']>['hide']>;

const STORAGE_CREDENTIAL = { name: STORAGE_CREDENTIAL_NAME };

/** The storage credential, asked for only where a photo file goes through the user's bucket. */
export const storageCredential: INodeCredentialDescription = {
	...STORAGE_CREDENTIAL,
	required: true,
	displayOptions: {
		show: { imageSource: [IMAGE_SOURCE.binary], photoLink: [PHOTO_LINK.bucket] },
	},
};

/** Where the photo comes from; shown before the Image URL field it switches, hidden by `hide`. */
export function imageSourceField(hide: Hide): INodeProperties {
	return {
		displayName: 'Image Source',
		name: 'imageSource',
		type: 'options',
		// Decides whether a file is uploaded and which credential is used: no expression.
		noDataExpression: true,
		// IMAGE_SOURCE.url, written out: n8n's lint reads a default as a literal or a name only.
		default: 'url',
		displayOptions: { hide },
		options: [
			{
				name: 'URL',
				value: IMAGE_SOURCE.url,
				description: 'The photo is at a public URL',
			},
			{
				name: 'Binary File',
				value: IMAGE_SOURCE.binary,
				description:
					'The photo is a file on the incoming item (form upload, Google Drive, email attachment); Ideal House gets a short-lived link to it (see Photo Link)',
			},
		],
	};
}

/**
 * n8n's lint title-cases every word of an option's name, n8n's own name included ("N8n"); named
 * here, the option keeps the spelling n8n gives itself everywhere in its editor.
 */
const THIS_N8N_INSTANCE = 'This n8n Instance';

const PHOTO_LINK_OPTIONS = [
	{
		name: THIS_N8N_INSTANCE,
		value: PHOTO_LINK.n8n,
		description:
			"Ideal House fetches the file through n8n's own signed link, valid for this task only: nothing to set up. n8n must be reachable from the internet (WEBHOOK_URL) and keep binary data out of memory (N8N_DEFAULT_BINARY_DATA_MODE).",
	},
	{
		name: 'Your Bucket (S3-Compatible)',
		value: PHOTO_LINK.bucket,
		description: `The file is uploaded to your own S3-compatible bucket under ${UPLOAD_PREFIX}, Ideal House gets a short-lived link, and it is deleted when the task has ended`,
	},
];

/**
 * Photo Link, shown with Image Source = Binary File: one field per default, by node version, as
 * n8n's own nodes change a default. Version 1 keeps the bucket, so that a saved workflow goes on
 * doing what it did; later versions start on n8n's own link.
 */
export function photoLinkFields(hide: Hide): INodeProperties[] {
	const hidden: Hide = { ...hide, imageSource: [IMAGE_SOURCE.url] };
	return [
		{
			displayName: 'Photo Link',
			name: 'photoLink',
			type: 'options',
			// Decides which credential is used: no expression.
			noDataExpression: true,
			// PHOTO_LINK.bucket, written out: n8n's lint reads a default as a literal or a name only.
			default: 'bucket',
			options: PHOTO_LINK_OPTIONS,
			displayOptions: { show: { '@version': [1] }, hide: hidden },
		},
		{
			displayName: 'Photo Link',
			name: 'photoLink',
			type: 'options',
			noDataExpression: true,
			default: 'n8n',
			options: PHOTO_LINK_OPTIONS,
			displayOptions: {
				show: { '@version': [{ _cnd: { gte: PHOTO_LINK_VERSION } }] },
				hide: hidden,
			},
		},
	];
}

export function imageBinaryPropertyField({
	show,
	several,
}: {
	/** When its resource's create is shown. */
	show: Show;
	/** Whether several files make one task (the Photo Enhancer's HDR brackets). */
	several: boolean;
}): INodeProperties {
	return {
		displayName: 'Image Binary Property',
		name: 'imageBinaryProperty',
		type: 'string',
		default: 'data',
		description: several
			? "Name of the incoming item's binary property that holds the photo (JPEG, PNG or WebP, up to 20 MB). Several names separated by commas are sent as one task, e.g. the bracketed exposures of an HDR merge."
			: "Name of the incoming item's binary property that holds the photo (JPEG, PNG or WebP, up to 20 MB)",
		displayOptions: { show: { ...show, imageSource: [IMAGE_SOURCE.binary] } },
	};
}

/** A field shown only when the photo comes from a URL. */
export function onlyForUrlSource(field: INodeProperties): INodeProperties {
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

/**
 * Image Source and Photo Link, once for the node: on every create whose API takes a photo. On a
 * node of several resources they are hidden for the resources without one.
 */
export function photoSourceFields(resources: Resource[], byResource: boolean): INodeProperties[] {
	const withoutPhoto = resources.filter((resource) => !photoFileRule(resource));
	const hide: Hide = {
		operation: ['getResult'],
		...(byResource ? { resource: withoutPhoto.map((resource) => resource.value) } : {}),
	};
	return [imageSourceField(hide), ...photoLinkFields(hide)];
}

/**
 * A resource's fields as the panel shows them: where the API takes a photo, its URL fields are
 * shown for Image Source = URL, and Image Binary Property follows the last of them for Binary File.
 */
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

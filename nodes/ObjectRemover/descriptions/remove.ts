import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import type { ItemOfCheck } from '../../shared/item-life/path';
import type { ItemParameters } from '../../shared/item-life/settings';
import { fieldError, NOTHING_SENT, requireHttpUrl } from '../../shared/core/validation';
import {
	checkImageBytes,
	imageBase64,
	readImageFile,
	type ImageField,
} from '../../shared/photo-files/image-files';
import { requireMaskOfPhotoSize, type SizedImage } from '../../shared/photo-files/image-sizes';

/** The Remove operation's value, which saved workflows hold. */
const REMOVE = 'remove';
const api = APIS.objectRemover;

/** Removal Mode and Mask Source, as the API and saved workflows spell them. */
const EMPTY_TYPE = { wholeHouse: 'whole_house', singleFurniture: 'single_furniture' } as const;
const MASK_SOURCE = { url: 'url', binary: 'binary', base64: 'base64' } as const;

const MASK_RULES =
	'Black marks what to remove, white what to keep; the mask must have the same width and height as the photo. PNG recommended.';

/** Single Furniture's mask: where it comes from, and the field of each source. */
const maskFields: INodeProperties[] = updateDisplayOptions(
	{ show: { emptyType: [EMPTY_TYPE.singleFurniture] } },
	[
		{
			displayName: 'Mask Source',
			name: 'maskSource',
			type: 'options',
			// Decides which mask field is sent: an expression here would leave n8n unable to tell.
			noDataExpression: true,
			default: 'url',
			description:
				'Where the mask image comes from. Black marks what to remove, white what to keep; it must have the width and height of the image. PNG recommended.',
			options: [
				{ name: 'Base64', value: MASK_SOURCE.base64, description: 'The mask is base64 text' },
				{
					name: 'Binary File',
					value: MASK_SOURCE.binary,
					description: 'The mask is a file on the incoming item (form upload, Google Drive, S3, …)',
				},
				{ name: 'URL', value: MASK_SOURCE.url, description: 'The mask is at a public URL' },
			],
		},
		{
			displayName: 'Mask URL',
			name: 'maskUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/listing/living-room-mask.png',
			description:
				'Public URL of the mask image. Black marks what to remove, white what to keep; same width and height as the image. PNG recommended.',
			displayOptions: { show: { maskSource: [MASK_SOURCE.url] } },
			routing: sentAs('maskUrl'),
		},
		{
			displayName: 'Mask Input Binary Field',
			name: 'maskBinaryProperty',
			type: 'string',
			default: 'data',
			hint: 'The name of the input binary field containing the mask image',
			description:
				"Name of the incoming item's binary field that holds the mask image. Black marks what to remove, white what to keep; same width and height as the image.",
			displayOptions: { show: { maskSource: [MASK_SOURCE.binary] } },
		},
		{
			displayName: 'Mask (Base64)',
			name: 'maskBase64',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description:
				'Base64 of the mask image; a data: prefix is removed. Black marks what to remove, white what to keep; same width and height as the image.',
			displayOptions: { show: { maskSource: [MASK_SOURCE.base64] } },
			routing: sentAs('maskBase64'),
		},
	],
);

/** Sent as the body, after `checkRemoveBody` (at the end) passed. */
const fields: INodeProperties[] = updateDisplayOptions({ show: { operation: [REMOVE] } }, [
	{
		...imageUrlField,
		placeholder: 'e.g. https://example.com/listing/living-room.jpg',
		description: 'Public URL of the image of the interior',
	},
	{
		displayName: 'Removal Mode',
		name: 'emptyType',
		type: 'options',
		default: 'whole_house',
		description: 'What to remove: all furniture, or only what a mask marks',
		options: [
			{
				name: 'Single Furniture',
				value: EMPTY_TYPE.singleFurniture,
				description: 'Remove only what a mask marks',
			},
			{
				name: 'Whole House',
				value: EMPTY_TYPE.wholeHouse,
				description: 'Remove all furniture from the room automatically; no mask needed',
			},
		],
		routing: sentAs('emptyType'),
	},
	...maskFields,
]);

/** A mask's own checks: the photo's, with no smallest size (the spec gives none for a mask). */
const maskImage = (field: string): ImageField => ({
	field,
	holds: 'the mask image',
	rules: MASK_RULES,
});

/**
 * Plain base64 of the mask: a pasted `data:image/png;base64,` prefix and line breaks are dropped.
 * Checked, and of the photo file's size when the photo is one.
 */
function maskFromBase64(
	ctx: IExecuteSingleFunctions,
	value: unknown,
	photo: SizedImage | undefined,
): string {
	const text =
		typeof value === 'string'
			? value
					.trim()
					.replace(/^data:[^,]*;base64,/i, '')
					.replace(/\s+/g, '')
			: '';
	if (text === '') throw fieldError(ctx, 'Mask (Base64)', 'is empty', MASK_RULES);
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 === 1) {
		throw fieldError(
			ctx,
			'Mask (Base64)',
			'is not valid base64',
			`Paste the mask image's bytes as base64 (a data:image/png;base64, prefix may stay), or choose another 'Mask Source'. ${NOTHING_SENT}`,
		);
	}
	const mask = checkImageBytes(ctx, Buffer.from(text, 'base64'), maskImage('Mask (Base64)'));
	requireMaskOfPhotoSize(ctx, mask, photo, MASK_RULES);
	return text;
}

/**
 * The item's own file, read through n8n's binary helpers (inline, filesystem or S3 storage):
 * checked as it streams, compared with the photo file's size when the photo is one, then read
 * once more as the base64 the API takes.
 */
async function maskFromBinary(
	ctx: IExecuteSingleFunctions,
	parameters: ItemParameters,
	photo: SizedImage | undefined,
): Promise<string> {
	const property = parameters.text('maskBinaryProperty', 'data');
	const image = maskImage('Mask Input Binary Field');
	const mask = await readImageFile(ctx, property, image);
	requireMaskOfPhotoSize(ctx, mask, photo, MASK_RULES);
	return await imageBase64(ctx, mask, image);
}

/**
 * Validates the photo URL and the mask before anything is charged, and sends exactly one mask
 * field for Single Furniture (none for Whole House, whatever the hidden fields hold).
 */
async function checkRemoveBody(
	this: IExecuteSingleFunctions,
	source: IDataObject,
	{ parameters, photos }: ItemOfCheck,
): Promise<IDataObject> {
	const emptyType = parameters.choice(
		'emptyType',
		'Removal Mode',
		Object.values(EMPTY_TYPE),
		EMPTY_TYPE.wholeHouse,
	);
	const body: IDataObject = {
		imageUrl: requireHttpUrl(this, 'Image URL', source.imageUrl),
		emptyType,
	};
	if (emptyType === EMPTY_TYPE.wholeHouse) return body;
	const maskSource = parameters.choice(
		'maskSource',
		'Mask Source',
		Object.values(MASK_SOURCE),
		MASK_SOURCE.url,
	);
	if (maskSource === MASK_SOURCE.binary) {
		body.maskBase64 = await maskFromBinary(this, parameters, photos?.[0]);
	} else if (maskSource === MASK_SOURCE.base64) {
		body.maskBase64 = maskFromBase64(this, source.maskBase64, photos?.[0]);
	} else {
		body.maskUrl = requireHttpUrl(this, 'Mask URL', source.maskUrl);
	}
	return body;
}

/** The Object Remover's one API, as its node serves it. */
export const objectRemover: Resource = {
	value: 'objectRemover',
	name: 'Object Remover',
	description: `Remove furniture from an interior photo (${priceText(api)})`,
	api,
	operation: {
		name: 'Remove Objects',
		value: REMOVE,
		action: 'Remove objects from photo',
		description: `Create a removal task that takes furniture out of an interior photo (${priceText(api)}, refunded if it fails)`,
	},
	task: 'removal',
	fields,
	bodyCheck: checkRemoveBody,
	tool: {
		does: 'Removes furniture from an interior real-estate photo with Ideal House AI and returns the emptied room.',
		inputs: 'the public URL of the photo (JPG, PNG or WebP)',
		more: 'Whole House mode removes all furniture automatically; Single Furniture mode removes only what a mask image marks (black = remove, white = keep, same size as the photo).',
	},
	resultTool: 'furniture removal',
};

import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { fieldError, requireHttpUrl } from '../../shared/basics/validation';
import {
	checkImageBytes,
	imageBase64,
	readImageFile,
	type ImageField,
} from '../../shared/storage/image-files';
import { REMOVAL_RESULT_TOOL_DESCRIPTION, REMOVE_TOOL_DESCRIPTION } from '../toolDescriptions';

/** The Remove operation's value, which saved workflows hold. */
export const REMOVE = 'remove';
const api = APIS.objectRemover;

const MASK_RULES =
	'Black marks what to remove, white what to keep; the mask must have the same width and height as the photo. PNG recommended.';

/** Single Furniture's mask: where it comes from, and the field of each source. */
const maskFields: INodeProperties[] = updateDisplayOptions(
	{ show: { emptyType: ['single_furniture'] } },
	[
		{
			displayName: 'Mask Source',
			name: 'maskSource',
			type: 'options',
			// Decides which mask field is sent: an expression here would leave n8n unable to tell.
			noDataExpression: true,
			default: 'url',
			description: MASK_RULES,
			options: [
				{ name: 'URL', value: 'url', description: 'The mask is at a public URL' },
				{
					name: 'Binary Property',
					value: 'binary',
					description: 'The mask is a file on the incoming item (form upload, Google Drive, S3, …)',
				},
				{ name: 'Base64', value: 'base64', description: 'The mask is base64 text' },
			],
		},
		{
			displayName: 'Mask URL',
			name: 'maskUrl',
			type: 'string',
			default: '',
			placeholder: 'https://example.com/listing/living-room-mask.png',
			description:
				'Public URL of the mask image. Black marks what to remove, white what to keep; same width and height as the photo. PNG recommended.',
			displayOptions: { show: { maskSource: ['url'] } },
			routing: sentAs('maskUrl'),
		},
		{
			displayName: 'Mask Binary Property',
			name: 'maskBinaryProperty',
			type: 'string',
			default: 'data',
			description:
				"Name of the incoming item's binary property that holds the mask file. Black marks what to remove, white what to keep; same width and height as the photo.",
			displayOptions: { show: { maskSource: ['binary'] } },
		},
		{
			displayName: 'Mask (Base64)',
			name: 'maskBase64',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description:
				'Base64 of the mask image; a data: prefix is removed. Black marks what to remove, white what to keep; same width and height as the photo.',
			displayOptions: { show: { maskSource: ['base64'] } },
			routing: sentAs('maskBase64'),
		},
	],
);

/** Sent as the body, after `checkRemoveBody` (at the end) passed. */
const fields: INodeProperties[] = updateDisplayOptions({ show: { operation: [REMOVE] } }, [
	{
		...imageUrlField,
		placeholder: 'https://example.com/listing/living-room.jpg',
		description: 'Public URL of the interior photo',
	},
	{
		displayName: 'Removal Mode',
		name: 'emptyType',
		type: 'options',
		default: 'whole_house',
		description: 'What to remove: all furniture, or only what a mask marks',
		options: [
			{
				name: 'Whole House',
				value: 'whole_house',
				description: 'Remove all furniture from the room automatically; no mask needed',
			},
			{
				name: 'Single Furniture',
				value: 'single_furniture',
				description: 'Remove only what a mask marks',
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

/** Plain base64 of the mask: a pasted `data:image/png;base64,` prefix and line breaks are dropped. */
function maskFromBase64(ctx: IExecuteSingleFunctions, value: unknown): string {
	const text =
		typeof value === 'string'
			? value
					.trim()
					.replace(/^data:[^,]*;base64,/i, '')
					.replace(/\s+/g, '')
			: '';
	if (text === '') throw fieldError(ctx, 'Mask (Base64)', 'is empty', MASK_RULES);
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 === 1) {
		throw fieldError(ctx, 'Mask (Base64)', 'is not valid base64');
	}
	checkImageBytes(ctx, Buffer.from(text, 'base64'), maskImage('Mask (Base64)'));
	return text;
}

/**
 * The item's own file, read through n8n's binary helpers (inline, filesystem or S3 storage):
 * checked as it streams, then read once more as the base64 the API takes.
 */
async function maskFromBinary(ctx: IExecuteSingleFunctions): Promise<string> {
	const property = String(ctx.getNodeParameter('maskBinaryProperty', 'data')).trim();
	const image = maskImage('Mask Binary Property');
	return await imageBase64(ctx, await readImageFile(ctx, property, image), image);
}

/**
 * Validates the photo URL and the mask before anything is charged, and sends exactly one mask
 * field for Single Furniture (none for Whole House, whatever the hidden fields hold).
 */
export async function checkRemoveBody(
	this: IExecuteSingleFunctions,
	source: IDataObject,
): Promise<IDataObject> {
	const emptyType = this.getNodeParameter('emptyType', 'whole_house') as string;
	const body: IDataObject = {
		imageUrl: requireHttpUrl(this, 'Image URL', source.imageUrl),
		emptyType,
	};
	if (emptyType === 'single_furniture') {
		const maskSource = this.getNodeParameter('maskSource', 'url') as string;
		if (maskSource === 'binary') {
			body.maskBase64 = await maskFromBinary(this);
		} else if (maskSource === 'base64') {
			body.maskBase64 = maskFromBase64(this, source.maskBase64);
		} else {
			body.maskUrl = requireHttpUrl(this, 'Mask URL', source.maskUrl);
		}
	} else if (emptyType !== 'whole_house') {
		throw fieldError(
			this,
			'Removal Mode',
			`must be whole_house or single_furniture (got "${emptyType}")`,
		);
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
		name: 'Remove',
		value: REMOVE,
		action: 'Remove furniture from a photo',
		description: `Create a removal task (${priceText(api)}, refunded if it fails)`,
	},
	getResultAction: 'Get the result of a removal task',
	fields,
	bodyCheck: checkRemoveBody,
	toolDescription: REMOVE_TOOL_DESCRIPTION,
	resultToolDescription: REMOVAL_RESULT_TOOL_DESCRIPTION,
};

import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { bounded } from '../../shared/core/redact';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import type { ItemOfCheck } from '../../shared/item-life/path';
import {
	fieldError,
	NOTHING_SENT,
	requireHttpUrl,
	requireOneOf,
} from '../../shared/core/validation';
import { HDR_MERGE_PRESET_ID, PRESET_CATEGORIES, PRESETS } from '../presets';
import { describePreset, lookUpPreset } from '../presetLookup';

/** The Enhance operation's value, which saved workflows hold. */
export const ENHANCE = 'enhance';
const api = APIS.photoEnhancer;

const SEVERAL_URLS_HINT =
	'Give one URL per entry. To send several photos as one task, choose "Several Image URLs" under Images and add each URL, or use an expression that returns a list of URLs.';
export const IMAGE_SIZES = ['512', '1K', '2K', '4K'] as const;

/** Images: one URL field (which may give a list), or several typed by hand. Saved workflows hold these. */
const IMAGE_INPUT = { one: 'url', several: 'urls' } as const;

/** Images, Image URL and Image URLs: the photos when they come from URLs. */
const URL_FIELDS = ['imageInput', 'imageUrl', 'imageUrls'];

/** Sent as the body, after `checkEnhanceBody` (at the end) passed. */
const fields: INodeProperties[] = updateDisplayOptions({ show: { operation: [ENHANCE] } }, [
	{
		displayName: 'Images',
		name: 'imageInput',
		type: 'options',
		// Decides which field is sent: an expression here would leave n8n unable to tell.
		noDataExpression: true,
		default: 'url',
		options: [
			{
				name: 'One Image URL',
				value: IMAGE_INPUT.one,
				description: 'One URL, or an expression that returns a list of URLs',
			},
			{
				name: 'Several Image URLs',
				value: IMAGE_INPUT.several,
				description: 'Type several URLs by hand, e.g. the bracketed exposures of an HDR merge',
			},
		],
	},
	{
		...imageUrlField,
		placeholder: 'e.g. https://example.com/listing/living-room.jpg',
		description:
			'Public URL of the image (JPG, PNG or WebP, up to 20 MB, 128–6,000 px). An expression may return a list of URLs; it is sent as a list.',
		displayOptions: { show: { imageInput: [IMAGE_INPUT.one] } },
	},
	{
		displayName: 'Image URLs',
		name: 'imageUrls',
		type: 'string',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Image URL' },
		default: [],
		placeholder: 'e.g. https://example.com/listing/bracket-1.jpg',
		description:
			'Public URLs of the images, sent together as one task (designed for the HDR Merge preset)',
		displayOptions: { show: { imageInput: [IMAGE_INPUT.several] } },
		// The API's one photo field takes a list as well.
		routing: sentAs('imageUrl'),
	},
	{
		displayName: 'Preset Name or ID',
		name: 'presetId',
		type: 'options',
		default: '',
		description:
			'Editing style to apply. Type to search, e.g. "sunset". HDR Merge is the preset for bracketed exposures (several images). Leave empty to use only the prompt.',
		options: [
			{ name: 'None (Prompt Only)', value: '' },
			// By name, as n8n lists options; the search box finds a preset by any word of it.
			...PRESETS.map(({ id, name }) => ({ name, value: id })).sort((a, b) =>
				a.name.localeCompare(b.name),
			),
		],
		routing: sentAs('presetId'),
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. Brighten the room and make the sky clear blue',
		description:
			'What to change, in your own words. Required when no preset is chosen; may be combined with one.',
		routing: sentAs('prompt'),
	},
	{
		displayName: 'Image Size',
		name: 'imageSize',
		type: 'options',
		default: '4K',
		description: 'Size of the result image (long edge)',
		options: IMAGE_SIZES.map((size) => ({ name: size, value: size })),
		routing: sentAs('imageSize'),
	},
]);

/**
 * The preset id for what the item gives: an id as is, or a unique preset name (as a model or an
 * expression may write it). Ambiguous or unknown text fails here, before anything is charged.
 */
function requirePreset(ctx: IExecuteSingleFunctions, value: unknown): string {
	if (typeof value !== 'string') {
		throw fieldError(
			ctx,
			'Preset Name or ID',
			`must be a preset ID or name, not ${typeof value}`,
			`Choose a preset from the list, or give its ID or name as text. ${NOTHING_SENT}`,
		);
	}
	const lookup = lookUpPreset(value);
	if (lookup.found) return lookup.id;
	const listed = lookup.candidates.map(describePreset).join('; ');
	if (lookup.reason === 'ambiguous') {
		throw fieldError(
			ctx,
			'Preset Name or ID',
			`"${bounded(value, 100)}" matches several presets: ${listed}`,
			'Give the full name (Category: Name) or the ID of the one you mean.',
		);
	}
	throw fieldError(
		ctx,
		'Preset Name or ID',
		`"${bounded(value, 100)}" is not a known preset${listed ? `. Close matches: ${listed}` : ''}`,
		'Pick a preset from the list, or give its ID (e.g. sky-replacement-sunset-sky) or its name (e.g. "Sky Replacement: Sunset Sky").',
	);
}

/**
 * Validates and tidies the body the fields below produced, before anything is charged: one URL
 * or a list of absolute http(s) URLs, a known preset and/or a prompt, an allowed size.
 */
async function checkEnhanceBody(
	this: IExecuteSingleFunctions,
	body: IDataObject,
	{ parameters }: ItemOfCheck,
): Promise<IDataObject> {
	const several = parameters.text('imageInput', IMAGE_INPUT.one) === IMAGE_INPUT.several;
	const field = several ? 'Image URLs' : 'Image URL';

	if (Array.isArray(body.imageUrl)) {
		// Numbered as the user sees the list, blanks included; blanks are then left out.
		const urls = body.imageUrl
			.map((url, index) => ({ url, number: index + 1 }))
			.filter(({ url }) => !(typeof url === 'string' && url.trim() === ''));
		if (urls.length === 0) throw fieldError(this, field, 'is empty', 'Add at least one image URL.');
		body.imageUrl = urls.map(({ url, number }) =>
			requireHttpUrl(this, `${field} #${number}`, url, SEVERAL_URLS_HINT),
		);
	} else {
		body.imageUrl = requireHttpUrl(this, field, body.imageUrl, SEVERAL_URLS_HINT);
	}

	const presetId = typeof body.presetId === 'string' ? body.presetId.trim() : body.presetId;
	const prompt = typeof body.prompt === 'string' ? body.prompt.trim() : body.prompt;
	if (presetId) {
		body.presetId = requirePreset(this, presetId);
	} else {
		delete body.presetId;
	}
	if (prompt) {
		if (typeof prompt !== 'string') {
			throw fieldError(this, 'Prompt', 'must be text', `Write the prompt as text. ${NOTHING_SENT}`);
		}
		body.prompt = prompt;
	} else {
		delete body.prompt;
	}
	if (!body.presetId && !body.prompt) {
		throw fieldError(
			this,
			'Preset Name or ID',
			"and 'Prompt' are both empty: choose a preset, write a prompt, or both",
			'The service needs at least one of them to know what to do with the photo.',
		);
	}
	// An expression that yields nothing is a mistake to show, not a reason to pay for 4K.
	body.imageSize = requireOneOf(this, 'Image Size', body.imageSize, IMAGE_SIZES);

	if (
		Array.isArray(body.imageUrl) &&
		body.imageUrl.length > 1 &&
		body.presetId !== HDR_MERGE_PRESET_ID
	) {
		this.logger.warn(
			`Item ${this.getItemIndex()}: ${body.imageUrl.length} images sent without the HDR Merge preset; the service recommends one image per task for other presets.`,
		);
	}
	return body;
}

/** The Photo Enhancer's one API, as its node serves it. */
/** Every preset name by category, so that a model can pick one by name without a further lookup. */
const PRESET_NAMES = PRESET_CATEGORIES.map(
	(category) => `${category.name}: ${category.presets.map(([, name]) => name).join(', ')}.`,
).join(' ');

export const photoEnhancer: Resource = {
	value: 'photoEnhancer',
	name: 'Photo Enhancer',
	description: `Enhance a real-estate photo with a preset or a prompt (${priceText(api)})`,
	api,
	operation: {
		name: 'Enhance Photo',
		value: ENHANCE,
		action: 'Enhance photo',
		description: `Create an enhancement task for a real-estate photo (${priceText(api)}, refunded if it fails)`,
	},
	task: 'enhancement',
	fields,
	bodyCheck: checkEnhanceBody,
	photo: { fields: URL_FIELDS, several: true },
	tool: {
		does: 'Enhances a real-estate photo with Ideal House AI and returns the finished image.',
		inputs: 'the public URL of the photo (JPG, PNG or WebP); a preset, a prompt, or both',
		more: [
			'The preset may be given by name ("Sunset Sky", or "Sky Replacement: Sunset Sky" when the name is in several categories) or by ID (sky-replacement-sunset-sky); "HDR Merge" is for several bracketed exposures.',
			'The prompt says in plain words what to change; it is reviewed, and a prompt that fails review must be rephrased.',
			"Ideal House's public price page lists 20 credits for 4K results (the default size), so the account statement may show 20.",
			`Presets by category. ${PRESET_NAMES}`,
		].join(' '),
		cost: `${priceText(api)} by the API specification`,
	},
	resultTool: 'photo enhancement',
};

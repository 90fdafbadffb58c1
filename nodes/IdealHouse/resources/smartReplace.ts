import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.smartReplace;
const displayOptions = { show: { resource: ['smartReplace'], operation: ['create'] } };

export const smartReplace: Resource = {
	value: 'smartReplace',
	name: 'Smart Replace',
	description: `Regenerate the part of an image a mask marks (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		imageUrlField,
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What to put where the mask is black',
			routing: sentAs('prompt'),
		},
	]),
	toolDescription: `Regenerates the masked part of a real-estate photo with Ideal House AI. Inputs: imageUrl (public URL), prompt (what to put in the masked area); the mask goes in the extra body fields, under the name Ideal House's documentation gives (black = regenerate, white = keep, same size as the photo). Cost: ${priceText(api)}, refunded if the task fails. Returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { fieldError } from '../../shared/core/validation';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.ai3d;
const displayOptions = { show: { resource: ['ai3d'], operation: ['create'] } };

export const ai3d: Resource = {
	value: 'ai3d',
	name: 'AI 3D',
	description: `Make a 3D model from an image or a description (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{
			...imageUrlField,
			// Optional here: a prompt alone is enough (see `own`).
			required: false,
			description: 'Public URL of the image to model. Give this, a prompt, or both.',
		},
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What to model, in words. Give this, an image URL, or both.',
			routing: sentAs('prompt'),
		},
	]),
	own(body) {
		if (body.imageUrl === undefined && body.prompt === undefined) {
			throw fieldError(
				this,
				'Image URL',
				"and 'Prompt' are both empty: give an image URL, a prompt, or both",
				'The service needs at least one of them to know what to model.',
			);
		}
	},
	toolDescription: `Makes a 3D model (a file such as GLB) with Ideal House AI from an image or a text description. Inputs: imageUrl (public URL of an image) or prompt, or both. Cost: ${priceText(api)}, refunded if the task fails. Ideal House runs one AI 3D task at a time per account, so the wait can be long when several are queued. Returns JSON {id, status, resultUrl, width, height, creditsCharged}; resultUrl is the model file.`,
};

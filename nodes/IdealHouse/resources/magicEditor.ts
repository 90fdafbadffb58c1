import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { fieldError } from '../../shared/core/validation';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { modelTypeField } from '../fields';

const api = APIS.magicEditor;
const displayOptions = { show: { resource: ['magicEditor'], operation: ['create'] } };

export const magicEditor: Resource = {
	value: 'magicEditor',
	name: 'Magic Editor',
	description: `Edit an image as a prompt says (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the image to edit' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What to change. Required with the Base model; optional with Flash and Pro.',
			routing: sentAs('prompt'),
		},
		modelTypeField(api),
	]),
	own(body) {
		// Ideal House's page: the Base model needs a prompt, Flash and Pro do not.
		if (body.modelType === 'Base' && body.prompt === undefined) {
			throw fieldError(
				this,
				'Prompt',
				'is required with the Base model',
				'Write what to change, or choose Flash or Pro.',
			);
		}
	},
	toolDescription: `Edits a real-estate photo with Ideal House AI as a prompt describes and returns the edited image. Inputs: imageUrl (public URL of the image), prompt (what to change; required with modelType Base). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

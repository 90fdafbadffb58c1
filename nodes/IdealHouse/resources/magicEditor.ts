import { fieldError } from '../../shared/core/validation';
import { imageUrlField, promptField } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField } from '../fields';

export const magicEditor: Resource = catalogResource('magicEditor', {
	does: 'Edit an image as a prompt says',
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the image to edit' },
		{
			...promptField,
			description: 'What to change. Required with the Base model; optional with Flash and Pro.',
		},
		modelTypeField(api),
	],
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
	tool: {
		does: 'Edits a real-estate photo with Ideal House AI as a prompt describes and returns the edited image.',
		inputs:
			'imageUrl (public URL of the image), prompt (what to change; required with modelType Base)',
	},
});

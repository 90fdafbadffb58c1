import { fieldError } from '../../shared/core/validation';
import { imageUrlField, promptField } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource } from '../fields';

export const ai3d: Resource = catalogResource('ai3d', {
	does: 'Make a 3D model from an image or a description',
	fields: [
		{
			...imageUrlField,
			// Optional here: a prompt alone is enough (see `own`).
			required: false,
			description: 'Public URL of the image to model. Give this, a prompt, or both.',
		},
		{ ...promptField, description: 'What to model, in words. Give this, an image URL, or both.' },
	],
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
	tool: {
		does: 'Makes a 3D model (a file such as GLB) with Ideal House AI from an image or a text description.',
		inputs: 'imageUrl (public URL of an image) or prompt, or both',
		more: 'Ideal House runs one AI 3D task at a time per account, so the wait can be long when several are queued. resultUrl is the model file.',
	},
});

import { imageUrlField, promptField } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource } from '../fields';

export const smartReplace: Resource = catalogResource('smartReplace', {
	does: 'Regenerate the part of an image a mask marks',
	fields: [imageUrlField, { ...promptField, description: 'What to put where the mask is black' }],
	tool: {
		does: 'Regenerates the masked part of a real-estate photo with Ideal House AI.',
		inputs:
			"imageUrl (public URL), prompt (what to put in the masked area); the mask goes in the extra body fields, under the name Ideal House's documentation gives (black = regenerate, white = keep, same size as the photo)",
	},
});

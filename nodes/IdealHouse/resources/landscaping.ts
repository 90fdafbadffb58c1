import { imageUrlField, promptField } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField, styleField } from '../fields';

export const landscaping: Resource = catalogResource('landscaping', {
	does: 'Redesign a garden or yard',
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the image of the garden or yard' },
		{ ...promptField, description: 'What the garden should look like' },
		styleField(api, {
			label: 'Garden Style Name or ID',
			sentAs: 'sceneId',
			group: 'gardenStyle',
			what: 'The garden style',
		}),
		styleField(api, {
			label: 'Garden Element Names or IDs',
			sentAs: 'sceneElementId',
			group: 'elements',
			what: 'Elements to add to the garden',
			several: true,
		}),
		modelTypeField(api),
	],
	tool: {
		does: 'Redesigns the garden or yard in a real-estate photo with Ideal House AI and returns the landscaped image.',
		inputs: 'imageUrl (public URL of the outdoor photo), optional prompt',
	},
});

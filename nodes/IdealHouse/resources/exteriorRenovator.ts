import {
	imageUrlField,
	PHOTO_PLACEHOLDER,
	promptField,
	sentAs,
} from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource } from '../fields';

export const exteriorRenovator: Resource = catalogResource('exteriorRenovator', {
	does: "Restyle a building's exterior",
	fields: [
		{ ...imageUrlField, description: 'Public URL of the image of the exterior to restyle' },
		{ ...promptField, description: 'What the renovated exterior should look like' },
		{
			displayName: 'Reference Image URL',
			name: 'referenceUrl',
			type: 'string',
			default: '',
			placeholder: PHOTO_PLACEHOLDER,
			description: 'Public URL of an image whose style to follow',
			routing: sentAs('referenceUrl'),
		},
		{
			displayName: 'Building Style ID',
			name: 'buildingStyleId',
			type: 'string',
			default: '',
			description:
				"ID of a building style (Ideal House's pages do not publish the list; leave empty for the service's choice)",
			routing: sentAs('buildingStyleId'),
		},
	],
	tool: {
		does: 'Renovates the exterior of a building in a real-estate photo with Ideal House AI and returns the restyled image.',
		inputs:
			'imageUrl (public URL of the exterior photo), optional prompt, optional referenceUrl (an image whose style to follow)',
	},
});

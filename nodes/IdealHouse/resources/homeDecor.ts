import {
	imageUrlField,
	PHOTO_PLACEHOLDER,
	promptField,
	sentAs,
} from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField, styleField } from '../fields';

export const homeDecor: Resource = catalogResource('homeDecor', {
	does: 'Decorate a room in a chosen style',
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the image of the interior' },
		{
			displayName: 'Reference Image URL',
			name: 'referenceUrl',
			type: 'string',
			default: '',
			placeholder: PHOTO_PLACEHOLDER,
			description: 'Public URL of an image whose decor style to follow',
			routing: sentAs('referenceUrl'),
		},
		styleField(api, {
			label: 'Space Type Name or ID',
			sentAs: 'spaceStyleId',
			group: 'spaceType',
			what: 'The kind of space',
		}),
		styleField(api, {
			label: 'Decor Style Name or ID',
			sentAs: 'homeDecorStyleId',
			group: 'decorStyle',
			what: 'The decor style',
		}),
		{ ...promptField, description: 'Decor guidance, in your own words' },
		modelTypeField(api),
	],
	tool: {
		does: 'Decorates a room in a real-estate photo with Ideal House AI and returns the decorated image.',
		inputs:
			'imageUrl (public URL of the interior photo), optional referenceUrl (an image whose decor style to follow), optional prompt',
	},
});

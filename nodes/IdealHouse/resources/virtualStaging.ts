import { imageUrlField, promptField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource } from '../fields';

const ROOM = 'Interior Design_Interior Scene_';

export const virtualStaging: Resource = catalogResource('virtualStaging', {
	does: 'Furnish an empty or partly furnished room',
	fields: [
		{
			...imageUrlField,
			description: 'Public URL of the image of the room, empty or partly furnished',
		},
		{ ...promptField, description: 'Style and furnishing guidance, in your own words' },
		{
			displayName: 'Room Type',
			name: 'indoorTypeId',
			type: 'options',
			default: '',
			description: 'The kind of room to furnish',
			// The four room types Ideal House's Virtual Staging page prints.
			options: [
				{ name: 'Service Default', value: '' },
				{ name: 'Bedroom', value: `${ROOM}Bed Room` },
				{ name: 'Dining Room', value: `${ROOM}Dining Room` },
				{ name: 'Home Office', value: `${ROOM}Home Office` },
				{ name: 'Living Room', value: `${ROOM}Living Room` },
			],
			routing: sentAs('indoorTypeId'),
		},
		{
			displayName: 'Indoor Style ID',
			name: 'indoorStyleId',
			type: 'string',
			default: '',
			description:
				'ID of an interior style from Ideal House\'s "Indoor Style Options" list (not published in full; leave empty for the service\'s choice)',
			routing: sentAs('indoorStyleId'),
		},
	],
	tool: {
		does: 'Virtually stages a real-estate room photo with Ideal House AI: furnishes an empty or partly furnished room and returns the staged image.',
		inputs:
			'imageUrl (public URL of the room photo), optional prompt (style and furnishing guidance), optional room type',
	},
});

import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.virtualStaging;
const displayOptions = { show: { resource: ['virtualStaging'], operation: ['create'] } };
const ROOM = 'Interior Design_Interior Scene_';

export const virtualStaging: Resource = {
	value: 'virtualStaging',
	name: 'Virtual Staging',
	description: `Furnish an empty or partly furnished room (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{
			...imageUrlField,
			description: 'Public URL of the image of the room, empty or partly furnished',
		},
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Style and furnishing guidance, in your own words',
			routing: sentAs('prompt'),
		},
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
	]),
	toolDescription: `Virtually stages a real-estate room photo with Ideal House AI: furnishes an empty or partly furnished room and returns the staged image. Inputs: imageUrl (public URL of the room photo), optional prompt (style and furnishing guidance), optional room type. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result (usually under a minute) and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

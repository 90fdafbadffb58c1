import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { styleList } from '../fields';

const api = APIS.changeFurniture;
const displayOptions = { show: { resource: ['changeFurniture'], operation: ['create'] } };

export const changeFurniture: Resource = {
	value: 'changeFurniture',
	name: 'Change Furniture',
	description: `Replace a room's furniture in another style (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the image of the interior' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What the new furniture should look like',
			routing: sentAs('prompt'),
		},
		{
			displayName: 'Room Type Name or ID',
			name: 'indoorTypeId',
			type: 'options',
			default: '',
			description:
				'The kind of room. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'roomType'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('indoorTypeId'),
		},
		{
			displayName: 'Style Name or ID',
			name: 'indoorStyleId',
			type: 'options',
			default: '',
			description:
				'The furniture style. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'style'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('indoorStyleId'),
		},
		{
			displayName: 'Element Names or IDs',
			name: 'indoorElemId',
			type: 'multiOptions',
			default: [],
			description:
				'Pieces to change. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'elements'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('indoorElemId'),
		},
	]),
	toolDescription: `Replaces the furniture in a real-estate room photo with Ideal House AI and returns the refurnished image. Inputs: imageUrl (public URL of the interior photo), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

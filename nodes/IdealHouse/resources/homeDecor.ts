import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { PHOTO_PLACEHOLDER, imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { modelTypeField, styleList } from '../fields';

const api = APIS.homeDecor;
const displayOptions = { show: { resource: ['homeDecor'], operation: ['create'] } };

export const homeDecor: Resource = {
	value: 'homeDecor',
	name: 'Home Decor',
	description: `Decorate a room in a chosen style (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
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
		{
			displayName: 'Space Type Name or ID',
			name: 'spaceStyleId',
			type: 'options',
			default: '',
			description:
				'The kind of space. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'spaceType'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('spaceStyleId'),
		},
		{
			displayName: 'Decor Style Name or ID',
			name: 'homeDecorStyleId',
			type: 'options',
			default: '',
			description:
				'The decor style. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'decorStyle'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('homeDecorStyleId'),
		},
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Decor guidance, in your own words',
			routing: sentAs('prompt'),
		},
		modelTypeField(api),
	]),
	toolDescription: `Decorates a room in a real-estate photo with Ideal House AI and returns the decorated image. Inputs: imageUrl (public URL of the interior photo), optional referenceUrl (an image whose decor style to follow), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

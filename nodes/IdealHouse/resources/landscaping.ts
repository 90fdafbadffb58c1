import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { modelTypeField, styleList } from '../fields';

const api = APIS.landscaping;
const displayOptions = { show: { resource: ['landscaping'], operation: ['create'] } };

export const landscaping: Resource = {
	value: 'landscaping',
	name: 'Landscaping',
	description: `Redesign a garden or yard (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the image of the garden or yard' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What the garden should look like',
			routing: sentAs('prompt'),
		},
		{
			displayName: 'Garden Style Name or ID',
			name: 'sceneId',
			type: 'options',
			default: '',
			description:
				'The garden style. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'gardenStyle'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('sceneId'),
		},
		{
			displayName: 'Garden Element Names or IDs',
			name: 'sceneElementId',
			type: 'multiOptions',
			default: [],
			description:
				'Elements to add to the garden. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'elements'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('sceneElementId'),
		},
		modelTypeField(api),
	]),
	toolDescription: `Redesigns the garden or yard in a real-estate photo with Ideal House AI and returns the landscaped image. Inputs: imageUrl (public URL of the outdoor photo), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

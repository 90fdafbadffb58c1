import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { modelTypeField, styleList } from '../fields';

const api = APIS.planVisualizer;
const displayOptions = { show: { resource: ['planVisualizer'], operation: ['create'] } };

export const planVisualizer: Resource = {
	value: 'planVisualizer',
	name: 'Plan Visualizer',
	description: `Turn a floor plan into a rendered view (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the floor plan image' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Guidance for the rendering, in your own words',
			routing: sentAs('prompt'),
		},
		{
			displayName: 'Plan Type Name or ID',
			name: 'planStyleId',
			type: 'options',
			default: '',
			description:
				'The kind of plan. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'planType'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('planStyleId'),
		},
		{
			displayName: 'Style Name or ID',
			name: 'styleId',
			type: 'options',
			default: '',
			description:
				'The rendering style. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'style'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('styleId'),
		},
		{
			displayName: 'View Name or ID',
			name: 'viewId',
			type: 'options',
			default: '',
			description:
				'The camera view. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'view'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('viewId'),
		},
		modelTypeField(api),
	]),
	toolDescription: `Turns a floor plan image into a rendered visualization with Ideal House AI and returns the image. Inputs: imageUrl (public URL of the plan), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

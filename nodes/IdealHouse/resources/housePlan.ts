import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { modelTypeField } from '../fields';

const api = APIS.housePlan;
const displayOptions = { show: { resource: ['housePlan'], operation: ['create'] } };

export const housePlan: Resource = {
	value: 'housePlan',
	name: 'House Plan',
	description: `Design a house: plans, elevations and renders on one board (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{
			displayName: 'Style',
			name: 'style',
			type: 'string',
			default: '',
			description:
				"Architectural style, by its English name, e.g. Barndominium, Modern Farmhouse, Craftsman. Empty: the service's default (Barndominium).",
			routing: sentAs('style'),
		},
		{
			displayName: 'Stories',
			name: 'stories',
			type: 'string',
			required: true,
			default: '',
			description: 'Number of stories (floors), e.g. 1 or 2',
			routing: sentAs('stories'),
		},
		modelTypeField(api),
	]),
	toolDescription: `Designs a house with Ideal House AI: a presentation board with 2D floor plans, elevations and photoreal exterior renders. Inputs: stories (number of floors), optional style (English name of an architectural style, default Barndominium). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, resultList, creditsCharged}; resultList lists every image.`,
};

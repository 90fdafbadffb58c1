import { sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField } from '../fields';

export const housePlan: Resource = catalogResource('housePlan', {
	does: 'Design a house: plans, elevations and renders on one board',
	fields: (api) => [
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
	],
	tool: {
		does: 'Designs a house with Ideal House AI: a presentation board with 2D floor plans, elevations and photoreal exterior renders.',
		inputs:
			'stories (number of floors), optional style (English name of an architectural style, default Barndominium)',
		more: 'resultList lists every image.',
		returns: 'resultUrl, width, height, resultList',
	},
});

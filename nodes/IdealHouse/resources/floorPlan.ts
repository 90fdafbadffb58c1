import { PHOTO_PLACEHOLDER, promptField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField } from '../fields';

export const floorPlan: Resource = catalogResource('floorPlan', {
	does: 'Draw a floor plan from rooms and an area, no photo needed',
	fields: (api) => [
		{
			displayName: 'Bedrooms',
			name: 'bedrooms',
			type: 'number',
			default: 2,
			typeOptions: { minValue: 0, numberPrecision: 0 },
			description: 'Number of bedrooms',
			routing: sentAs('bedrooms'),
		},
		{
			displayName: 'Bathrooms',
			name: 'bathrooms',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 0, numberPrecision: 0 },
			description: 'Number of bathrooms',
			routing: sentAs('bathrooms'),
		},
		{
			displayName: 'Kitchen Type',
			name: 'kitchenType',
			type: 'options',
			default: 'open',
			description: "Open or closed kitchen (the service's default is open)",
			options: [
				{ name: 'Closed', value: 'closed' },
				{ name: 'Open', value: 'open' },
			],
			routing: sentAs('kitchenType'),
		},
		{
			displayName: 'Gross Area',
			name: 'grossArea',
			type: 'string',
			default: '',
			description:
				"Area range in square meters or feet, e.g. 100-120m² (Ideal House's list of ranges is not published; leave empty for the service's choice)",
			routing: sentAs('grossArea'),
		},
		{
			displayName: 'Extra Spaces',
			name: 'extras',
			type: 'string',
			default: '',
			description: 'Further spaces, comma-separated, e.g. garage, laundry',
			routing: sentAs('extras'),
		},
		{ ...promptField, description: 'Further wishes for the layout, in your own words' },
		{
			displayName: 'Reference Plan URL',
			name: 'refImageUrl',
			type: 'string',
			default: '',
			placeholder: PHOTO_PLACEHOLDER,
			description: 'Public URL of a floor plan to take after',
			routing: sentAs('refImageUrl'),
		},
		modelTypeField(api),
	],
	tool: {
		does: 'Draws a floor plan image with Ideal House AI from numbers and choices, with no photo in.',
		inputs:
			'bedrooms (default 2), bathrooms (default 1), kitchenType (open or closed), optional grossArea (e.g. 100-120m²), extras, prompt, refImageUrl',
	},
});

import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.floorPlan;
const field = fieldsFor('floorPlan', api);

export const floorPlan: Resource = {
	value: 'floorPlan',
	name: 'Floor Plan',
	description: `Draw a floor plan from rooms and an area, no photo needed (${priceText(api)})`,
	api,
	fields: [
		field.integer('bedrooms', 'Bedrooms', 'Number of bedrooms', { min: 0, default: 2 }),
		field.integer('bathrooms', 'Bathrooms', 'Number of bathrooms', { min: 0, default: 1 }),
		field.options(
			'kitchenType',
			'Kitchen Type',
			"Open or closed kitchen (the service's default is open)",
			[
				{ name: 'Closed', value: 'closed' },
				{ name: 'Open', value: 'open' },
			],
			'open',
		),
		field.text(
			'grossArea',
			'Gross Area',
			"Area range in square metres or feet, e.g. 100-120m² (Ideal House's list of ranges is not published; leave empty for the service's choice)",
		),
		field.text('extras', 'Extra Spaces', 'Further spaces, comma-separated, e.g. garage, laundry'),
		field.prompt('Further wishes for the layout, in your own words'),
		field.url('refImageUrl', 'Reference Plan URL', 'Public URL of a floor plan to take after'),
		field.modelType(),
	],
	toolDescription: `Draws a floor plan image with Ideal House AI from numbers and choices, with no photo in. Inputs: bedrooms (default 2), bathrooms (default 1), kitchenType (open or closed), optional grossArea (e.g. 100-120m²), extras, prompt, refImageUrl. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

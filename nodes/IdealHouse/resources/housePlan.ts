import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.housePlan;
const field = fieldsFor('housePlan', api);

export const housePlan: Resource = {
	value: 'housePlan',
	name: 'House Plan',
	description: `Design a house: plans, elevations and renders on one board (${priceText(api)})`,
	api,
	fields: [
		field.text(
			'style',
			'Style',
			"Architectural style, by its English name, e.g. Barndominium, Modern Farmhouse, Craftsman. Empty: the service's default (Barndominium).",
		),
		{
			...field.text('stories', 'Stories', 'Number of stories (floors), e.g. 1 or 2'),
			required: true,
		},
		field.modelType(),
	],
	toolDescription: `Designs a house with Ideal House AI: a presentation board with 2D floor plans, elevations and photoreal exterior renders. Inputs: stories (number of floors), optional style (English name of an architectural style, default Barndominium). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, resultList, creditsCharged}; resultList lists every image.`,
};

import { fieldError, NOTHING_SENT } from '../../shared/core/validation';
import { imageUrlField, promptField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField } from '../fields';

/** Ideal House's page: at most 6 furniture items per task. */
const MAX_ITEMS = 6;

export const furnitureTryOn: Resource = catalogResource('furnitureTryOn', {
	does: `Place up to ${MAX_ITEMS} real furniture products in an image of a room`,
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the image of the room' },
		{
			displayName: 'Furniture List (JSON)',
			name: 'furnitureList',
			type: 'json',
			required: true,
			default: '[]',
			description: `A JSON list of 1 to ${MAX_ITEMS} furniture items, each an object with the item's image and product ID. Ideal House's page does not publish the key names: write them as its documentation gives them.`,
			routing: sentAs('furnitureList'),
		},
		{ ...promptField, description: 'Further guidance, in your own words' },
		modelTypeField(api),
	],
	own(body) {
		const list = body.furnitureList;
		if (!Array.isArray(list) || list.length === 0 || list.length > MAX_ITEMS) {
			throw fieldError(
				this,
				'Furniture List (JSON)',
				`must be a list of 1 to ${MAX_ITEMS} items (got ${Array.isArray(list) ? `${list.length} items` : typeof list})`,
				`Ideal House takes at most ${MAX_ITEMS} furniture items per task: split a longer list over several items.`,
			);
		}
		const notObject = list.findIndex(
			(item) => typeof item !== 'object' || item === null || Array.isArray(item),
		);
		if (notObject >= 0) {
			throw fieldError(
				this,
				`Furniture List (JSON) #${notObject + 1}`,
				'must be an object',
				`Write each entry of the list as a JSON object of one furniture product. ${NOTHING_SENT}`,
			);
		}
	},
	tool: {
		does: 'Places real furniture products into a room photo with Ideal House AI.',
		inputs: `imageUrl (public URL of the room), furnitureList (1 to ${MAX_ITEMS} objects, each with the product's image and ID), optional prompt`,
	},
});

import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldError } from '../../shared/basics/validation';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.furnitureTryOn;
const field = fieldsFor('furnitureTryOn', api);
/** Ideal House's page: at most 6 furniture items per task. */
const MAX_ITEMS = 6;

export const furnitureTryOn: Resource = {
	value: 'furnitureTryOn',
	name: 'Furniture Try-On',
	description: `Place up to ${MAX_ITEMS} real furniture products in a room photo (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the room photo', true),
		field.json(
			'furnitureList',
			'Furniture List (JSON)',
			`A JSON list of 1 to ${MAX_ITEMS} furniture items, each an object with the item's image and product ID. Ideal House's page does not publish the key names: write them as its documentation gives them.`,
			true,
		),
		field.prompt('Further guidance, in your own words'),
		field.modelType(),
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
			throw fieldError(this, `Furniture List (JSON) #${notObject + 1}`, 'must be an object');
		}
	},
	toolDescription: `Places real furniture products into a room photo with Ideal House AI. Inputs: imageUrl (public URL of the room), furnitureList (1 to ${MAX_ITEMS} objects, each with the product's image and ID), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

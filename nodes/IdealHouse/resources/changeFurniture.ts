import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.changeFurniture;
const field = fieldsFor('changeFurniture', api);

export const changeFurniture: Resource = {
	value: 'changeFurniture',
	name: 'Change Furniture',
	description: `Replace a room's furniture in another style (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the interior photo', true),
		field.prompt('What the new furniture should look like'),
		field.style('indoorTypeId', 'Room Type Name or ID', 'roomType', 'The kind of room'),
		field.style('indoorStyleId', 'Style Name or ID', 'style', 'The furniture style'),
		field.style('indoorElemId', 'Element Names or IDs', 'elements', 'Pieces to change', true),
	],
	toolDescription: `Replaces the furniture in a real-estate room photo with Ideal House AI and returns the refurnished image. Inputs: imageUrl (public URL of the interior photo), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

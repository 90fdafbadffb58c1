import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.homeDecor;
const field = fieldsFor('homeDecor', api);

export const homeDecor: Resource = {
	value: 'homeDecor',
	name: 'Home Decor',
	description: `Decorate a room in a chosen style (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the interior photo', true),
		field.url(
			'referenceUrl',
			'Reference Image URL',
			'Public URL of an image whose decor style to follow',
		),
		field.style('spaceStyleId', 'Space Type Name or ID', 'spaceType', 'The kind of space'),
		field.style('homeDecorStyleId', 'Decor Style Name or ID', 'decorStyle', 'The decor style'),
		field.prompt('Decor guidance, in your own words'),
		field.modelType(),
	],
	toolDescription: `Decorates a room in a real-estate photo with Ideal House AI and returns the decorated image. Inputs: imageUrl (public URL of the interior photo), optional referenceUrl (an image whose decor style to follow), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

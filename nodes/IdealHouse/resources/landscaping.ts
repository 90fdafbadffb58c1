import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.landscaping;
const field = fieldsFor('landscaping', api);

export const landscaping: Resource = {
	value: 'landscaping',
	name: 'Landscaping',
	description: `Redesign a garden or yard (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the outdoor photo', true),
		field.prompt('What the garden should look like'),
		field.style('sceneId', 'Garden Style Name or ID', 'gardenStyle', 'The garden style'),
		field.style(
			'sceneElementId',
			'Garden Element Names or IDs',
			'elements',
			'Elements to add to the garden',
			true,
		),
		field.modelType(),
	],
	toolDescription: `Redesigns the garden or yard in a real-estate photo with Ideal House AI and returns the landscaped image. Inputs: imageUrl (public URL of the outdoor photo), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

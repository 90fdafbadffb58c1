import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.exteriorRenovator;
const field = fieldsFor('exteriorRenovator', api);

export const exteriorRenovator: Resource = {
	value: 'exteriorRenovator',
	name: 'Exterior Renovator',
	description: `Restyle a building's exterior (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the exterior photo to restyle', true),
		field.prompt('What the renovated exterior should look like'),
		field.url(
			'referenceUrl',
			'Reference Image URL',
			'Public URL of an image whose style to follow',
		),
		field.text(
			'buildingStyleId',
			'Building Style ID',
			"ID of a building style (Ideal House's pages do not publish the list; leave empty for the service's choice)",
		),
	],
	toolDescription: `Renovates the exterior of a building in a real-estate photo with Ideal House AI and returns the restyled image. Inputs: imageUrl (public URL of the exterior photo), optional prompt, optional referenceUrl (an image whose style to follow). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

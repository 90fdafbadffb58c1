import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.smartReplace;
const field = fieldsFor('smartReplace', api);

export const smartReplace: Resource = {
	value: 'smartReplace',
	name: 'Smart Replace',
	description: `Regenerate the part of a photo a mask marks (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the photo', true),
		field.prompt('What to put where the mask is black'),
	],
	toolDescription: `Regenerates the masked part of a real-estate photo with Ideal House AI. Inputs: imageUrl (public URL), prompt (what to put in the masked area); the mask goes in the extra body fields, under the name Ideal House's documentation gives (black = regenerate, white = keep, same size as the photo). Cost: ${priceText(api)}, refunded if the task fails. Returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

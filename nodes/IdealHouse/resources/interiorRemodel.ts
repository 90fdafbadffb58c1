import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.interiorRemodel;
const field = fieldsFor('interiorRemodel', api);

export const interiorRemodel: Resource = {
	value: 'interiorRemodel',
	name: 'Interior Remodel',
	description: `Remodel a room: style, elements and colours (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the interior photo', true),
		field.prompt('What the remodelled room should look like'),
		field.style('indoorTypeId', 'Room Type Name or ID', 'roomType', 'The kind of room'),
		field.style('indoorStyleId', 'Style Name or ID', 'style', 'The interior style'),
		field.style('indoorElemId', 'Element Names or IDs', 'elements', 'Elements to change', true),
		field.text(
			'colorString',
			'Colours',
			'The colours to use, in words or codes. When given, it wins over the colour image.',
		),
		field.url(
			'colorImgUrl',
			'Colour Image URL',
			'Public URL of an image to take the colours from (used when Colours is empty). With neither, colours are chosen automatically.',
		),
	],
	toolDescription: `Remodels a room in a real-estate photo with Ideal House AI (style, elements, colours) and returns the remodelled image. Inputs: imageUrl (public URL of the interior photo), optional prompt, optional colorString (colours in words; wins over colorImgUrl) or colorImgUrl (an image to take colours from). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

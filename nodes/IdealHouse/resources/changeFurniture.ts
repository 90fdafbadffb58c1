import { APIS } from '../../shared/catalog/apis';
import { imageUrlField, promptField } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, styleField } from '../fields';

const api = APIS.changeFurniture;

export const changeFurniture: Resource = catalogResource('changeFurniture', {
	name: 'Change Furniture',
	does: "Replace a room's furniture in another style",
	fields: [
		{ ...imageUrlField, description: 'Public URL of the image of the interior' },
		{ ...promptField, description: 'What the new furniture should look like' },
		styleField(api, {
			label: 'Room Type Name or ID',
			sentAs: 'indoorTypeId',
			group: 'roomType',
			what: 'The kind of room',
		}),
		styleField(api, {
			label: 'Style Name or ID',
			sentAs: 'indoorStyleId',
			group: 'style',
			what: 'The furniture style',
		}),
		styleField(api, {
			label: 'Element Names or IDs',
			sentAs: 'indoorElemId',
			group: 'elements',
			what: 'Pieces to change',
			several: true,
		}),
	],
	tool: {
		does: 'Replaces the furniture in a real-estate room photo with Ideal House AI and returns the refurnished image.',
		inputs: 'imageUrl (public URL of the interior photo), optional prompt',
	},
});

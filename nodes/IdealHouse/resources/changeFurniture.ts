import { imageUrlField, promptField } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, interiorLists } from '../fields';

export const changeFurniture: Resource = catalogResource('changeFurniture', {
	does: "Replace a room's furniture in another style",
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the image of the interior' },
		{ ...promptField, description: 'What the new furniture should look like' },
		...interiorLists(api, { style: 'The furniture style', elements: 'Pieces to change' }),
	],
	tool: {
		does: 'Replaces the furniture in a real-estate room photo with Ideal House AI and returns the refurnished image.',
		inputs: 'imageUrl (public URL of the interior photo), optional prompt',
	},
});

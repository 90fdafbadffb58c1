import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { PHOTO_PLACEHOLDER, imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.exteriorRenovator;
const displayOptions = { show: { resource: ['exteriorRenovator'], operation: ['create'] } };

export const exteriorRenovator: Resource = {
	value: 'exteriorRenovator',
	name: 'Exterior Renovator',
	description: `Restyle a building's exterior (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the image of the exterior to restyle' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'What the renovated exterior should look like',
			routing: sentAs('prompt'),
		},
		{
			displayName: 'Reference Image URL',
			name: 'referenceUrl',
			type: 'string',
			default: '',
			placeholder: PHOTO_PLACEHOLDER,
			description: 'Public URL of an image whose style to follow',
			routing: sentAs('referenceUrl'),
		},
		{
			displayName: 'Building Style ID',
			name: 'buildingStyleId',
			type: 'string',
			default: '',
			description:
				"ID of a building style (Ideal House's pages do not publish the list; leave empty for the service's choice)",
			routing: sentAs('buildingStyleId'),
		},
	]),
	toolDescription: `Renovates the exterior of a building in a real-estate photo with Ideal House AI and returns the restyled image. Inputs: imageUrl (public URL of the exterior photo), optional prompt, optional referenceUrl (an image whose style to follow). Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

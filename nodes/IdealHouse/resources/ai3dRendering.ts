import { updateDisplayOptions } from 'n8n-workflow';

import { APIS } from '../../shared/catalog/apis';
import { priceText } from '../../shared/catalog/credits';
import { imageUrlField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { modelTypeField } from '../fields';

const api = APIS.ai3dRendering;
const displayOptions = { show: { resource: ['ai3dRendering'], operation: ['create'] } };

export const ai3dRendering: Resource = {
	value: 'ai3dRendering',
	name: 'AI 3D Rendering',
	description: `Render a 3D model view or a sketch as a photoreal image (${priceText(api)})`,
	api,
	fields: updateDisplayOptions(displayOptions, [
		{ ...imageUrlField, description: 'Public URL of the image to render' },
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Style and content guidance, in your own words',
			routing: sentAs('prompt'),
		},
		modelTypeField(api),
		{
			displayName: 'Render Degree',
			name: 'renderDegree',
			type: 'number',
			default: 3,
			typeOptions: { minValue: 1, maxValue: 6, numberPrecision: 0 },
			description:
				'How strongly to render, from 1 (lightest) to 6 (strongest). Applies to the Flash model only.',
			// Ideal House's page: the degree applies with Flash only, which is also the default model.
			displayOptions: { show: { modelType: ['', 'Flash'] } },
			routing: sentAs('renderDegree'),
		},
	]),
	toolDescription: `Renders an image (a 3D model view, a sketch, a plain render) as a photoreal picture with Ideal House AI. Inputs: imageUrl (public URL), optional prompt, optional renderDegree 1-6 with the Flash model. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

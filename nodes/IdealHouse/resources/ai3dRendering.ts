import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.ai3dRendering;
const field = fieldsFor('ai3dRendering', api);

export const ai3dRendering: Resource = {
	value: 'ai3dRendering',
	name: 'AI 3D Rendering',
	description: `Render a 3D model view or a sketch as a photoreal image (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the image to render', true),
		field.prompt('Style and content guidance, in your own words'),
		field.modelType(),
		{
			...field.integer(
				'renderDegree',
				'Render Degree',
				'How strongly to render, from 1 (lightest) to 6 (strongest). Applies to the Flash model only.',
				{ min: 1, max: 6, default: 3 },
			),
			// Ideal House's page: the degree applies with Flash only, which is also the default model.
			displayOptions: {
				show: { resource: ['ai3dRendering'], operation: ['create'], modelType: ['', 'Flash'] },
			},
		},
	],
	toolDescription: `Renders an image (a 3D model view, a sketch, a plain render) as a photoreal picture with Ideal House AI. Inputs: imageUrl (public URL), optional prompt, optional renderDegree 1-6 with the Flash model. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

import { imageUrlField, promptField, sentAs } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField } from '../fields';

export const ai3dRendering: Resource = catalogResource('ai3dRendering', {
	does: 'Render a 3D model view or a sketch as a photoreal image',
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the image to render' },
		{ ...promptField, description: 'Style and content guidance, in your own words' },
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
	],
	tool: {
		does: 'Renders an image (a 3D model view, a sketch, a plain render) as a photoreal picture with Ideal House AI.',
		inputs:
			'imageUrl (public URL), optional prompt, optional renderDegree 1-6 with the Flash model',
	},
});

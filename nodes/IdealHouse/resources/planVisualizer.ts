import { imageUrlField, promptField } from '../../shared/descriptions/body-fields';
import type { Resource } from '../../shared/descriptions/resource';
import { catalogResource, modelTypeField, styleField } from '../fields';

export const planVisualizer: Resource = catalogResource('planVisualizer', {
	does: 'Turn a floor plan into a rendered view',
	fields: (api) => [
		{ ...imageUrlField, description: 'Public URL of the floor plan image' },
		{ ...promptField, description: 'Guidance for the rendering, in your own words' },
		styleField(api, {
			label: 'Plan Type Name or ID',
			sentAs: 'planStyleId',
			group: 'planType',
			what: 'The kind of plan',
		}),
		styleField(api, {
			label: 'Style Name or ID',
			sentAs: 'styleId',
			group: 'style',
			what: 'The rendering style',
		}),
		styleField(api, {
			label: 'View Name or ID',
			sentAs: 'viewId',
			group: 'view',
			what: 'The camera view',
		}),
		modelTypeField(api),
	],
	tool: {
		does: 'Turns a floor plan image into a rendered visualization with Ideal House AI and returns the image.',
		inputs: 'imageUrl (public URL of the plan), optional prompt',
	},
});

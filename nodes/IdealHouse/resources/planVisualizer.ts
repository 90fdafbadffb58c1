import { APIS } from '../../shared/catalog/catalog';
import { priceText } from '../../shared/catalog/credits';
import { fieldsFor } from '../fields';
import type { Resource } from '../../shared/descriptions/resource';

const api = APIS.planVisualizer;
const field = fieldsFor('planVisualizer', api);

export const planVisualizer: Resource = {
	value: 'planVisualizer',
	name: 'Plan Visualizer',
	description: `Turn a floor plan into a rendered view (${priceText(api)})`,
	api,
	fields: [
		field.url('imageUrl', 'Image URL', 'Public URL of the floor plan image', true),
		field.prompt('Guidance for the rendering, in your own words'),
		field.style('planStyleId', 'Plan Type Name or ID', 'planType', 'The kind of plan'),
		field.style('styleId', 'Style Name or ID', 'style', 'The rendering style'),
		field.style('viewId', 'View Name or ID', 'view', 'The camera view'),
		field.modelType(),
	],
	toolDescription: `Turns a floor plan image into a rendered visualization with Ideal House AI and returns the image. Inputs: imageUrl (public URL of the plan), optional prompt. Cost: ${priceText(api)}, refunded if the task fails. Waits for the result and returns JSON {id, status, resultUrl, width, height, creditsCharged}.`,
};

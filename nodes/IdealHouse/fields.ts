import type { INodeProperties } from 'n8n-workflow';

import type { IdealHouseApi } from '../shared/catalog/catalog';
import { fieldKinds, sentAs, type FieldKinds } from '../shared/descriptions/field-kinds';
import { styleMethodName } from './methods/styles';

/**
 * The fields of the Ideal House AI node's APIs: the kinds every resource uses (`fieldKinds`), shown
 * for the resource's Create, and two of this node's own: lists loaded from the Style Config
 * endpoint, and the model type with its prices.
 */
export interface ResourceFields extends FieldKinds {
	/** `modelType`, its values from the API's price table, with a "service default" entry first. */
	modelType(): INodeProperties;
	/** Options loaded from the API Style Config endpoint; `multi`: several ids, comma-joined. */
	style(
		name: string,
		displayName: string,
		group: string,
		description: string,
		multi?: boolean,
	): INodeProperties;
}

const LOADED_DESCRIPTION =
	'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>';

export function fieldsFor(resource: string, api: IdealHouseApi): ResourceFields {
	const show = { resource: [resource], operation: ['create'] };
	return {
		...fieldKinds(show),
		style: (name, displayName, group, description, multi = false) => ({
			displayName,
			name,
			type: multi ? 'multiOptions' : 'options',
			default: multi ? [] : '',
			description: `${description}. ${LOADED_DESCRIPTION}.`,
			typeOptions: {
				loadOptionsMethod: styleMethodName(api.styleKey ?? api.name, group),
				// Several resources have a field of this name: the list is loaded again when the resource changes.
				loadOptionsDependsOn: ['resource'],
			},
			displayOptions: { show },
			routing: sentAs(name),
		}),
		modelType: () => modelTypeField(api, show),
	};
}

/** Every value of the price table, priced in its description; `''` sends none, as the service's default. */
function modelTypeField(
	api: IdealHouseApi,
	show: NonNullable<INodeProperties['displayOptions']>['show'],
): INodeProperties {
	if (!('byModelType' in api.price)) throw new Error(`${api.name} has no price by model type`);
	const { byModelType: prices, defaultModelType } = api.price;
	const tiers = Object.keys(prices).map((model) => ({ name: model, value: model }));
	// Where the page names no default, one is always sent, so that the price is known.
	const values = defaultModelType
		? [
				{
					name: `Service Default (${defaultModelType})`,
					value: '',
					description: 'Send no model type; the service uses its default',
				},
				...tiers,
			]
		: tiers;
	const initial = defaultModelType ? '' : tiers[0].value;
	return {
		displayName: 'Model Type',
		name: 'modelType',
		type: 'options',
		// Without a published default, a model type emptied by an expression is refused, not left
		// to a tier whose price nobody knows.
		required: !defaultModelType,
		default: initial,
		description: `Model to run. Prices: ${Object.entries(prices)
			.map(([model, credits]) => `${model} ${credits} credit${credits === 1 ? '' : 's'}`)
			.join(', ')}.`,
		options: values,
		displayOptions: { show },
		routing: sentAs('modelType'),
	};
}

/** `extraBody`: the fields Ideal House's pages do not show, sent as given beside the others. */
export const extraBodyField: INodeProperties = {
	displayName: 'Extra Body Fields (JSON)',
	name: 'extraBody',
	type: 'json',
	default: '{}',
	description:
		'Further fields for the request body, as a JSON object, for inputs the documentation does not list. A field the node already has cannot be set here.',
	displayOptions: { show: { operation: ['create'] }, hide: { resource: ['custom'] } },
};

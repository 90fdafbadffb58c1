import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { APIS, type IdealHouseApi } from '../shared/catalog/apis';
import { priceText } from '../shared/catalog/credits';
import { sentAs } from '../shared/descriptions/body-fields';
import type { Resource } from '../shared/descriptions/resource';
import { styleMethodName } from './methods/styles';

/**
 * What the Ideal House AI node's resources share beyond plain fields: the resource itself from its
 * catalog row, the lists loaded from the Style Config endpoint, the model type with its prices,
 * and Extra Body Fields.
 */

/**
 * A resource of a catalog API, by its name: its row, named by its label, what it does with its
 * price, and its fields shown for its create.
 */
export function catalogResource(
	value: keyof typeof APIS,
	resource: Omit<Resource, 'value' | 'name' | 'api' | 'description' | 'fields'> & {
		does: string;
		/** Its fields, given the row where a field needs it (a style list, the model type). */
		fields: INodeProperties[] | ((api: IdealHouseApi) => INodeProperties[]);
	},
): Resource {
	const api = APIS[value];
	const { does, fields, ...rest } = resource;
	const show = { show: { resource: [value], operation: ['create'] } };
	return {
		value,
		name: api.label,
		api,
		description: `${does} (${priceText(api)})`,
		fields: updateDisplayOptions(show, typeof fields === 'function' ? fields(api) : fields),
		...rest,
	};
}

/**
 * The load-options method of one of the API's Style Config lists (`group`). A field loading it
 * also says `loadOptionsDependsOn: ['resource']`: several resources have a field of the same
 * name, and the list must be loaded again when the resource changes.
 */
function styleList(api: IdealHouseApi, group: string): string {
	return styleMethodName(api.styleKey ?? api.name, group);
}

/** A field whose values load from the API's Style Config list `group`: one ID, or several. */
export function styleField(
	api: IdealHouseApi,
	field: { label: string; sentAs: string; group: string; what: string; several?: boolean },
): INodeProperties {
	const ids = field.several ? 'IDs' : 'an ID';
	return {
		displayName: field.label,
		name: field.sentAs,
		type: field.several ? 'multiOptions' : 'options',
		default: field.several ? [] : '',
		description: `${field.what}. Choose from the list, or specify ${ids} using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
		typeOptions: {
			loadOptionsMethod: styleList(api, field.group),
			loadOptionsDependsOn: ['resource'],
		},
		routing: sentAs(field.sentAs),
	};
}

/** An interior's three Style Config lists: room type, style and elements, in the API's own words. */
export function interiorLists(
	api: IdealHouseApi,
	words: { style: string; elements: string },
): INodeProperties[] {
	return [
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
			what: words.style,
		}),
		styleField(api, {
			label: 'Element Names or IDs',
			sentAs: 'indoorElemId',
			group: 'elements',
			what: words.elements,
			several: true,
		}),
	];
}

/**
 * `modelType`, every value of the API's price table, priced in its description; `''` sends none,
 * as the service's default. Built from the catalog row, so a price changes in one place.
 */
export function modelTypeField(api: IdealHouseApi): INodeProperties {
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

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { IdealHouseApi } from '../shared/catalog/catalog';
import { styleMethodName } from './methods/styles';

/**
 * Field builders for the APIs of the Ideal House AI node. Every request-body field is a top-level
 * parameter named exactly as the API field, shown for its resource's Create operation, and sent
 * by its own routing. What the body check (shared/engine/body-check.ts) needs to know of a field, it reads from
 * the field itself: `required`, the static values of an options list, a loaded list (whose ids
 * may be comma-joined), a number's range, and a name ending in `Url` for the addresses the service
 * downloads.
 */
export interface ResourceFields {
	/** A URL the service downloads; the API's field name ends in `Url`. */
	url(name: string, displayName: string, description: string, required?: boolean): INodeProperties;
	/** Free text guidance. */
	prompt(description: string, required?: boolean): INodeProperties;
	/** A text the pages name but whose values they do not show. */
	text(name: string, displayName: string, description: string): INodeProperties;
	/** A fixed list the page prints; `''` first means "not sent". */
	options(
		name: string,
		displayName: string,
		description: string,
		values: INodePropertyOptions[],
		initial?: string,
	): INodeProperties;
	/** A JSON value the API takes as is (a list of objects whose keys the pages do not show). */
	json(name: string, displayName: string, description: string, required?: boolean): INodeProperties;
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
	/** A whole number within the range the page gives. */
	integer(
		name: string,
		displayName: string,
		description: string,
		range: { min: number; max?: number; default: number },
	): INodeProperties;
}

const LOADED_DESCRIPTION =
	'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>';

export function fieldsFor(resource: string, api: IdealHouseApi): ResourceFields {
	const show = { resource: [resource], operation: ['create'] };
	const sent = (name: string) => ({ send: { type: 'body' as const, property: name } });
	return {
		url: (name, displayName, description, required = false) => ({
			displayName,
			name,
			type: 'string',
			required,
			default: '',
			placeholder: 'https://example.com/listing/photo.jpg',
			description,
			displayOptions: { show },
			routing: sent(name),
		}),
		prompt: (description, required = false) => ({
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			required,
			default: '',
			description,
			displayOptions: { show },
			routing: sent('prompt'),
		}),
		text: (name, displayName, description) => ({
			displayName,
			name,
			type: 'string',
			default: '',
			description,
			displayOptions: { show },
			routing: sent(name),
		}),
		options: (name, displayName, description, values, initial = '') => ({
			displayName,
			name,
			type: 'options',
			default: initial,
			description,
			options: values,
			displayOptions: { show },
			routing: sent(name),
		}),
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
			routing: sent(name),
		}),
		integer: (name, displayName, description, { min, max, default: initial }) => ({
			displayName,
			name,
			type: 'number',
			default: initial,
			typeOptions: { minValue: min, maxValue: max, numberPrecision: 0 },
			description,
			displayOptions: { show },
			routing: sent(name),
		}),
		json: (name, displayName, description, required = false) => ({
			displayName,
			name,
			type: 'json',
			required,
			default: '[]',
			description,
			displayOptions: { show },
			routing: sent(name),
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
		routing: { send: { type: 'body', property: 'modelType' } },
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

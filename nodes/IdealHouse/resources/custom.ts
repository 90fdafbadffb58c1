import type { IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import { APIS, customApi, type IdealHouseApi } from '../../shared/catalog/apis';
import { bounded } from '../../shared/core/redact';
import { fieldError } from '../../shared/core/validation';
import type { Resource } from '../../shared/descriptions/resource';
import type { ItemParameters } from '../../shared/item-life/settings';

const API_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/**
 * The API named in the item's parameters, checked before anything is sent: a plain name, so that
 * it can only ever address `/api/v1/<name>/…` on the credential's base URL. A listed API keeps
 * its known price.
 */
function namedApi(this: IExecuteSingleFunctions, parameters: ItemParameters): IdealHouseApi {
	const value = parameters.value('apiName', '');
	const name = typeof value === 'string' ? value.trim() : '';
	if (!API_NAME.test(name)) {
		throw fieldError(
			this,
			'API Name',
			`must be the API's name as it appears in its path, letters and digits only (got ${JSON.stringify(bounded(String(value), 60))})`,
			'For POST /api/v1/imageToVideo/generate, the name is imageToVideo.',
		);
	}
	// The catalog's own rows only: "constructor" or "toString" is an unlisted API, not a row.
	return Object.hasOwn(APIS, name)
		? (APIS as Record<string, IdealHouseApi>)[name]
		: customApi(name);
}

const show = { resource: ['custom'] };

const fields: INodeProperties[] = [
	{
		displayName: 'API Name',
		name: 'apiName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. imageToVideo',
		description:
			'The API\'s name as it appears in its path: for POST /api/v1/imageToVideo/generate, "imageToVideo"',
		displayOptions: { show },
	},
	{
		displayName: 'Body (JSON)',
		name: 'extraBody',
		type: 'json',
		// The same default as the other resources' Extra Body Fields, which share this parameter: the
		// editor keeps its value when the resource changes, and a body here would be refused there.
		default: '{}',
		description:
			'The request body, as the API\'s documentation gives it, e.g. {"imageUrl": "https://example.com/photo.jpg"}',
		displayOptions: { show: { ...show, operation: ['create'] } },
	},
];

export const custom: Resource = {
	value: 'custom',
	name: 'Custom API',
	description: 'Call an Ideal House API this node does not list, by its name, with a JSON body',
	api: namedApi,
	fields,
	extraBodyLabel: 'Body (JSON)',
	tool: {
		does: 'Calls an Ideal House AI API this node does not list, by its path name, with a JSON body.',
		inputs: "apiName (the API's name in its path), extraBody (the request body as JSON)",
	},
};

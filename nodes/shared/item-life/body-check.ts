import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/apis';
import { checkJsonValue, JsonBodyError, readJsonBody } from '../core/json-body';
import { bounded } from '../core/redact';
import type { BodyCheck } from './path';
import type { ItemParameters } from './settings';
import { fieldError, NOTHING_SENT, requireHttpUrl } from '../core/validation';

// A create's body, checked from its fields before anything is sent: kept in the API's form,
// refused where the service would refuse it. Rules: docs/design/item-life.md#body-check

export type OwnCheck = (this: IExecuteSingleFunctions, body: IDataObject) => void;

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

function fixedValues(field: INodeProperties): string[] | undefined {
	if (field.type !== 'options' || field.typeOptions?.loadOptionsMethod) return undefined;
	return (field.options ?? []).map((option) => String((option as { value: unknown }).value));
}

function shown(value: unknown): string {
	return bounded(typeof value === 'string' ? JSON.stringify(value) : String(value), 100);
}

function checkedValue(
	ctx: IExecuteSingleFunctions,
	field: INodeProperties,
	value: unknown,
): string | number | IDataObject | IDataObject[] {
	const label = field.displayName;
	if (field.type === 'json') return parsedJson(ctx, label, value);
	if (field.name.endsWith('Url')) return requireHttpUrl(ctx, label, value);
	const values = fixedValues(field);
	if (values) {
		if (typeof value !== 'string' || !values.includes(value)) {
			throw fieldError(
				ctx,
				label,
				`must be one of ${values.filter(Boolean).join(', ')} (got ${shown(value)})`,
				'Pick one of the listed values; an expression must produce one of them exactly.',
			);
		}
		return value;
	}
	if (field.type === 'multiOptions') {
		const ids = (Array.isArray(value) ? value : String(value).split(','))
			.map((id) => String(id).trim())
			.filter(Boolean);
		return ids.join(',');
	}
	if (field.type === 'number') {
		const number = typeof value === 'string' ? Number(value) : value;
		const { minValue, maxValue } = field.typeOptions ?? {};
		if (
			typeof number !== 'number' ||
			!Number.isInteger(number) ||
			(minValue !== undefined && number < minValue) ||
			(maxValue !== undefined && number > maxValue)
		) {
			const range =
				maxValue === undefined ? `of at least ${minValue}` : `from ${minValue} to ${maxValue}`;
			throw fieldError(
				ctx,
				label,
				`must be a whole number ${range} (got ${shown(value)})`,
				`Give a whole number ${range}. ${NOTHING_SENT}`,
			);
		}
		return number;
	}
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string') {
		throw fieldError(
			ctx,
			label,
			`must be text, not ${typeof value}`,
			`Give text here. ${NOTHING_SENT}`,
		);
	}
	return value.trim();
}

/** A JSON field's value: its text parsed (long integers kept exact), or what an expression gave. */
function parsedJson(
	ctx: IExecuteSingleFunctions,
	label: string,
	value: unknown,
): IDataObject | IDataObject[] {
	try {
		if (typeof value !== 'string') {
			checkJsonValue(value);
			return value as IDataObject | IDataObject[];
		}
		return readJsonBody(value) as IDataObject | IDataObject[];
	} catch (error) {
		const advice = `Write valid JSON here, e.g. {"field": "value"}. ${NOTHING_SENT}`;
		if (error instanceof JsonBodyError) throw fieldError(ctx, label, error.message, advice);
		throw fieldError(ctx, label, `is not valid JSON (${(error as Error).message})`, advice);
	}
}

/** The `extraBody` parameter as an object: JSON text (long integers kept exact) or an object. */
function readJsonObject(
	ctx: IExecuteSingleFunctions,
	parameters: ItemParameters,
	parameter: string,
	label: string,
): IDataObject {
	const raw = parameters.value(parameter, '{}');
	if (typeof raw === 'string' && raw.trim() === '') return {};
	const value: unknown = parsedJson(ctx, label, raw);
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw fieldError(
			ctx,
			label,
			'must be a JSON object, such as {"field": "value"}',
			`Write the fields as one JSON object. ${NOTHING_SENT}`,
		);
	}
	return value as IDataObject;
}

/** "Model_Type", "modeltype" and "model-type" are all spellings of `modelType`. */
function spelling(name: string): string {
	return name.toLowerCase().replace(/[_-]/g, '');
}

interface BodyCheckRules {
	/** The API's own rule, from its description file. */
	own?: OwnCheck;
	extraLabel?: string;
}

/** The fields `extraBody` may not set, by spelling: the node's own fields, and the model type. */
function ownFieldNames(fields: INodeProperties[]): Map<string, string> {
	const names = new Map<string, string>([[spelling('modelType'), 'modelType']]);
	for (const field of fields) names.set(spelling(field.name), field.name);
	return names;
}

function checkExtraKey(
	ctx: IExecuteSingleFunctions,
	label: string,
	key: string,
	fieldNames: Map<string, string>,
	fields: INodeProperties[],
): void {
	const meant = fieldNames.get(spelling(key));
	if (meant === undefined) return;
	const field = fields.find((own) => own.name === meant);
	// `modelType` on an API without the field: the price rule below decides.
	if (key === meant && !field) return;
	const shown = `"${bounded(key, 60)}"`;
	const use = !field
		? `Write it as "${meant}" if that is what you mean.`
		: key === meant
			? 'Use that field instead, so that its value is checked before anything is charged.'
			: `Use the node's "${field.displayName}" field instead, so that its value is checked before anything is charged.`;
	throw fieldError(
		ctx,
		label,
		key === meant
			? `sets ${shown}, which the node has as a field of its own`
			: `sets ${shown}, which looks like a misspelt "${meant}": the service would not read it as that field`,
		use,
	);
}

/** A model type goes only to an API priced by model type: elsewhere its price would be a guess. */
function checkModelTypePriced(
	ctx: IExecuteSingleFunctions,
	label: string,
	body: IDataObject,
	api: IdealHouseApi,
): void {
	if (!Object.hasOwn(body, 'modelType') || !('flat' in api.price)) return;
	throw fieldError(
		ctx,
		label,
		`sets "modelType", but ${api.label} has one price (${api.price.flat} credit${api.price.flat === 1 ? '' : 's'} per task) and no model types`,
		'Remove "modelType". To call an API whose model types this node does not know, use \'Custom API\' with an API name the node does not list.',
	);
}

function requiredField(ctx: IExecuteSingleFunctions, field: INodeProperties) {
	return fieldError(
		ctx,
		field.displayName,
		'is required',
		`Fill in '${field.displayName}' (an expression that gives nothing leaves it empty). ${NOTHING_SENT}`,
	);
}

export function createBodyCheck(fields: INodeProperties[], rules: BodyCheckRules = {}): BodyCheck {
	const { own, extraLabel = 'Extra Body Fields (JSON)' } = rules;
	const fieldNames = ownFieldNames(fields);
	return async function (
		this: IExecuteSingleFunctions,
		sent: IDataObject,
		{ api, parameters },
	): Promise<IDataObject> {
		const body: IDataObject = {};
		for (const field of fields) {
			const value = sent[field.name];
			if (!Object.prototype.hasOwnProperty.call(sent, field.name) || isEmpty(value)) {
				if (field.required) throw requiredField(this, field);
				continue;
			}
			const checked = checkedValue(this, field, value);
			// A JSON field's `[]` or `{}` is as empty as a blank text.
			if (typeof checked === 'object' && Object.keys(checked).length === 0) {
				if (field.required) throw requiredField(this, field);
				continue;
			}
			body[field.name] = checked;
		}
		const extra = readJsonObject(this, parameters, 'extraBody', extraLabel);
		for (const [key, value] of Object.entries(extra)) {
			// The whole body of an API called by name is this field: there is nothing to collide with.
			if (fields.length > 0) checkExtraKey(this, extraLabel, key, fieldNames, fields);
			// Defined, not assigned: a "__proto__" key stays a field of the body.
			Object.defineProperty(body, key, {
				value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		checkModelTypePriced(this, extraLabel, body, api);
		own?.call(this, body);
		return body;
	};
}

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

/**
 * The kinds of request-body field every resource's fields are built from. Each is a top-level
 * parameter named exactly as the API field, shown where `show` says (its node's create), and sent
 * by its own routing. What the generic body check (`engine/body-check.ts`) needs to know of a
 * field, it reads from the field itself: `required`, the static values of an options list, a
 * number's range, and a name ending in `Url` for the addresses the service downloads.
 */
export interface FieldKinds {
	/** A URL the service downloads; the API's field name ends in `Url`. */
	url(
		name: string,
		displayName: string,
		description: string,
		required?: boolean,
		placeholder?: string,
	): INodeProperties;
	/** Free text guidance. */
	prompt(description: string, required?: boolean, placeholder?: string): INodeProperties;
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
	/** A whole number within the range the page gives. */
	integer(
		name: string,
		displayName: string,
		description: string,
		range: { min: number; max?: number; default: number },
	): INodeProperties;
}

const PHOTO_PLACEHOLDER = 'https://example.com/listing/photo.jpg';

/** The body field `name`, sent as it is. */
export const sentAs = (name: string) => ({ send: { type: 'body' as const, property: name } });

export function fieldKinds(show: Show): FieldKinds {
	return {
		url: (name, displayName, description, required = false, placeholder = PHOTO_PLACEHOLDER) => ({
			displayName,
			name,
			type: 'string',
			required,
			default: '',
			placeholder,
			description,
			displayOptions: { show },
			routing: sentAs(name),
		}),
		prompt: (description, required = false, placeholder) => ({
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 3 },
			required,
			default: '',
			...(placeholder ? { placeholder } : {}),
			description,
			displayOptions: { show },
			routing: sentAs('prompt'),
		}),
		text: (name, displayName, description) => ({
			displayName,
			name,
			type: 'string',
			default: '',
			description,
			displayOptions: { show },
			routing: sentAs(name),
		}),
		options: (name, displayName, description, values, initial = '') => ({
			displayName,
			name,
			type: 'options',
			default: initial,
			description,
			options: values,
			displayOptions: { show },
			routing: sentAs(name),
		}),
		integer: (name, displayName, description, { min, max, default: initial }) => ({
			displayName,
			name,
			type: 'number',
			default: initial,
			typeOptions: { minValue: min, maxValue: max, numberPrecision: 0 },
			description,
			displayOptions: { show },
			routing: sentAs(name),
		}),
		json: (name, displayName, description, required = false) => ({
			displayName,
			name,
			type: 'json',
			required,
			default: '[]',
			description,
			displayOptions: { show },
			routing: sentAs(name),
		}),
	};
}

import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { IdealHouseItemError } from './errors';
import { bounded } from './redact';

/** What every refusal before a request can say: it cost nothing. */
export const NOTHING_SENT = 'Nothing was sent or charged.';

/** A refusal before any request (nothing is charged), naming the field and the item. */
export function fieldError(
	ctx: IExecuteSingleFunctions,
	field: string,
	problem: string,
	/** What to do: n8n's rule is that every error says how to get unstuck. */
	description: string,
): IdealHouseItemError {
	const itemIndex = ctx.getItemIndex();
	const error = new IdealHouseItemError(
		ctx.getNode(),
		`${quotedField(field)} ${problem} [item ${itemIndex}]`,
		{ itemIndex, description },
		{ kind: 'neverSent' },
	);
	error.field = field;
	return error;
}

/** A field's label in single quotes, anything after it outside: `'Input Binary Field' "photo"`. */
export function quotedField(field: string): string {
	if (field.startsWith("'")) return field;
	const [, label, after] = /^(.+?)((?: "[^"]*"| #\d+)*)$/s.exec(field) ?? [field, field, ''];
	return `'${label}'${after}`;
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

/** A required URL the service will download: trimmed, absolute, http(s), sent as the URL parser writes it. */
export function requireHttpUrl(
	ctx: IExecuteSingleFunctions,
	field: string,
	value: unknown,
	severalUrlsHint = 'Give exactly one URL here.',
): string {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		throw fieldError(
			ctx,
			field,
			'is empty',
			'Give the address of an image the service can download (https://…).',
		);
	}
	if (typeof value !== 'string') {
		throw fieldError(
			ctx,
			field,
			`must be a URL text, not ${Array.isArray(value) ? 'a list' : typeof value}`,
			`Give the address of an image the service can download (https://…). ${NOTHING_SENT}`,
		);
	}
	const url = value.trim();
	// The URL parser drops line breaks silently: two pasted URLs would become one wrong URL.
	if (/[\r\n\t]/.test(url)) {
		throw fieldError(
			ctx,
			field,
			`holds a line break, as if several URLs were pasted together (got ${JSON.stringify(bounded(url, 100))})`,
			severalUrlsHint,
		);
	}
	if (!isHttpUrl(url)) {
		throw fieldError(
			ctx,
			field,
			`must be an absolute http(s) URL (got ${JSON.stringify(bounded(url, 100))})`,
			'The service downloads the image itself, so it needs a full public address such as https://example.com/photo.jpg.',
		);
	}
	// What was checked is what is sent: no stray newline, no "https:host" shorthand.
	return new URL(url).href;
}

export function requireOneOf(
	ctx: IExecuteSingleFunctions,
	field: string,
	value: unknown,
	allowed: readonly string[],
): string {
	if (typeof value !== 'string' || !allowed.includes(value)) {
		const got =
			value === undefined || value === null
				? `nothing: the value is ${String(value)}`
				: `got ${JSON.stringify(bounded(String(value), 100))}`;
		throw fieldError(
			ctx,
			field,
			`must be one of ${allowed.join(', ')} (${got})`,
			'Pick one of the listed values; an expression must produce one of them exactly.',
		);
	}
	return value;
}

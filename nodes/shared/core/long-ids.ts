import { randomBytes } from 'crypto';

// JSON.parse keeping integers beyond 2^53 exact: task ids are 64-bit. Why: docs/design/long-ids.md

type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;

const INTEGER = /^-?\d+$/;

const keepSourceOfLongs: Reviver = (_key, value, context) =>
	typeof value === 'number' && !Number.isSafeInteger(value) && INTEGER.test(context?.source ?? '')
		? context?.source
		: value;

function reviverHasSource(): boolean {
	let seen: string | undefined;
	JSON.parse('1', ((_key, value, context) => {
		seen = context?.source;
		return value;
	}) as Reviver);
	return seen === '1';
}

/** Whether this Node hands a reviver each value's source text (Node 21 and later). */
const REVIVER_HAS_SOURCE = reviverHasSource();

/** A JSON number as the grammar writes it (no leading zeros, no bare sign). */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The JSON text with each long integer in a value's place written as a string, after `prefix`. */
export function quoteLongIntegers(text: string, prefix = ''): string {
	const containers: string[] = [];
	/** Whether the next token may be a value: at the start, after `[`, `:`, or `,` in a list. */
	let valueExpected = true;
	let out = '';
	let copiedUpTo = 0;
	let i = 0;
	while (i < text.length) {
		const ch = text[i];
		if (ch === '"') {
			i++;
			while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
			i++;
			valueExpected = false;
			continue;
		}
		if (ch === '-' || (ch >= '0' && ch <= '9')) {
			NUMBER.lastIndex = i;
			const token = NUMBER.exec(text)?.[0] ?? ch;
			if (valueExpected && INTEGER.test(token) && !Number.isSafeInteger(Number(token))) {
				out += `${text.slice(copiedUpTo, i)}"${prefix}${token}"`;
				copiedUpTo = i + token.length;
			}
			i += token.length;
			valueExpected = false;
			continue;
		}
		if (ch === '{' || ch === '[') containers.push(ch);
		else if (ch === '}' || ch === ']') containers.pop();
		if (ch === '[' || ch === ':') valueExpected = true;
		else if (ch === ',') valueExpected = containers[containers.length - 1] === '[';
		else if (!/\s/.test(ch)) valueExpected = false;
		i++;
	}
	return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}

/** Parses JSON keeping each long integer as its digits, or as what `keep` makes of them. */
export function parseJsonKeepingLongs(text: string, keep?: (digits: string) => unknown): unknown {
	if (REVIVER_HAS_SOURCE) {
		const reviver: Reviver = (key, value, context) => {
			const kept = keepSourceOfLongs(key, value, context);
			return keep && kept !== value ? keep(kept as string) : kept;
		};
		return JSON.parse(text, reviver as Parameters<typeof JSON.parse>[1]);
	}
	if (!keep) return JSON.parse(quoteLongIntegers(text));
	// Node 20 gives a reviver no source: long integers are first marked as strings no user writes.
	const mark = `long-integer-${randomBytes(16).toString('hex')}:`;
	return JSON.parse(quoteLongIntegers(text, mark), (_key, parsed: unknown) =>
		typeof parsed === 'string' && parsed.startsWith(mark)
			? keep(parsed.slice(mark.length))
			: parsed,
	);
}

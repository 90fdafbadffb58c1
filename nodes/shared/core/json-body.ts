import { randomBytes } from 'crypto';

import { parseJsonKeepingLongs } from './long-ids';
import { fileLimits } from './limits';

// A user's JSON body, sent as written: long integers exact, overflow and deep nesting refused.
// Why: docs/design/long-ids.md

/** An integer too long for a JavaScript number, kept as its digits. */
export class LongInteger {
	constructor(readonly digits: string) {}

	/** Where a body is shown rather than sent (an item, a message): its digits, exactly. */
	toJSON(): string {
		return this.digits;
	}
}

export class JsonBodyError extends Error {}

/** How deep the text's containers nest, strings skipped: checked before anything recurses. */
function nestingOf(text: string): number {
	let depth = 0;
	let deepest = 0;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (ch === '"') {
			for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
		} else if (ch === '{' || ch === '[') {
			deepest = Math.max(deepest, ++depth);
		} else if (ch === '}' || ch === ']') {
			depth--;
		}
	}
	return deepest;
}

function tooDeep(): JsonBodyError {
	return new JsonBodyError(`is too deeply nested (more than ${fileLimits.jsonMaxDepth} levels)`);
}

function notANumber(source?: string): JsonBodyError {
	const shown = source ? ` (${source.slice(0, 40)})` : '';
	return new JsonBodyError(`holds a number too large for JSON${shown}`);
}

/** The number in the text that JavaScript reads as Infinity, to name it in the message. */
function overflowIn(text: string): string | undefined {
	return text
		.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)
		?.find((token) => !Number.isFinite(Number(token)));
}

/** Parses a body's JSON text; throws `JsonBodyError` or JSON.parse's SyntaxError. */
export function readJsonBody(text: string): unknown {
	if (nestingOf(text) > fileLimits.jsonMaxDepth) throw tooDeep();
	const value = parseJsonKeepingLongs(text, (digits) => new LongInteger(digits));
	checkJsonValue(value, text);
	return value;
}

/** Checks a parsed value: finite numbers, bounded nesting. `text` names a number that overflowed. */
export function checkJsonValue(value: unknown, text = ''): void {
	const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
	while (pending.length > 0) {
		const next = pending.pop() as { value: unknown; depth: number };
		if (typeof next.value === 'number' && !Number.isFinite(next.value)) {
			throw notANumber(overflowIn(text));
		}
		if (typeof next.value !== 'object' || next.value === null || next.value instanceof LongInteger)
			continue;
		if (next.depth >= fileLimits.jsonMaxDepth) throw tooDeep();
		for (const child of Object.values(next.value)) {
			pending.push({ value: child, depth: next.depth + 1 });
		}
	}
}

/** Whether a body holds a long integer, and so must be written by `writeJsonBody`. */
export function holdsLongInteger(value: unknown): boolean {
	if (value instanceof LongInteger) return true;
	if (typeof value !== 'object' || value === null) return false;
	return Object.values(value).some(holdsLongInteger);
}

/** The body as JSON text, long integers written as bare numbers with every digit. */
export function writeJsonBody(value: unknown): string {
	const mark = `long-integer-${randomBytes(16).toString('hex')}:`;
	const text = JSON.stringify(value, function (this: unknown, key: string, written: unknown) {
		const original = (this as Record<string, unknown>)[key];
		return original instanceof LongInteger ? `${mark}${original.digits}` : written;
	});
	return text.split(`"${mark}`).reduce((out, part) => out + part.replace(/^(-?\d+)"/, '$1'));
}

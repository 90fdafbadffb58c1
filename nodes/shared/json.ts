/**
 * A JSON reader that keeps every digit of large integers.
 *
 * Task ids are Java longs: `1839201938475628544` does not fit a double, so `JSON.parse` would
 * silently round it and the next poll would ask for a task that does not exist. Integers outside
 * the safe range are returned as their decimal text instead; everything else matches JSON.parse.
 */
export class JsonSyntaxError extends Error {}

const ESCAPES: Record<string, string> = {
	'"': '"',
	'\\': '\\',
	'/': '/',
	b: '\b',
	f: '\f',
	n: '\n',
	r: '\r',
	t: '\t',
};

const LITERALS: Array<[string, unknown]> = [
	['true', true],
	['false', false],
	['null', null],
];

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

export function parseJsonLossless(text: string): unknown {
	let pos = 0;

	const fail = (what: string): never => {
		throw new JsonSyntaxError(`${what} at position ${pos}`);
	};
	const skipSpace = () => {
		while (pos < text.length && ' \t\n\r'.includes(text[pos])) pos++;
	};
	const expect = (literal: string) => {
		if (text.startsWith(literal, pos)) {
			pos += literal.length;
		} else {
			fail(`Expected "${literal}"`);
		}
	};

	const readString = (): string => {
		pos++; // opening quote
		let out = '';
		let chunkStart = pos;
		for (;;) {
			if (pos >= text.length) fail('Unterminated string');
			const ch = text[pos];
			if (ch === '"') break;
			if (ch === '\\') {
				out += text.slice(chunkStart, pos);
				const esc = text[pos + 1];
				if (esc === 'u') {
					const hex = text.slice(pos + 2, pos + 6);
					if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Bad unicode escape');
					out += String.fromCharCode(parseInt(hex, 16));
					pos += 6;
				} else if (esc !== undefined && esc in ESCAPES) {
					out += ESCAPES[esc];
					pos += 2;
				} else {
					fail('Bad escape');
				}
				chunkStart = pos;
				continue;
			}
			if (ch < ' ') fail('Control character in string');
			pos++;
		}
		out += text.slice(chunkStart, pos);
		pos++; // closing quote
		return out;
	};

	const readNumber = (): number | string => {
		NUMBER.lastIndex = pos;
		const match = NUMBER.exec(text);
		if (!match) return fail('Unexpected character');
		pos += match[0].length;
		const value = Number(match[0]);
		const isInteger = match[1] === undefined && match[2] === undefined;
		return isInteger && !Number.isSafeInteger(value) ? match[0] : value;
	};

	const readValue = (): unknown => {
		skipSpace();
		const ch = text[pos];
		if (ch === '{') {
			pos++;
			const obj: Record<string, unknown> = {};
			skipSpace();
			if (text[pos] === '}') {
				pos++;
				return obj;
			}
			for (;;) {
				skipSpace();
				if (text[pos] !== '"') fail('Expected a property name');
				const key = readString();
				skipSpace();
				expect(':');
				// Defined, not assigned: a "__proto__" key stays data instead of becoming a prototype.
				Object.defineProperty(obj, key, { value: readValue(), enumerable: true, writable: true, configurable: true });
				skipSpace();
				if (text[pos] === ',') {
					pos++;
					continue;
				}
				expect('}');
				return obj;
			}
		}
		if (ch === '[') {
			pos++;
			const arr: unknown[] = [];
			skipSpace();
			if (text[pos] === ']') {
				pos++;
				return arr;
			}
			for (;;) {
				arr.push(readValue());
				skipSpace();
				if (text[pos] === ',') {
					pos++;
					continue;
				}
				expect(']');
				return arr;
			}
		}
		if (ch === '"') return readString();
		for (const [literal, literalValue] of LITERALS) {
			if (text.startsWith(literal, pos)) {
				pos += literal.length;
				return literalValue;
			}
		}
		if (ch === undefined) return fail('Unexpected end of input');
		return readNumber();
	};

	const value = readValue();
	skipSpace();
	if (pos !== text.length) fail('Unexpected text after the JSON value');
	return value;
}

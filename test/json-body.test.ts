import {
	LongInteger,
	checkJsonValue,
	holdsLongInteger,
	readJsonBody,
	writeJsonBody,
} from '../nodes/shared/core/json-body';
import { quoteLongIntegers } from '../nodes/shared/core/long-ids';

describe('JSON a user writes for a request body', () => {
	test('long integers are kept as their digits and written back as bare numbers', () => {
		const text =
			'{"seed":1839201938475628544,"n":-9223372036854775808,"s":"1839201938475628544","small":7,"list":[18446744073709551615]}';
		const value = readJsonBody(text);

		expect(value).toEqual({
			seed: new LongInteger('1839201938475628544'),
			n: new LongInteger('-9223372036854775808'),
			s: '1839201938475628544',
			small: 7,
			list: [new LongInteger('18446744073709551615')],
		});
		expect(holdsLongInteger(value)).toBe(true);
		expect(writeJsonBody(value)).toBe(text);
	});

	test('a string that looks like the marker of a long integer stays a string', () => {
		const text = '{"a":"long-integer-00:1","b":12}';
		expect(writeJsonBody(readJsonBody(text))).toBe(text);
		expect(holdsLongInteger(readJsonBody(text))).toBe(false);
	});

	test('shown rather than sent (an item, a message), a long integer is its digits', () => {
		expect(JSON.stringify({ seed: new LongInteger('1839201938475628544') })).toBe(
			'{"seed":"1839201938475628544"}',
		);
	});

	test('Node 20 reads long integers through marked strings, with the same result', () => {
		expect(quoteLongIntegers('[9007199254740993, "9007199254740993"]', 'm:')).toBe(
			'["m:9007199254740993", "9007199254740993"]',
		);
	});

	test.each([
		['{"a":1e400}', 'holds a number too large for JSON (1e400)'],
		['[1, 2e999]', 'holds a number too large for JSON (2e999)'],
		[`${'['.repeat(65)}${']'.repeat(65)}`, 'is too deeply nested (more than 64 levels)'],
	])('%s is refused', (text, message) => {
		expect(() => readJsonBody(text)).toThrow(message);
	});

	test('64 levels are allowed', () => {
		expect(() => readJsonBody(`${'['.repeat(64)}${']'.repeat(64)}`)).not.toThrow();
	});

	test('a value an expression gave is held to the same rules', () => {
		let deep: unknown = 1;
		for (let level = 0; level < 5000; level++) deep = { a: deep };
		expect(() => checkJsonValue(deep)).toThrow('is too deeply nested (more than 64 levels)');
		expect(() => checkJsonValue({ a: [Infinity] })).toThrow('holds a number too large for JSON');
		expect(() => checkJsonValue({ a: [1, { b: 'x' }] })).not.toThrow();
	});
});

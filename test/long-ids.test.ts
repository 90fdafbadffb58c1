import { parseJsonKeepingLongs, quoteLongIntegers } from '../nodes/shared/core/long-ids';

/** The reader this Node uses, and the one Node 20 uses (no source text in the reviver), on every Node. */
const readers: Array<[string, (text: string) => unknown]> = [
	['on this Node', parseJsonKeepingLongs],
	['without the reviver source (Node 20)', (text) => JSON.parse(quoteLongIntegers(text))],
];

describe.each(readers)('parseJsonKeepingLongs %s', (_name, parseJsonKeepingLongs) => {
	test('keeps every digit of ids above 2^53, where JSON.parse rounds them', () => {
		const text = '{"code":0,"message":"ok","data":1839201938475628544}';
		expect(JSON.parse(text).data).toBe(1839201938475628500);
		expect(parseJsonKeepingLongs(text)).toEqual({
			code: 0,
			message: 'ok',
			data: '1839201938475628544',
		});
	});

	test('at 2^53 - 1 an integer is still a number; at and above 2^53 it is its exact text', () => {
		expect(parseJsonKeepingLongs('[9007199254740991,-9007199254740991]')).toEqual([
			9007199254740991, -9007199254740991,
		]);
		expect(parseJsonKeepingLongs('[9007199254740992,9007199254740993,-9007199254740993]')).toEqual([
			'9007199254740992',
			'9007199254740993',
			'-9007199254740993',
		]);
	});

	test('keeps the largest Java long and negative longs exact', () => {
		expect(parseJsonKeepingLongs('[9223372036854775807,-9223372036854775808]')).toEqual([
			'9223372036854775807',
			'-9223372036854775808',
		]);
	});

	test('numbers written with an exponent or a fraction stay numbers, as JSON.parse reads them', () => {
		const text = '[1e21,-1E22,2.5e300,9007199254740993.0,1.5,-0,0]';
		expect(parseJsonKeepingLongs(text)).toEqual(JSON.parse(text));
	});

	test('reads everything else exactly as JSON.parse does', () => {
		const samples = [
			'{"a":[1,2.5,-3e2,0,true,false,null],"b":{"c":"x\\"y\\\\z\\/\\n\\t\\u00e9\\ud83c\\udfe0"},"d":[]}',
			'  "plain"  ',
			'9007199254740991',
			'1.5e300',
			'{"nested":{"deep":[{"x":[[]]}]}}',
			'"emoji 🏠 and ünïcödé"',
			'"1839201938475628544"',
		];
		for (const sample of samples) expect(parseJsonKeepingLongs(sample)).toEqual(JSON.parse(sample));
	});

	test.each([
		'',
		'{"code":0,',
		'{"a":1}x',
		"{'a':1}",
		'[1,]',
		'{"a":01}',
		'"unterminated',
		'nul',
		'{"a":"\u0001"}',
	])('rejects %j as JSON.parse does', (text) => {
		expect(() => parseJsonKeepingLongs(text)).toThrow(SyntaxError);
	});
});

describe('quoteLongIntegers (the Node 20 reader)', () => {
	test('quotes only long integers that stand as values', () => {
		expect(quoteLongIntegers('{"code":0,"data":1839201938475628544}')).toBe(
			'{"code":0,"data":"1839201938475628544"}',
		);
		expect(quoteLongIntegers('[9007199254740993, 12, -9223372036854775808]')).toBe(
			'["9007199254740993", 12, "-9223372036854775808"]',
		);
	});

	test('is not fooled by digits inside strings, escaped quotes included', () => {
		const text =
			'{"note":"id 9007199254740993","q":"say \\"1839201938475628544\\" \\\\","k9007199254740993":1,"id":9007199254740993}';
		expect(quoteLongIntegers(text)).toBe(
			text.replace(/:9007199254740993}$/, ':"9007199254740993"}'),
		);
		expect(JSON.parse(quoteLongIntegers(text))).toEqual({
			...JSON.parse(text),
			id: '9007199254740993',
		});
	});

	test('leaves a number where JSON allows no value, so that it is still refused', () => {
		for (const text of [
			'{9007199254740993:1}',
			'{"a":1,9007199254740993:2}',
			'[1 9007199254740993]',
			'[09007199254740993]',
			'9007199254740993x',
		]) {
			expect(() => JSON.parse(quoteLongIntegers(text))).toThrow(SyntaxError);
		}
	});

	test('returns text without long integers unchanged', () => {
		const text = '{"a":[1,2.5e30,-3,"x"],"b":9007199254740991}';
		expect(quoteLongIntegers(text)).toBe(text);
	});
});

import { JsonSyntaxError, parseJsonLossless } from '../nodes/shared/json';

describe('parseJsonLossless', () => {
	test('keeps every digit of ids above 2^53, where JSON.parse rounds them', () => {
		const text = '{"code":0,"message":"ok","data":1839201938475628544}';
		expect(JSON.parse(text).data).toBe(1839201938475628500);
		expect(parseJsonLossless(text)).toEqual({ code: 0, message: 'ok', data: '1839201938475628544' });
	});

	test('keeps the largest Java long and negative longs exact', () => {
		expect(parseJsonLossless('[9223372036854775807,-9223372036854775808]')).toEqual([
			'9223372036854775807',
			'-9223372036854775808',
		]);
	});

	test('reads everything else exactly as JSON.parse does', () => {
		const samples = [
			'{"a":[1,2.5,-3e2,0,true,false,null],"b":{"c":"x\\"y\\\\z\\/\\n\\t\\u00e9\\ud83c\\udfe0"},"d":[]}',
			'  "plain"  ',
			'9007199254740991',
			'1.5e300',
			'{"nested":{"deep":[{"x":[[]]}]}}',
			'"emoji 🏠 and ünïcödé"',
		];
		for (const sample of samples) expect(parseJsonLossless(sample)).toEqual(JSON.parse(sample));
	});

	test.each(['', '{"code":0,', '{"a":1}x', "{'a':1}", '[1,]', '{"a":01}', '"unterminated', 'nul', '{"a":"\u0001"}'])(
		'rejects %j like JSON.parse does',
		(text) => {
			expect(() => JSON.parse(text)).toThrow();
			expect(() => parseJsonLossless(text)).toThrow(JsonSyntaxError);
		},
	);
});

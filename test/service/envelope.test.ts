import { envelopeText, toJsonText } from '../../service/envelope.ts';

describe('JSON text with 64-bit ids', () => {
	it('writes a bigint as a bare number with every digit', () => {
		const id = 1839201938475628545n;
		const text = envelopeText(0, 'success', id);
		expect(text).toBe('{"code":0,"message":"success","data":1839201938475628545}');
		// The reason for building the text by hand: a Number cannot hold this id.
		expect(String(Number(id))).not.toBe(id.toString());
		expect(JSON.parse(text).data).not.toBe(Number.MAX_SAFE_INTEGER);
	});

	it('matches JSON.stringify for everything else, omitting undefined fields', () => {
		const value = {
			a: 'quote " and \\ and \n',
			b: [1, 2.5, null, true, undefined],
			c: { d: undefined, e: -0.125, f: [] },
			g: null,
		};
		expect(toJsonText(value)).toBe(JSON.stringify(value));
		expect(toJsonText({ id: 2n ** 63n - 1n, nested: [{ id: 9007199254740993n }] })).toBe(
			'{"id":9223372036854775807,"nested":[{"id":9007199254740993}]}',
		);
	});

	it('gives errors data null', () => {
		expect(JSON.parse(envelopeText(1011, 'imageUrl is required'))).toEqual({
			code: 1011,
			message: 'imageUrl is required',
			data: null,
		});
	});
});

import { NodeApiError } from 'n8n-workflow';

import { toTaskId } from '../nodes/shared/catalog/task';
import { readEnvelope } from '../nodes/shared/transport/answers';
import { httpResponse, itemContext, thrownBy } from './helpers/item-context';

const ctx = itemContext(3);

describe('readEnvelope', () => {
	test('returns data of a success envelope, long ids as exact strings', () => {
		expect(
			readEnvelope.call(
				ctx,
				httpResponse(200, '{"code":0,"message":"ok","data":1839201938475628544}'),
			),
		).toBe('1839201938475628544');
	});

	test('an error code is a NodeApiError for the item, not transient', () => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(200, '{"code":9051,"message":"no coins","data":null}')),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'Ideal House refused the task: the account does not have enough credits: code 9051, "no coins" [item 3]',
		);
		expect(error.context.itemIndex).toBe(3);
		expect(error.outcome).toEqual({ kind: 'refused', apiCode: 9051 });
	});

	test.each([
		[httpResponse(200, '{"code":1003,"message":"busy","data":null}'), 'code 1003'],
		[httpResponse(503, ''), 'HTTP 503'],
		[httpResponse(500, '{"code":1001,"message":"x","data":null}'), 'HTTP 500'],
		[httpResponse(200, '{"code":0,"message":"ok","da'), 'unreadable response body'],
		[httpResponse(200, '<html>proxy</html>'), 'unreadable response body'],
	])('passing faults are marked transient (%#)', (res, reason) => {
		expect(thrownBy(() => readEnvelope.call(ctx, res)).outcome.retry?.reason).toBe(reason);
	});

	test('Retry-After is read in seconds', () => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(429, 'slow', { 'retry-after': '7' })),
		);
		expect(error.outcome).toEqual({
			kind: 'refused',
			retry: { reason: 'HTTP 429', afterMs: 7000 },
		});
	});

	test('a 4xx without envelope is final', () => {
		const error = thrownBy(() => readEnvelope.call(ctx, httpResponse(404, 'Not Found')));
		expect(error.message).toBe(
			'Ideal House\'s address answered with a page that is not the API\'s: HTTP 404, "Not Found" [item 3]',
		);
		// Turned away before the service took it: nothing can have been charged.
		expect(error.outcome).toEqual({ kind: 'refused' });
	});
});

describe('small helpers', () => {
	test('toTaskId keeps strings of digits and safe numbers, refuses the rest', () => {
		expect(toTaskId(' 1839201938475628544 ')).toBe('1839201938475628544');
		expect(toTaskId(42)).toBe('42');
		expect(toTaskId(1839201938475628544)).toBeUndefined();
		expect(toTaskId('12a')).toBeUndefined();
		expect(toTaskId(null)).toBeUndefined();
	});
});

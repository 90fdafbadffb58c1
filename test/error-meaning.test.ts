import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { stoppedError } from '../nodes/shared/basics/cancellation';
import { APIS } from '../nodes/shared/catalog/catalog';
import {
	IdealHouseApiError,
	IdealHouseItemError,
	toIdealHouseError,
	type IdealHouseError,
} from '../nodes/shared/basics/errors';
import { emitTask } from '../nodes/shared/results/output';
import { networkError, readEnvelope } from '../nodes/shared/transport/transport';
import { fieldError } from '../nodes/shared/basics/validation';
import { httpResponse, itemContext, thrownBy } from './helpers/item-context';

/**
 * Every fault kind the request cycle decides on, and the meaning its error carries: may it be
 * sent again (transient), did the service certainly not act (notProcessed), was it Stop, which
 * task, what it cost. The engine-level suites show the decisions; this pins the classification.
 */

const ctx = itemContext(2);

function expectNoMeaning(error: IdealHouseError): void {
	expect([error.transient, error.stopped, error.requestSent, error.taskId, error.refunded]).toEqual(
		[undefined, undefined, undefined, undefined, undefined],
	);
}

function socketError(code: string, nested = false): Error {
	const inner = Object.assign(new Error(`socket ${code}`), { code });
	return nested ? Object.assign(new Error('request failed'), { cause: inner }) : inner;
}

describe('network faults', () => {
	test.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])(
		'%s proves the request never reached the service: transient and not processed',
		(code) => {
			const error = networkError.call(ctx, socketError(code));
			expect(error).toBeInstanceOf(IdealHouseApiError);
			expect(error.transient).toEqual({ reason: code, notProcessed: true });
			expect(error.stopped).toBeUndefined();
		},
	);

	test.each([
		'ECONNRESET',
		'ETIMEDOUT',
		'ESOCKETTIMEDOUT',
		'EPIPE',
		'ECONNABORTED',
		'EHOSTUNREACH',
	])('%s may come after the service acted: transient, but not "not processed"', (code) => {
		expect(networkError.call(ctx, socketError(code)).transient).toEqual({
			reason: code,
			notProcessed: false,
		});
	});

	test('the code is found under the error that wraps it', () => {
		expect(networkError.call(ctx, socketError('ECONNRESET', true)).transient?.reason).toBe(
			'ECONNRESET',
		);
	});

	test('a cancelled request and an unknown failure are no passing faults', () => {
		expect(networkError.call(ctx, socketError('ERR_CANCELED')).transient).toBeUndefined();
		expect(networkError.call(ctx, new Error('something else')).transient).toBeUndefined();
	});
});

describe('answers of the service', () => {
	test('a redirect is final and not followed', () => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(302, '', { location: 'http://elsewhere.example/x' })),
		);
		expect(error.transient).toBeUndefined();
		expect(error.message).toContain('redirect to elsewhere.example');
	});

	test('code 1003 in a 200 answer: the service did not take the request', () => {
		const error = thrownBy(() =>
			readEnvelope.call(
				ctx,
				httpResponse(200, '{"code":1003,"message":"busy","data":null}', { 'retry-after': '2' }),
			),
		);
		expect(error.transient).toEqual({
			reason: 'code 1003',
			notProcessed: true,
			retryAfterMs: 2000,
		});
	});

	test('code 1003 behind a 5xx may come from a gateway after the service acted', () => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(502, '{"code":1003,"message":"busy","data":null}')),
		);
		expect(error.transient).toEqual({ reason: 'HTTP 502', notProcessed: false });
	});

	test('HTTP 429 was refused before the service acted; a 5xx may not have been', () => {
		expect(
			thrownBy(() => readEnvelope.call(ctx, httpResponse(429, ''))).transient?.notProcessed,
		).toBe(true);
		expect(
			thrownBy(() => readEnvelope.call(ctx, httpResponse(503, ''))).transient?.notProcessed,
		).toBe(false);
	});

	test('an unreadable 200 body is transient, and the service may have acted', () => {
		expect(
			thrownBy(() => readEnvelope.call(ctx, httpResponse(200, '{"code":0'))).transient,
		).toEqual({
			reason: 'unreadable response body',
			notProcessed: false,
		});
	});

	test.each([1001, 1011, 5002, 9010, 9051])('error code %i is a verdict, never retried', (code) => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(200, `{"code":${code},"message":"m","data":null}`)),
		);
		expect(error.transient).toBeUndefined();
		expect(error.context.itemIndex).toBe(2);
	});
});

describe('errors of the node itself', () => {
	test('Stop is marked stopped, never transient, and keeps what the caller says of the request', () => {
		const error = stoppedError(ctx, 'stopped', undefined, { requestSent: true });
		expect(error).toBeInstanceOf(IdealHouseItemError);
		expect(error).toMatchObject({ stopped: true, requestSent: true });
		expect(error.transient).toBeUndefined();
	});

	test('a refused field has no meaning beyond its message: nothing was sent', () => {
		const error = fieldError(ctx, 'Image URL', 'must be a URL');
		expect(error.message).toBe('Image URL must be a URL [item 2]');
		expectNoMeaning(error);
	});

	test('a Failed task names its id, costs nothing and says it was refunded', async () => {
		const failed = { id: '1839201938475628544', status: 'Failed', waitNumber: 0, percentage: 0 };
		const error = (await emitTask
			.call(ctx, APIS.photoEnhancer, failed as never, { result: false, property: 'data' }, 10)
			.catch((caught: unknown) => caught)) as IdealHouseError;
		expect(error).toBeInstanceOf(IdealHouseApiError);
		expect(error).toMatchObject({
			taskId: '1839201938475628544',
			creditsCharged: 0,
			refunded: true,
		});
		expect(error.transient).toBeUndefined();
		expect(error.message).toContain('refunded');
	});
});

describe('toIdealHouseError', () => {
	test("the package's own errors pass through unchanged, meaning included", () => {
		const own = networkError.call(ctx, socketError('ECONNRESET'));
		expect(toIdealHouseError(ctx, own)).toBe(own);
	});

	test('anything else becomes an item error that means no more than its message', () => {
		const error = toIdealHouseError(ctx, new TypeError('boom'));
		expect(error).toBeInstanceOf(IdealHouseItemError);
		expect(error.message).toBe('boom');
		expectNoMeaning(error);
		expect(toIdealHouseError(ctx, 'text thrown').message).toBe('text thrown');
	});

	test("both kinds keep n8n's class names, which its engine rethrows as they are", () => {
		const api = networkError.call(ctx, socketError('ECONNRESET'));
		const item = fieldError(ctx, 'Prompt', 'is empty');
		expect(api).toBeInstanceOf(NodeApiError);
		expect(api.name).toBe('NodeApiError');
		expect(item).toBeInstanceOf(NodeOperationError);
		expect(item.name).toBe('NodeOperationError');
	});
});

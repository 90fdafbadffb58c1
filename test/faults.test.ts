/**
 * Faults of the service and the network, as a user meets them: error codes worded with what to
 * do, creates answered without a usable id, status answers without a task or about another one,
 * which faults are tried again (a create only when the task certainly was not created), Continue
 * on Fail and the error output, and the meaning each error carries for the request cycle.
 */
import nock from 'nock';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { stoppedError } from '../nodes/shared/core/cancellation';
import { APIS } from '../nodes/shared/catalog/apis';
import {
	IdealHouseApiError,
	IdealHouseItemError,
	toIdealHouseError,
	type IdealHouseError,
} from '../nodes/shared/core/errors';
import { emitTask } from '../nodes/shared/output/output';
import { readEnvelope } from '../nodes/shared/transport/answers';
import { failureError } from '../nodes/shared/transport/failures';
import { fieldError } from '../nodes/shared/core/validation';
import { logLines, runNode } from './helpers/engine';
import {
	API_KEY,
	BIG_ID,
	DONE,
	OR,
	PE,
	api,
	clock,
	created,
	envelope,
	recorded,
	refuseCreates,
	requestsTo,
	serveTask,
	taskResponse,
} from './helpers/api';
import { httpResponse, itemContext, thrownBy } from './helpers/item-context';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance, remove } from './helpers/params';

const { loggedInFile } = eachTestOnAFreshWire();

/** Nothing a user can see may hold the API key. */
function expectNoKey(value: unknown) {
	expect(JSON.stringify(value)).not.toContain(API_KEY);
}

const ctx = itemContext(2);

describe('error envelopes become errors that say what to do', () => {
	const cases: Array<[number, string, RegExp, RegExp]> = [
		[
			1001,
			'image download failed',
			/^Ideal House answered code 1001, the request was not carried out: "image download failed" \[item 0\]$/,
			/correct the input/i,
		],
		[
			1003,
			'internal',
			/^Ideal House answered code 1003, the service had an internal fault/,
			/run the node again after a short delay/i,
		],
		[
			1011,
			'imageUrl is invalid',
			/code 1011, a request parameter is missing or not valid: "imageUrl is invalid"/,
			/fix the parameter/i,
		],
		[
			5002,
			'API_KEY_INVALID',
			/code 5002, the API key is missing or not valid/,
			/check the API key in the "Ideal House API" credential/i,
		],
		[
			9010,
			'SCAN_TEXT_ERROR',
			/code 9010, the prompt did not pass the text review/,
			/rephrase the prompt/i,
		],
		[
			9038,
			'PROHIBITED_CONTENT',
			/code 9038, the generated image did not pass the content review/,
			/different image/i,
		],
		[
			9051,
			'COINS_NOT_ENOUGH',
			/^Ideal House refused the task: the account does not have enough credits: code 9051/,
			/top up credits/i,
		],
		[
			4242,
			'something new',
			/^Ideal House answered code 4242: "something new" \[item 0\]$/,
			/documentation does not list/i,
		],
	];

	test.each(cases)(
		'code %i on HTTP 200',
		async (code, message, expectedMessage, expectedAction) => {
			refuseCreates(PE, code, message, 5);

			const { error, items, run } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

			expect(items).toEqual([]);
			expect(error?.message).toMatch(expectedMessage);
			expect(error?.description).toMatch(expectedAction);
			// 1003 means the task was not created: the create is tried again (5 attempts in all).
			expect(recorded).toHaveLength(code === 1003 ? 5 : 1);
			expectNoKey(run);
		},
	);

	test.each([
		[400, 1011, 'presetId unknown'],
		[500, 1001, 'database down'],
		[401, 5002, 'bad key'],
	])('an envelope on HTTP %i keeps the service message', async (status, code, message) => {
		api()
			.post(PE.create)
			.reply(status, envelope('null', code, message));
		// (a 5xx on a create is not retried: the task may have been created and charged)

		const { error, run } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error?.message).toContain(`Ideal House answered code ${code}`);
		expect(error?.message).toContain(message);
		expect(error?.httpCode).toBe(String(status));
		expectNoKey(run);
	});

	test('an HTTP error without an envelope names the status and the text', async () => {
		api().post(PE.create).reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>');

		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error?.message).toBe(
			'Ideal House is unavailable right now: HTTP 502, "502 Bad Gateway" [item 0]',
		);
		// A create behind a 5xx may have been taken: no advice to send it again.
		expect(error?.description).toMatch(/may have been created and charged/);
		expect(error?.description).not.toMatch(/run the node again|retry/i);
	});

	test('an error while polling fails the item with the service message', async () => {
		serveTask(PE, '31', envelope('null', 1011, 'taskId not found'));

		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error?.message).toMatch(/code 1011, .*"taskId not found"/);
		expect(requestsTo(PE.result)).toHaveLength(1);
	});
});

describe('a create answered with code 0 but no usable id', () => {
	test.each([
		['null', 'null', 'null'],
		['an object', '{"taskId":1839201938475628544}', '{"taskId":"1839201938475628544"}'],
		['a negative number', '-42', '-42'],
		['a fraction', '12.5', '12.5'],
		['text', '"queued"', '"queued"'],
		['a list', `[${BIG_ID}]`, `["${BIG_ID}"]`],
	])(
		'(%s) fails as "may have been charged", quotes the data, logs it, and is never sent again',
		async (_kind, data, quotedData) => {
			api().post(PE.create).reply(200, created(data));

			const { error, items } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

			expect(items).toEqual([]);
			expect(error?.message).toBe(
				`Ideal House accepted the request (code 0) but sent no usable task id (data: ${quotedData}) [item 0]`,
			);
			expect(error?.description).toMatch(/may have been created and charged/);
			expect(error?.description).toMatch(/Get Result/);
			expect(requestsTo(PE.create)).toHaveLength(1);
			expect(requestsTo(PE.result)).toHaveLength(0);
			expect(logLines.join('\n')).toContain(`no usable task id (data: ${quotedData})`);
		},
	);

	test('with no data at all, the same', async () => {
		api().post(PE.create).reply(200, '{"code":0,"message":"success"}');

		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error?.message).toMatch(/no usable task id \(data: missing\) \[item 0\]$/);
		expect(requestsTo(PE.create)).toHaveLength(1);
	});

	test('the quoted data is cleared of the key and cut', async () => {
		api()
			.post(PE.create)
			.reply(200, created(JSON.stringify({ echo: `APIKEY=${API_KEY}`, pad: 'x'.repeat(5000) })));

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		expect(JSON.stringify(recorded.length)).toBe('1');
		expect(logLines.join('\n')).not.toContain(API_KEY);
		expect(logLines.join('\n')).toContain('APIKEY=[redacted]');
		expect(logLines.join('\n')).toMatch(/more characters\)/);
	});

	test('with Continue on Fail, the error item carries the quote', async () => {
		api().post(PE.create).reply(200, created('{"ticket":"A-77"}'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			onError: 'continueRegularOutput',
		});

		expect(items).toHaveLength(1);
		expect(items[0].json.error).toBe(
			'Ideal House accepted the request (code 0) but sent no usable task id (data: {"ticket":"A-77"}) [item 0]',
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('a status answer with code 0 but no usable task is a passing fault', () => {
	test.each([
		['null', 'null'],
		['a list', '[]'],
		['a task without status', `{"id":${BIG_ID},"percentage":5}`],
	])('(%s): the wait goes on and the item gets its task', async (_kind, data) => {
		serveTask(PE, BIG_ID, envelope(data), DONE);

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: BIG_ID, status: 'Success', creditsCharged: 10 });
		expect(requestsTo(PE.create)).toHaveLength(1);
		expect(requestsTo(PE.result)).toHaveLength(2);
	});

	test('until the Timeout, and then the item still names its task', async () => {
		serveTask(PE, BIG_ID, ...Array<string>(100).fill(envelope('null')));

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 60 } }),
		});

		expect(error?.message).toBe(
			`Task ${BIG_ID} did not finish within 60 s (no status received yet) [item 0]`,
		);
		expect(error?.description).toMatch(`task ID ${BIG_ID}`);
		expect(requestsTo(PE.create)).toHaveLength(1);
		expect(requestsTo(PE.result).length).toBeGreaterThan(3);
	});

	test('Get Result asks again, and names the task when the answers stay unusable', async () => {
		api().get(PE.result).query(true).times(5).reply(200, envelope('[]'));

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: BIG_ID },
		});

		expect(requestsTo(PE.result)).toHaveLength(5);
		expect(error?.message).toBe(
			'Ideal House sent an unexpected response: the result call returned no task (data: []) [item 0]',
		);
	});
});

describe('a status answer about another task is never taken for the task asked about', () => {
	test('while waiting: the item keeps the id it created, and the right answer follows', async () => {
		serveTask(PE, BIG_ID, taskResponse('1839201938475628999'), DONE);

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(BIG_ID);
		expect(items[0].json.output).toMatchObject({
			resultUrl: `https://cdn.ideal.house/results/${BIG_ID}.png`,
		});
		expect(requestsTo(PE.result)).toHaveLength(2);
	});

	test('a Failed verdict about another task does not fail this one', async () => {
		serveTask(PE, BIG_ID, taskResponse('77', { status: 'Failed' }), DONE);

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: BIG_ID, status: 'Success' });
	});

	test('Get Result: an error that names both ids when the answers stay about another task', async () => {
		api().get(PE.result).query(true).times(5).reply(200, taskResponse('77'));

		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: BIG_ID },
		});

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			`Ideal House sent an unexpected response: asked for task ${BIG_ID}, the answer is about task 77 [item 0]`,
		);
	});
});

describe('a create is retried only when the task certainly was not created', () => {
	test.each([
		[
			'HTTP 429 (Retry-After honoured)',
			(scope: nock.Interceptor) => scope.reply(429, 'Too Many Requests', { 'Retry-After': '9' }),
			[9000],
		],
		[
			'code 1003',
			(scope: nock.Interceptor) => scope.reply(200, envelope('null', 1003, 'busy')),
			[2000],
		],
		[
			'a refused connection',
			(scope: nock.Interceptor) =>
				scope.replyWithError(
					Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
				),
			[2000],
		],
	])('%s: one more create, one task', async (_name, fault, expectedWaits) => {
		const scope = api();
		fault(scope.post(PE.create));
		scope
			.post(PE.create)
			.reply(200, created('61'))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('61'));

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false }),
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: '61', status: 'Unprocessed', creditsCharged: 10 });
		expect(requestsTo(PE.create)).toHaveLength(2);
		expect(recorded[1].body).toEqual(recorded[0].body);
		expect(clock.sleeps).toEqual(expectedWaits);
	});

	test.each([
		['HTTP 502', (scope: nock.Interceptor) => scope.reply(502, 'Bad Gateway')],
		[
			'HTTP 500 with an envelope',
			(scope: nock.Interceptor) => scope.reply(500, envelope('null', 1001, 'oops')),
		],
		[
			'HTTP 502 carrying a 1003 body (a gateway: the service may have acted)',
			(scope: nock.Interceptor) => scope.reply(502, envelope('null', 1003, 'upstream')),
		],
		[
			'a reset connection',
			(scope: nock.Interceptor) =>
				scope.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
		],
		[
			'a truncated body',
			(scope: nock.Interceptor) => scope.reply(200, '{"code":0,"message":"ok","data":18392019'),
		],
		[
			"HTTP 429 around the service's own code 0, with no usable task id (a gateway after the service acted)",
			(scope: nock.Interceptor) => scope.reply(429, envelope('null', 0, 'ok')),
		],
	])(
		'%s: no second create (it could charge twice), and the error says the task may exist',
		async (_name, fault) => {
			const scope = api();
			fault(scope.post(PE.create));
			scope.post(PE.create).reply(200, created('62'));

			const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

			expect(requestsTo(PE.create)).toHaveLength(1);
			expect(error?.description).toContain('may have been created and charged');
			expect(clock.sleeps).toEqual([]);
		},
	);

	test('gives up after five refused attempts, backing off 2, 4, 8, 16 s', async () => {
		api().post(OR.create).times(5).reply(429, 'Too Many Requests');

		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
		});

		expect(error?.message).toBe(
			'Ideal House is limiting the request rate: HTTP 429, "Too Many Requests" [item 0]',
		);
		// Refused every time: nothing was charged, so the advice may be to run again.
		expect(error?.description).toMatch(/nothing was created or charged.*run the node again/i);
		expect(requestsTo(OR.create)).toHaveLength(5);
		expect(clock.sleeps).toEqual([2000, 4000, 8000, 16000]);
	});

	test('Get Result is a read: retried on any passing fault', async () => {
		api()
			.get(PE.result)
			.query(true)
			.reply(503, 'busy')
			.get(PE.result)
			.query(true)
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('63'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '63' },
		});

		expect(items[0].json).toMatchObject({ id: '63', status: 'Success', creditsCharged: 10 });
		expect(requestsTo(PE.result)).toHaveLength(3);
	});
});

describe('a rate limit too long to wait for', () => {
	test.each([
		['a day', '86400'],
		['thirty days', '2592000'],
	])(
		'a create told to come back in %s fails at once as rate-limited, with advice',
		async (_name, retryAfter) => {
			api().post(PE.create).reply(429, 'Too Many Requests', { 'Retry-After': retryAfter });

			const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

			expect(error?.message).toMatch(/rate/i);
			expect(error?.description).toMatch(/later/);
			expect(requestsTo(PE.create)).toHaveLength(1);
			expect(clock.sleeps).toEqual([]);
		},
	);

	test('Get Result told to come back in a day fails at once, saying the task is not affected', async () => {
		api()
			.get(PE.result)
			.query({ taskId: '63' })
			.reply(429, 'Too Many Requests', { 'Retry-After': '86400' });

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '63' },
		});

		expect(error?.message).toBe(
			'Ideal House is limiting the request rate and asked to wait 86400 s before the next request [item 0]',
		);
		expect(error?.description).toBe(
			'That is longer than this node waits (60 s). Nothing was changed: run Get Result for this task again later; the task itself is not affected.',
		);
		expect(requestsTo(PE.result)).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});

	test('a create told to come back at a time that is neither seconds nor a date waits the 60 s it ever waits, then goes again', async () => {
		api()
			.post(PE.create)
			.reply(429, 'Too Many Requests', { 'Retry-After': 'later, please' })
			.post(PE.create)
			.reply(200, created('5'));

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false }),
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '5', status: 'Unprocessed' });
		expect(requestsTo(PE.create)).toHaveLength(2);
		// Not the 2 s backoff: the service asked to wait, for as long as the node ever waits.
		expect(clock.sleeps).toEqual([60_000]);
	});
});

describe('Continue on Fail and the error output', () => {
	/** Two items, the first refused with 9051 and the second a task that finished, run with `onError`. */
	async function twoItemsOneFails(onError?: 'continueRegularOutput' | 'continueErrorOutput') {
		const answer = (_uri: string, body: nock.Body) =>
			(body as { imageUrl: string }).imageUrl.endsWith('/ok.jpg')
				? created('11')
				: envelope('null', 9051, 'COINS_NOT_ENOUGH');
		api().post(PE.create).times(2).reply(200, answer);
		api().get(PE.result).query({ taskId: '11' }).reply(200, taskResponse('11'));
		return await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}' }),
			items: [
				{ json: { url: 'https://photos.example.com/broke.jpg' } },
				{ json: { url: 'https://photos.example.com/ok.jpg' } },
			],
			onError,
		});
	}

	test('continue (regular output): the failed item carries its error, the other its result', async () => {
		const result = await twoItemsOneFails('continueRegularOutput');

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json.error).toMatch(/not have enough credits: code 9051/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[1].json).toMatchObject({ id: '11', status: 'Success' });
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		expectNoKey(result.run);
	});

	test('continue (error output): the failed item goes to the error output', async () => {
		const result = await twoItemsOneFails('continueErrorOutput');

		expect(result.items.map((item) => item.json.id)).toEqual(['11']);
		expect(result.items[0].pairedItem).toEqual({ item: 1 });
		expect(result.errorItems).toHaveLength(1);
		expect(result.errorItems[0].json.error).toMatch(/9051/);
		expect(result.errorItems[0].pairedItem).toEqual({ item: 0 });
	});

	test('without Continue on Fail, the node error names the item', async () => {
		const result = await twoItemsOneFails();

		expect(result.error?.message).toMatch(/9051/);
		expect((result.error?.context as { itemIndex?: number })?.itemIndex).toBe(0);
	});
});

/*
 * What each error's request came to (its outcome): may it be sent again (retry), did the service
 * certainly not act (never sent, refused), was it Stop, which task, what it cost. The
 * engine-level tests above show the decisions; these pin the classification.
 */

describe('answers of the service', () => {
	test('a redirect is final and not followed', () => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(302, '', { location: 'http://elsewhere.example/x' })),
		);
		expect(error.outcome).toEqual({ kind: 'refused' });
		expect(error.message).toContain('a redirect: HTTP 302 to elsewhere.example');
	});

	test('code 1003 in a 200 answer: the service did not take the request', () => {
		const error = thrownBy(() =>
			readEnvelope.call(
				ctx,
				httpResponse(200, '{"code":1003,"message":"busy","data":null}', { 'retry-after': '2' }),
			),
		);
		expect(error.outcome).toEqual({
			kind: 'refused',
			apiCode: 1003,
			retry: { reason: 'code 1003', afterMs: 2000 },
		});
	});

	test('code 1003 behind a 5xx may come from a gateway after the service acted', () => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(502, '{"code":1003,"message":"busy","data":null}')),
		);
		expect(error.outcome).toEqual({
			kind: 'maybeActed',
			apiCode: 1003,
			retry: { reason: 'HTTP 502' },
		});
	});

	test('HTTP 429 was refused before the service acted; a 5xx may not have been', () => {
		expect(thrownBy(() => readEnvelope.call(ctx, httpResponse(429, ''))).outcome).toMatchObject({
			kind: 'refused',
			retry: { reason: 'HTTP 429' },
		});
		expect(thrownBy(() => readEnvelope.call(ctx, httpResponse(503, ''))).outcome).toMatchObject({
			kind: 'maybeActed',
			retry: { reason: 'HTTP 503' },
		});
	});

	test("code 0 behind a 429 is the service's own answer: it may have acted, never a refusal", () => {
		const error = thrownBy(() =>
			readEnvelope.call(
				ctx,
				httpResponse(429, '{"code":0,"message":"ok","data":null}'),
				[],
				'create',
			),
		);
		expect(error.outcome).toEqual({
			kind: 'maybeActed',
			apiCode: 0,
			retry: { reason: 'HTTP 429' },
		});
	});

	test('an unreadable 200 body is transient, and the service may have acted', () => {
		expect(thrownBy(() => readEnvelope.call(ctx, httpResponse(200, '{"code":0'))).outcome).toEqual({
			kind: 'maybeActed',
			retry: { reason: 'unreadable response body' },
		});
	});

	test.each([1001, 1011, 5002, 9010, 9051])('error code %i is a verdict, never retried', (code) => {
		const error = thrownBy(() =>
			readEnvelope.call(ctx, httpResponse(200, `{"code":${code},"message":"m","data":null}`)),
		);
		expect(error.outcome).toEqual({ kind: 'refused', apiCode: code });
		expect(error.context.itemIndex).toBe(2);
	});
});

describe('errors of the node itself', () => {
	test('Stop is marked stopped, never transient, and keeps what the caller says of the request', () => {
		const error = stoppedError(ctx, 'stopped', undefined, { kind: 'maybeActed' });
		expect(error).toBeInstanceOf(IdealHouseItemError);
		expect(error.outcome).toEqual({ kind: 'maybeActed', stopped: true });
	});

	test('a refused field has no meaning beyond its message: nothing was sent', () => {
		const error = fieldError(ctx, 'Image URL', 'must be a URL', 'Give a URL.');
		expect(error.message).toBe("'Image URL' must be a URL [item 2]");
		expect(error.outcome).toEqual({ kind: 'neverSent' });
	});

	test('a Failed task names its id, costs nothing and says it was refunded', async () => {
		const failed = { id: '1839201938475628544', status: 'Failed', waitNumber: 0, percentage: 0 };
		const error = (await emitTask
			.call(ctx, APIS.photoEnhancer, failed as never, { result: false, property: 'data' }, 10)
			.catch((caught: unknown) => caught)) as IdealHouseError;
		expect(error).toBeInstanceOf(IdealHouseApiError);
		expect(error.outcome).toEqual({
			kind: 'finished',
			taskId: '1839201938475628544',
			creditsCharged: 0,
			refunded: true,
		});
		expect(error.message).toContain('refunded');
	});
});

describe('toIdealHouseError', () => {
	test("the package's own errors pass through unchanged, meaning included", () => {
		const own = failureError({ node: ctx.getNode(), itemIndex: 2 }, 'connectionCut');
		expect(toIdealHouseError(ctx, own)).toBe(own);
	});

	test('anything else becomes an item error that means no more than its message', () => {
		const error = toIdealHouseError(ctx, new TypeError('boom'));
		expect(error).toBeInstanceOf(IdealHouseItemError);
		expect(error.message).toBe('boom [item 2]');
		// Nothing is known of its request: the service may have acted on it.
		expect(error.outcome).toEqual({ kind: 'maybeActed' });
		expect(toIdealHouseError(ctx, 'text thrown').message).toBe('text thrown [item 2]');
	});

	test("both kinds keep n8n's class names, which its engine rethrows as they are", () => {
		const api = failureError({ node: ctx.getNode(), itemIndex: 2 }, 'connectionCut');
		const item = fieldError(ctx, 'Prompt', 'is empty', 'Write a prompt.');
		expect(api).toBeInstanceOf(NodeApiError);
		expect(api.name).toBe('NodeApiError');
		expect(item).toBeInstanceOf(NodeOperationError);
		expect(item.name).toBe('NodeOperationError');
	});
});

test('nothing n8n or the nodes logged in this file holds the API key', () => {
	expect(loggedInFile.length).toBeGreaterThan(0);
	expect(loggedInFile.join('\n')).not.toContain(API_KEY);
});

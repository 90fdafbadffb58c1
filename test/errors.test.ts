import nock from 'nock';

import { logLines, runNode } from '../dev/harness/engine';
import {
	API_KEY,
	BIG_ID,
	PE,
	api,
	clock,
	created,
	envelope,
	recorded,
	quietAfterStop,
	requestsTo,
	resetWire,
	taskResponse,
} from './helpers/api';

const enhance = (parameters: Record<string, unknown> = {}) => ({
	operation: 'enhance',
	imageUrl: 'https://photos.example.com/kitchen.jpg',
	presetId: 'image-optimization-mls-photo-enhancement',
	...parameters,
});

beforeEach(resetWire);
afterAll(() => nock.restore());

/** Nothing a user can see may hold the API key. */
function expectNoKey(value: unknown) {
	expect(JSON.stringify(value)).not.toContain(API_KEY);
}

describe('error envelopes become errors that say what to do', () => {
	const cases: Array<[number, string, RegExp, RegExp]> = [
		[1001, 'image download failed', /1001 \(FAILED\).*image download failed/, /correct the input/i],
		[1003, 'internal', /1003 \(INTERNAL_ERROR\)/, /retry after a short delay/i],
		[
			1011,
			'imageUrl is invalid',
			/1011 \(PARAM_ERROR\).*imageUrl is invalid/,
			/fix the parameter/i,
		],
		[
			5002,
			'API_KEY_INVALID',
			/5002 \(API_KEY_INVALID\)/,
			/check the API key in the "Ideal House API" credential/i,
		],
		[
			9010,
			'SCAN_TEXT_ERROR',
			/9010 \(SCAN_TEXT_ERROR\).*prompt failed the text review/,
			/rephrase the prompt/i,
		],
		[
			9038,
			'PROHIBITED_CONTENT',
			/9038 \(PROHIBITED_CONTENT\).*generated image was rejected/,
			/different image/i,
		],
		[
			9051,
			'COINS_NOT_ENOUGH',
			/9051 \(COINS_NOT_ENOUGH\).*not have enough credits/,
			/top up credits/i,
		],
		[4242, 'something new', /Ideal House error 4242: something new/, /not documented/i],
	];

	test.each(cases)(
		'code %i on HTTP 200',
		async (code, message, expectedMessage, expectedAction) => {
			api()
				.post(PE.create)
				.times(5)
				.reply(200, envelope('null', code, message));

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

		expect(error?.message).toContain(`Ideal House error ${code}`);
		expect(error?.message).toContain(message);
		expect(error?.httpCode).toBe(String(status));
		expectNoKey(run);
	});

	test('an HTTP error without an envelope names the status and the text', async () => {
		api().post(PE.create).reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>');

		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error?.message).toBe('Ideal House answered HTTP 502: 502 Bad Gateway');
		expect(error?.description).toMatch(/retry after a short delay/i);
	});

	test('an error while polling fails the item with the service message', async () => {
		api()
			.post(PE.create)
			.reply(200, created('31'))
			.get(PE.result)
			.query(true)
			.reply(200, envelope('null', 1011, 'taskId not found'));

		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error?.message).toMatch(/1011 \(PARAM_ERROR\).*taskId not found/);
		expect(requestsTo(PE.result)).toHaveLength(1);
	});
});

describe('waiting ends in a verdict', () => {
	test('a Failed task is an item error saying the credits were refunded', async () => {
		api()
			.post(PE.create)
			.reply(200, created(BIG_ID))
			.get(PE.result)
			.query({ taskId: BIG_ID })
			.reply(200, taskResponse(BIG_ID, { status: 'Failed' }));

		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error?.message).toBe(
			`Ideal House Photo Enhancer task ${BIG_ID} failed. Its 10 credits were refunded automatically`,
		);
	});

	test('a timeout fails the item with the task id, so the paid task can be fetched later', async () => {
		const scope = api().post(PE.create).reply(200, created(BIG_ID));
		scope
			.get(PE.result)
			.query({ taskId: BIG_ID })
			.times(100)
			.reply(200, taskResponse(BIG_ID, { status: 'Processing', percentage: 30 }));

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 20, pollInterval: 5 } }),
		});

		expect(error?.message).toBe(
			`Task ${BIG_ID} did not finish within 20 s (last status Processing, 30%)`,
		);
		expect(error?.description).toContain(`Get Result operation and task ID ${BIG_ID}`);
		// 30 % at 5 s and still at 10 s: stalled progress predicts nothing, so polls at 5, 10, 15
		// and 20 s, then gives up.
		expect(requestsTo(PE.result)).toHaveLength(4);
		expect(clock.sleeps).toEqual([5000, 5000, 5000, 5000]);
	});

	test('passing faults while polling are retried until the task finishes', async () => {
		api()
			.post(PE.create)
			.reply(200, created('900'))
			.get(PE.result)
			.query(true)
			.reply(503, 'Service Unavailable')
			.get(PE.result)
			.query(true)
			.reply(429, 'slow down', { 'Retry-After': '12' })
			.get(PE.result)
			.query(true)
			.reply(200, envelope('null', 1003, 'busy'))
			.get(PE.result)
			.query(true)
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.get(PE.result)
			.query(true)
			.reply(200, '{"code":0,"message":"ok","data":{"id":900,"sta')
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('900'));

		const { items, error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '900', status: 'Success' });
		expect(requestsTo(PE.create)).toHaveLength(1);
		expect(requestsTo(PE.result)).toHaveLength(6);
		// First wait 4 s; then backoff doubling from 4 s up to 30 s, Retry-After 12 s beating the 8 s step.
		expect(clock.sleeps).toEqual([4000, 4000, 12000, 16000, 30000, 30000]);
	});

	test('cancelling the execution stops the polling', async () => {
		const { clock: pollClock } = await import('../nodes/shared/basics/clock');
		const { sleep } = await import('n8n-workflow');
		pollClock.sleep = async (_ms, signal) => await sleep(20, signal);
		pollClock.now = () => Date.now();
		const scope = api().post(PE.create).reply(200, created('5'));
		scope
			.get(PE.result)
			.query(true)
			.times(1000)
			.reply(200, taskResponse('5', { status: 'Processing' }));

		const started = Date.now();
		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			cancelAfterMs: 500,
		});
		const elapsed = Date.now() - started;

		expect(elapsed).toBeLessThan(5000);
		expect(error?.message).toBe('Execution stopped while waiting for task 5');
		expect(error?.description).toContain('task ID 5');
		expect(items).toEqual([]);
		const polls = await quietAfterStop(() => requestsTo(PE.result).length);
		expect(polls).toBeGreaterThan(0);
	});
});

describe('Continue on Fail and the error output', () => {
	function twoItemsOneFails() {
		api()
			.post(PE.create)
			.reply(200, (_uri, body) =>
				(body as { imageUrl: string }).imageUrl.endsWith('/ok.jpg')
					? created('11')
					: envelope('null', 9051, 'COINS_NOT_ENOUGH'),
			)
			.post(PE.create)
			.reply(200, (_uri, body) =>
				(body as { imageUrl: string }).imageUrl.endsWith('/ok.jpg')
					? created('11')
					: envelope('null', 9051, 'COINS_NOT_ENOUGH'),
			)
			.get(PE.result)
			.query({ taskId: '11' })
			.reply(200, taskResponse('11'));
		return [
			{ json: { url: 'https://photos.example.com/broke.jpg' } },
			{ json: { url: 'https://photos.example.com/ok.jpg' } },
		];
	}

	test('continue (regular output): the failed item carries its error, the other its result', async () => {
		const items = twoItemsOneFails();

		const result = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}' }),
			items,
			onError: 'continueRegularOutput',
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json.error).toMatch(/9051 \(COINS_NOT_ENOUGH\)/);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[1].json).toMatchObject({ id: '11', status: 'Success' });
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		expectNoKey(result.run);
	});

	test('continue (error output): the failed item goes to the error output', async () => {
		const items = twoItemsOneFails();

		const result = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}' }),
			items,
			onError: 'continueErrorOutput',
		});

		expect(result.items.map((item) => item.json.id)).toEqual(['11']);
		expect(result.items[0].pairedItem).toEqual({ item: 1 });
		expect(result.errorItems).toHaveLength(1);
		expect(result.errorItems[0].json.error).toMatch(/9051/);
		expect(result.errorItems[0].pairedItem).toEqual({ item: 0 });
	});

	test('without Continue on Fail, the node error names the item', async () => {
		const items = twoItemsOneFails();

		const result = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}' }),
			items,
		});

		expect(result.error?.message).toMatch(/9051/);
		expect((result.error?.context as { itemIndex?: number })?.itemIndex).toBe(0);
	});
});

test('nothing n8n or the nodes logged in this file holds the API key', () => {
	expect(logLines.length).toBeGreaterThan(0);
	expect(logLines.join('\n')).not.toContain(API_KEY);
});

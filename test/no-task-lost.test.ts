/**
 * No paid task is lost, whatever the service answers: a create taken without a usable id, a
 * status answer without a task or about another task, and the careless inputs and settings that
 * used to be taken in silently.
 */
import nock from 'nock';
import { sleep } from 'n8n-workflow';

import { clock as nodeClock } from '../nodes/shared/basics/clock';
import { limits } from '../nodes/shared/basics/limits';
import { redact } from '../nodes/shared/basics/redact';
import { logLines, runNode } from '../dev/harness/engine';
import {
	API_KEY,
	BIG_ID,
	PE,
	TINY_PNG,
	api,
	created,
	envelope,
	recorded,
	requestsTo,
	resetWire,
	taskResponse,
} from './helpers/api';
import { startServer, type LocalServer } from './helpers/local-server';

const enhance = (parameters: Record<string, unknown> = {}) => ({
	operation: 'enhance',
	imageUrl: 'https://photos.example.com/a.jpg',
	presetId: 'exterior-enhancement-curb-appeal',
	...parameters,
});

const defaultLimits = { ...limits };
const servers: LocalServer[] = [];

beforeEach(() => {
	resetWire();
	logLines.length = 0;
	Object.assign(limits, defaultLimits);
});
afterEach(async () => {
	for (const running of servers.splice(0)) await running.close();
});
afterAll(() => nock.restore());

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
				`Ideal House accepted the request (code 0) but sent no usable task id (data: ${quotedData})`,
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

		expect(error?.message).toMatch(/no usable task id \(data: missing\)$/);
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
			'Ideal House accepted the request (code 0) but sent no usable task id (data: {"ticket":"A-77"})',
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
		api()
			.post(PE.create)
			.reply(200, created(BIG_ID))
			.get(PE.result)
			.query({ taskId: BIG_ID })
			.reply(200, envelope(data))
			.get(PE.result)
			.query({ taskId: BIG_ID })
			.reply(200, taskResponse(BIG_ID));

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: BIG_ID, status: 'Success', creditsCharged: 10 });
		expect(requestsTo(PE.create)).toHaveLength(1);
		expect(requestsTo(PE.result)).toHaveLength(2);
	});

	test('until the Timeout, and then the item still names its task', async () => {
		api()
			.post(PE.create)
			.reply(200, created(BIG_ID))
			.get(PE.result)
			.query(true)
			.times(100)
			.reply(200, envelope('null'));

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 60 } }),
		});

		expect(error?.message).toBe(
			`Task ${BIG_ID} did not finish within 60 s (no status received yet)`,
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
			'Ideal House sent an unexpected response: the result call returned no task (data: [])',
		);
	});
});

describe('a status answer about another task is never taken for the task asked about', () => {
	test('while waiting: the item keeps the id it created, and the right answer follows', async () => {
		api()
			.post(PE.create)
			.reply(200, created(BIG_ID))
			.get(PE.result)
			.query({ taskId: BIG_ID })
			.reply(200, taskResponse('1839201938475628999'))
			.get(PE.result)
			.query({ taskId: BIG_ID })
			.reply(200, taskResponse(BIG_ID));

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(BIG_ID);
		expect(items[0].json.output).toMatchObject({
			resultUrl: `https://cdn.ideal.house/results/${BIG_ID}.png`,
		});
		expect(requestsTo(PE.result)).toHaveLength(2);
	});

	test('a Failed verdict about another task does not fail this one', async () => {
		api()
			.post(PE.create)
			.reply(200, created(BIG_ID))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('77', { status: 'Failed' }))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse(BIG_ID));

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
			`Ideal House sent an unexpected response: asked for task ${BIG_ID}, the answer is about task 77`,
		);
	});
});

describe('careless input is refused before anything is sent', () => {
	test.each(['={{ null }}', '={{ undefined }}', '={{ $json.missing }}'])(
		'an Image Size expression %s that yields nothing is a field error, not 4K',
		async (imageSize) => {
			const { error } = await runNode({
				node: 'photoEnhancer',
				parameters: enhance({ imageSize }),
			});

			expect(error?.message).toMatch(
				/^Image Size must be one of 512, 1K, 2K, 4K \(nothing: the value is (null|undefined)\) \[item 0\]$/,
			);
			expect(recorded).toHaveLength(0);
		},
	);

	test.each([
		['a line break', 'https://photos.example.com/a.jpg\nhttps://photos.example.com/b.jpg'],
		[
			'a Windows line break',
			'https://photos.example.com/a.jpg\r\nhttps://photos.example.com/b.jpg',
		],
		['a tab', 'https://photos.example.com/a.jpg\thttps://photos.example.com/b.jpg'],
	])('an image URL with %s is refused, with the way to send several', async (_kind, imageUrl) => {
		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance({ imageUrl }) });

		expect(error?.message).toMatch(
			/^Image URL holds a line break, as if several URLs were pasted together/,
		);
		expect(error?.description).toMatch(/Several Image URLs/);
		expect(recorded).toHaveLength(0);
	});

	test('an entry of Several Image URLs with a line break is refused too, numbered', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({
				imageInput: 'urls',
				imageUrls: [
					'https://photos.example.com/a.jpg',
					'https://x.example.com/1.jpg\nhttps://x.example.com/2.jpg',
				],
				presetId: 'hdr-merge-hdr-merge',
			}),
		});

		expect(error?.message).toMatch(/^Image URLs #2 holds a line break/);
		expect(recorded).toHaveLength(0);
	});

	test('a mask URL with a line break is refused', async () => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: {
				operation: 'remove',
				imageUrl: 'https://photos.example.com/a.jpg',
				emptyType: 'single_furniture',
				maskSource: 'url',
				maskUrl: 'https://photos.example.com/m.png\nhttps://photos.example.com/n.png',
			},
		});

		expect(error?.message).toMatch(/^Mask URL holds a line break/);
		expect(error?.description).toBe('Give exactly one URL here.');
		expect(recorded).toHaveLength(0);
	});
});

describe('the base URL as users paste it', () => {
	test.each([
		'  https://api.ideal.house  ',
		'https://api.ideal.house/ \n',
		'\thttps://api.ideal.house//',
	])('%j is used trimmed, for the create and the status checks', async (baseUrl) => {
		api()
			.post(PE.create)
			.reply(200, created(BIG_ID))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse(BIG_ID));

		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl },
		});

		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(BIG_ID);
		expect(recorded.map((request) => request.path)).toEqual([PE.create, PE.result]);
	});

	test('a base URL that is not an address fails naming the credential field, and sends nothing', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl: 'api.ideal.house' },
		});

		expect(`${error?.message} ${error?.description ?? ''}`).toMatch(/Base URL/);
		expect(`${error?.message} ${error?.description ?? ''}`).toMatch(/Ideal House API/);
		expect(recorded).toHaveLength(0);
	});
});

describe('echoed credential headers', () => {
	test('read APIKEY=[redacted], with no bracket left over', () => {
		expect(redact(`APIKEY=${API_KEY}`, [API_KEY])).toBe('APIKEY=[redacted]');
		expect(redact(`{"apikey":"${API_KEY}"}`, [API_KEY])).toBe('{"apikey":"[redacted]"}');
		expect(redact(`[APIKEY: ${API_KEY}]`, [API_KEY])).toBe('[APIKEY: [redacted]]');
	});
});

/** Real time, with the retry waits cut short. */
function realTime(): void {
	nock.enableNetConnect(/127\.0\.0\.1/);
	nodeClock.now = () => Date.now();
	nodeClock.sleep = async (ms, signal) => await sleep(Math.min(ms, 50), signal);
}

describe('downloads', () => {
	test('a host that stalls is bounded as a whole: no new attempt once the time limit is spent', async () => {
		realTime();
		limits.downloadTimeoutMs = 600;
		const service = await startServer((req, res) => {
			if (req.url?.startsWith('/results/')) {
				// Headers and the first bytes, then nothing: a stalled transfer.
				res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': '100000' });
				res.write(TINY_PNG.subarray(0, 16));
				return;
			}
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				taskResponse('61', {
					output: { resultUrl: `${service.url}/results/61.png`, width: 1, height: 1 },
				}),
			);
		});
		servers.push(service);

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
			credentials: { apiKey: API_KEY, baseUrl: service.url },
		});

		expect(error?.message).toBe(
			'The result of task 61 was not downloaded: the file host did not send the file within 0.6 s',
		);
		expect(service.seen.filter((request) => request.path.startsWith('/results/'))).toHaveLength(1);
	});

	test('a base URL with a local-looking name does not open other private addresses', async () => {
		const proxy = 'https://ideal-proxy.internal';
		api(proxy)
			.get(PE.result)
			.query(true)
			.reply(
				200,
				taskResponse('61', {
					output: { resultUrl: 'http://10.0.0.5/r/61.png', width: 1, height: 1 },
				}),
			);
		nock('http://10.0.0.5').get('/r/61.png').reply(200, TINY_PNG);

		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
			credentials: { apiKey: API_KEY, baseUrl: proxy },
		});

		expect(items).toEqual([]);
		expect(error?.message).toMatch(/10\.0\.0\.5 is in a private or local network/);
	});

	test("the local service's own host stays allowed", async () => {
		const local = 'https://ideal-proxy.internal';
		api(local)
			.get(PE.result)
			.query(true)
			.reply(
				200,
				taskResponse('61', {
					output: { resultUrl: `${local}/results/61.png`, width: 1, height: 1 },
				}),
			);
		nock(local).get('/results/61.png').reply(200, TINY_PNG);

		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
			credentials: { apiKey: API_KEY, baseUrl: local },
		});

		expect(error).toBeUndefined();
		expect(items[0].binary?.data.mimeType).toBe('image/png');
	});
});

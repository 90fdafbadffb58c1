/**
 * The promises a hostile server or a careless expression could break: the key stays with the
 * service, Stop and Timeout hold, no option floods the service, downloads are checked.
 */
import nock from 'nock';
import { sleep } from 'n8n-workflow';

import { clock as nodeClock } from '../nodes/shared/basics/clock';
import { limits } from '../nodes/shared/basics/limits';
import { parseJsonKeepingLongs } from '../nodes/shared/basics/long-ids';
import { logLines, runNode } from '../dev/harness/engine';
import {
	API_KEY,
	PE,
	TINY_PNG,
	api,
	clock,
	created,
	envelope,
	recorded,
	requestsTo,
	resetWire,
	taskResponse,
} from './helpers/api';
import { sendJson, stall, startServer, type LocalServer } from './helpers/local-server';

const enhance = (parameters: Record<string, unknown> = {}) => ({
	operation: 'enhance',
	imageUrl: 'https://photos.example.com/a.jpg',
	presetId: 'exterior-enhancement-curb-appeal',
	...parameters,
});

const defaultLimits = { ...limits };
const servers: LocalServer[] = [];

async function server(...args: Parameters<typeof startServer>): Promise<LocalServer> {
	const started = await startServer(...args);
	servers.push(started);
	return started;
}

/** Real time, with sleeps cut short so that a test of Stop or Timeout runs in a second or two. */
function realTime(): void {
	nock.enableNetConnect(/127\.0\.0\.1/);
	nodeClock.now = () => Date.now();
	nodeClock.sleep = async (ms, signal) => await sleep(Math.min(ms, 50), signal);
}

/** The key must be nowhere a user or a log can see it. */
function expectNoKey(...things: unknown[]): void {
	for (const thing of things) expect(JSON.stringify(thing ?? null)).not.toContain(API_KEY);
	expect(logLines.join('\n')).not.toContain(API_KEY);
}

beforeEach(() => {
	resetWire();
	logLines.length = 0;
	Object.assign(limits, defaultLimits);
});
afterEach(async () => {
	for (const running of servers.splice(0)) await running.close();
});
afterAll(() => nock.restore());

describe('1. requests to the service never follow a redirect', () => {
	async function redirectingService(redirectOn: 'POST' | 'GET') {
		const elsewhere = await server((_req, res) => sendJson(res, created('666')));
		const service = await server((req, res) => {
			if (req.method === redirectOn) {
				res.writeHead(redirectOn === 'POST' ? 307 : 302, {
					Location: `${elsewhere.url}${req.url}`,
				});
				res.end();
			} else if (req.method === 'POST') sendJson(res, created('7'));
			else sendJson(res, taskResponse('7'));
		});
		return { elsewhere, credentials: { apiKey: API_KEY, baseUrl: service.url } };
	}

	test.each([
		['a create', 'POST' as const, enhance({ waitForCompletion: false })],
		['a status check', 'GET' as const, enhance()],
		['Get Result', 'GET' as const, { operation: 'getResult', taskId: '7' }],
	])(
		'%s answered with a redirect fails, and the key goes nowhere else',
		async (_name, method, parameters) => {
			realTime();
			const { elsewhere, credentials } = await redirectingService(method);

			const { error, items } = await runNode({ node: 'photoEnhancer', parameters, credentials });

			expect(elsewhere.seen).toHaveLength(0);
			expect(items).toEqual([]);
			expect(error?.message).toMatch(/moved/);
			expect(error?.description).toMatch(/check the base URL/i);
			expect(error?.description).toMatch(/key was not sent/i);
		},
	);

	test('a download may follow a redirect, but every hop is checked again', async () => {
		api().get(PE.result).query(true).twice().reply(200, taskResponse('61'));
		nock('https://cdn.ideal.house')
			.get('/results/61.png')
			.reply(302, '', { Location: 'https://files.example.net/61.png' })
			.get('/results/61.png')
			.reply(302, '', { Location: 'http://169.254.169.254/latest/meta-data' });
		nock('https://files.example.net').get('/61.png').reply(200, TINY_PNG);

		const good = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
		});
		const bad = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
		});

		expect(good.error).toBeUndefined();
		expect(good.items[0].binary?.data.mimeType).toBe('image/png');
		expect(bad.error?.message).toMatch(/result of task 61 was not downloaded/);
		expect(bad.error?.message).toMatch(/private|local/);
	});
});

describe('2. Stop ends the wait within a second, whatever the node is doing', () => {
	test('during a create that has not answered yet, and the request is really dropped', async () => {
		realTime();
		const service = await server((_req, res) => {
			stall(res, 6000);
		});

		const started = Date.now();
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl: service.url },
			cancelAfterMs: 600,
		});
		const elapsed = Date.now() - started;
		await sleep(100);

		expect(elapsed).toBeLessThan(3000);
		expect(error?.message).toMatch(/stopped/i);
		expect(error?.description).toMatch(/may have been created/);
		expect(service.seen).toHaveLength(1);
		expect(service.seen[0].abandoned).toBe(true);
	});

	test('during a status check that has not answered yet', async () => {
		realTime();
		const service = await server((req, res) => {
			if (req.method === 'POST') sendJson(res, created('5'));
			else stall(res, 6000);
		});

		const started = Date.now();
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl: service.url },
			cancelAfterMs: 800,
		});

		expect(Date.now() - started).toBeLessThan(3000);
		expect(error?.message).toBe('Execution stopped while waiting for task 5');
	});

	test('during the backoff after a rate-limited create', async () => {
		realTime();
		nodeClock.sleep = async (ms, signal) => await sleep(ms, signal);
		const service = await server((_req, res) => {
			res.writeHead(429, { 'Retry-After': '20' });
			res.end('slow down');
		});

		const started = Date.now();
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl: service.url },
			cancelAfterMs: 300,
		});

		expect(Date.now() - started).toBeLessThan(2500);
		expect(error?.message).toMatch(/stopped/i);
		expect(service.seen).toHaveLength(1);
	});

	test('while waiting for a request slot, with a proper error', async () => {
		realTime();
		nodeClock.sleep = async (ms, signal) => await sleep(ms, signal);
		const service = await server((_req, res) => sendJson(res, created('9')));

		const started = Date.now();
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false, options: { maxRequestsPerSecond: 0.1 } }),
			items: [{ json: {} }, { json: {} }],
			credentials: { apiKey: API_KEY, baseUrl: service.url },
			cancelAfterMs: 600,
		});

		expect(Date.now() - started).toBeLessThan(3000);
		expect(error?.message).toMatch(/stopped/i);
		expect(error?.message).not.toMatch(/not an instance of Error/);
		expect(service.seen).toHaveLength(1);
	});
});

describe('2b. Stop during a download', () => {
	test('ends the download within a second', async () => {
		realTime();
		const service = await server((req, res) => {
			if (req.url?.startsWith('/files/')) stall(res, 6000);
			else
				sendJson(
					res,
					taskResponse('61', {
						output: { resultUrl: `${service.url}/files/61.png`, width: 1, height: 1 },
					}),
				);
		});

		const started = Date.now();
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
			credentials: { apiKey: API_KEY, baseUrl: service.url },
			cancelAfterMs: 1500,
		});
		await sleep(100);

		expect(Date.now() - started).toBeLessThan(4000);
		expect(error?.message).toBe('Execution stopped while downloading the result of task 61');
		expect(service.seen.at(-1)?.abandoned).toBe(true);
	});
});

describe('3. every request has a time limit, and Timeout bounds the whole wait', () => {
	test('a status check that never answers ends at the Timeout', async () => {
		realTime();
		const service = await server((req, res) => {
			if (req.method === 'POST') sendJson(res, created('5'));
			else stall(res, 8000);
		});

		const started = Date.now();
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 2 } }),
			credentials: { apiKey: API_KEY, baseUrl: service.url },
		});

		expect(Date.now() - started).toBeLessThan(4500);
		expect(error?.message).toMatch(/^Task 5 did not finish within 2 s/);
	});

	test('a create that never answers fails after the create time limit as "may have been created", never resent', async () => {
		realTime();
		limits.createTimeoutMs = 500;
		const service = await server((_req, res) => {
			stall(res, 8000);
		});

		const started = Date.now();
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl: service.url },
		});

		expect(Date.now() - started).toBeLessThan(2500);
		expect(error?.description).toMatch(/may have been created/);
		expect(service.seen).toHaveLength(1);
	});
});

describe('4. options are checked before the create, and no option floods the service', () => {
	test.each([
		[
			'Timeout from a missing field (NaN)',
			{ timeout: '={{ $json.minutes * 60 }}' },
			/^Timeout \(Seconds\) .*\[item 0\]$/,
		],
		['Timeout 0', { timeout: 0 }, /^Timeout \(Seconds\) .*\[item 0\]$/],
		['Timeout below zero', { timeout: -5 }, /^Timeout \(Seconds\) .*\[item 0\]$/],
		[
			'Poll Interval from a missing field',
			{ pollInterval: '={{ $json.nothing * 1 }}' },
			/^Poll Interval \(Seconds\) .*\[item 0\]$/,
		],
		[
			'Max Requests per Second 0',
			{ maxRequestsPerSecond: 0 },
			/^Max Requests per Second .*\[item 0\]$/,
		],
		[
			'Max Requests per Second not a number',
			{ maxRequestsPerSecond: '={{ "many" }}' },
			/^Max Requests per Second .*\[item 0\]$/,
		],
	])('%s is a field error and nothing is sent', async (_name, options, message) => {
		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance({ options }) });

		expect(error?.message).toMatch(message);
		expect(recorded).toHaveLength(0);
	});

	test('a Poll Interval below the floor polls every 3 s', async () => {
		api()
			.post(PE.create)
			.reply(200, created('3'))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('3', { status: 'Processing' }))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('3'));

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { pollInterval: '={{ 0.01 }}' } }),
		});

		expect(error).toBeUndefined();
		// The first wait is the interval itself, raised to the floor; the next is aimed by the task's
		// progress, and never under the floor either.
		expect(clock.sleeps).toHaveLength(2);
		expect(clock.sleeps[0]).toBe(3000);
		expect(clock.sleeps[1]).toBeGreaterThanOrEqual(3000);
	});

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

	test('a status check told to come back in a day waits only until the Timeout', async () => {
		api()
			.post(PE.create)
			.reply(200, created('4'))
			.get(PE.result)
			.query(true)
			.times(2)
			.reply(429, 'Too Many Requests', { 'Retry-After': '86400' });

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 60 } }),
		});

		expect(error?.message).toMatch(/^Task 4 did not finish within 60 s/);
		expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
	});
});

describe('5. what the server or the network says passes one redaction before anyone sees it', () => {
	test('an HTTP error text that echoes the key', async () => {
		api()
			.post(PE.create)
			.reply(400, `Bad request. Received headers: APIKEY: ${API_KEY}; Accept: */*`);

		const run = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			onError: 'continueRegularOutput',
		});

		expect(run.items[0].json.error).toMatch(/HTTP 400/);
		expectNoKey(run.items, run.error);
	});

	test('an error envelope whose message quotes the key', async () => {
		api()
			.post(PE.create)
			.reply(200, envelope('null', 1011, `invalid header value "${API_KEY}"`));

		const run = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(run.error?.message).toMatch(/^Ideal House error 1011/);
		expectNoKey(run.error);
	});

	test('a task whose fields echo the request headers', async () => {
		api()
			.get(PE.result)
			.query(true)
			.reply(
				200,
				taskResponse('8', { input: { headers: { apikey: API_KEY }, note: `key=${API_KEY}` } }),
			);

		const run = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '8' },
		});

		expect(run.items[0].json.id).toBe('8');
		expectNoKey(run.items);
	});

	test('a network error whose text carries the key', async () => {
		api()
			.post(PE.create)
			.reply(200, created('8'))
			.get(PE.result)
			.query(true)
			.replyWithError(`proxy refused request with APIKEY ${API_KEY}`);

		const run = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(run.error).toBeDefined();
		expectNoKey(run.error);
	});

	test('a huge echoed message is cut', async () => {
		api()
			.post(PE.create)
			.reply(200, envelope('null', 1001, 'x'.repeat(100_000)));

		const run = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(run.error?.message).toMatch(/^Ideal House error 1001/);
		expect(run.error!.message.length).toBeLessThan(1000);
	});
});

describe('6. Download Result fetches only what it should', () => {
	function finished(resultUrl: string | undefined) {
		api()
			.get(PE.result)
			.query(true)
			.reply(
				200,
				taskResponse('61', {
					output: resultUrl === undefined ? null : { resultUrl, width: 1, height: 1 },
				}),
			);
	}
	const download = { operation: 'getResult', taskId: '61', options: { downloadResult: true } };

	test.each([
		'http://127.0.0.1:8080/r.png',
		'http://localhost/r.png',
		'http://10.1.2.3/r.png',
		'http://192.168.0.10/r.png',
		'http://172.20.0.1/r.png',
		'http://169.254.169.254/latest/meta-data',
		'http://[::1]/r.png',
		'http://[::ffff:127.0.0.1]/r.png',
		'http://[fd00::1]/r.png',
		'http://2130706433/r.png',
		'http://0x7f.1/r.png',
		'data:image/png;base64,iVBORw0KGgo=',
		'ftp://files.example.com/r.png',
		'file:///etc/passwd',
	])('%s is refused', async (resultUrl) => {
		finished(resultUrl);

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(items).toEqual([]);
		expect(error?.message).toMatch(/^The result of task 61 was not downloaded/);
		expect(error?.description).toMatch(/Get Result/);
	});

	test('a local result host is fine when the service itself is local', async () => {
		realTime();
		const service = await server((req, res) => {
			if (req.url?.startsWith('/files/')) {
				res.writeHead(200, { 'Content-Type': 'image/png' });
				res.end(TINY_PNG);
			} else
				sendJson(
					res,
					taskResponse('61', {
						output: { resultUrl: `${service.url}/files/61.png`, width: 1, height: 1 },
					}),
				);
		});

		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: download,
			credentials: { apiKey: API_KEY, baseUrl: service.url },
		});

		expect(error).toBeUndefined();
		expect(items[0].binary?.data.fileName).toBe('61.png');
	});

	test('a page that calls itself image/png is not attached', async () => {
		finished('https://cdn.ideal.house/results/61.png');
		nock('https://cdn.ideal.house')
			.get('/results/61.png')
			.reply(200, '<html>login</html>', { 'Content-Type': 'image/png' });

		const { error } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(error?.message).toMatch(
			/^The result of task 61 was not downloaded.*not a PNG, JPEG or WebP image/,
		);
		expect(error?.description).toMatch(/Get Result/);
	});

	test('a % in the file name gives a file, not an error', async () => {
		finished('https://cdn.ideal.house/results/100%.png');
		nock('https://cdn.ideal.house').get('/results/100%.png').reply(200, TINY_PNG);

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(error).toBeUndefined();
		expect(items[0].binary?.data.fileName).toBe('100%.png');
	});

	test('a file name cannot climb out of its folder', async () => {
		finished('https://cdn.ideal.house/results/..%2F..%2Fetc%2Fcron.png');
		nock('https://cdn.ideal.house').get('/results/..%2F..%2Fetc%2Fcron.png').reply(200, TINY_PNG);

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(error).toBeUndefined();
		expect(items[0].binary?.data.fileName).not.toMatch(/[/\\]/);
	});

	test('a finished task without a result URL is an error when a download was asked for', async () => {
		finished(undefined);

		const { error } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(error?.message).toMatch(
			/^The result of task 61 was not downloaded: the service gave no result URL/,
		);
	});

	test('a file over the size cap is refused', async () => {
		limits.downloadMaxBytes = 1000;
		finished('https://cdn.ideal.house/results/61.png');
		nock('https://cdn.ideal.house')
			.get('/results/61.png')
			.reply(200, Buffer.concat([TINY_PNG, Buffer.alloc(2000)]));

		const { error } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(error?.message).toMatch(/^The result of task 61 was not downloaded: .*larger than/);
	});

	test.each([
		['HTTP 503', (scope: nock.Interceptor) => scope.reply(503, 'busy')],
		[
			'a reset connection',
			(scope: nock.Interceptor) =>
				scope.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
		],
	])('a download that meets %s is tried again', async (_name, fault) => {
		finished('https://cdn.ideal.house/results/61.png');
		const cdn = nock('https://cdn.ideal.house');
		fault(cdn.get('/results/61.png'));
		cdn.get('/results/61.png').reply(200, TINY_PNG);

		const { error, items } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(error).toBeUndefined();
		expect(items[0].binary?.data.mimeType).toBe('image/png');
		expect(clock.sleeps).toHaveLength(1);
	});
});

describe('7. the smaller holes', () => {
	test.each([
		'abc',
		'-1',
		'1e21',
		'12345678901234567890123',
		'12.5',
		'   ',
		'18446744073709551616',
	])('Get Result refuses the task id %j before sending anything', async (taskId) => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId },
		});

		expect(error?.message).toMatch(/^Task ID .*\[item 0\]$/);
		expect(recorded).toHaveLength(0);
	});

	test('a task id that reached the node as a number above 2^53 is refused, with advice to pass text', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '={{ $json.id }}' },
			items: [{ json: { id: 1839201938475628544 } }],
		});

		expect(error?.message).toMatch(/^Task ID .*\[item 0\]$/);
		expect(error?.description).toMatch(/text/);
		expect(recorded).toHaveLength(0);
	});

	test('the largest 64-bit id is sent exactly', async () => {
		api()
			.get(PE.result)
			.query({ taskId: '18446744073709551615' })
			.reply(200, taskResponse('18446744073709551615'));

		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: ' 18446744073709551615 ' },
		});

		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe('18446744073709551615');
	});

	test.each(['__proto__', 'toString', 'constructor', 'hasOwnProperty'])(
		'a Mask Binary Property named %s is a plain "not on the item"',
		async (property) => {
			const { error } = await runNode({
				node: 'objectRemover',
				parameters: {
					operation: 'remove',
					imageUrl: 'https://photos.example.com/a.jpg',
					emptyType: 'single_furniture',
					maskSource: 'binary',
					maskBinaryProperty: property,
				},
			});

			expect(error?.message).toBe(
				`Mask Binary Property "${property}" is not on the item (it has no binary data) [item 0]`,
			);
			expect(recorded).toHaveLength(0);
		},
	);

	test('a bad entry of a URL list is numbered as the user sees the list', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({
				imageInput: 'urls',
				imageUrls: ['https://a.example.com/1.jpg', '  ', 'not a url'],
				presetId: 'hdr-merge-hdr-merge',
			}),
		});

		expect(error?.message).toMatch(/^Image URLs #3 /);
	});

	test.each([
		['https:photos.example.com/a b.jpg', 'https://photos.example.com/a%20b.jpg'],
		['HTTPS://Photos.Example.com/x.jpg', 'https://photos.example.com/x.jpg'],
	])('the URL %j is sent as %s', async (imageUrl, sent) => {
		api().post(PE.create).reply(200, created('1'));

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl, waitForCompletion: false }),
		});

		expect((recorded[0].body as { imageUrl: string }).imageUrl).toBe(sent);
	});

	test.each(['Canceled', 'success'])(
		'an unknown status (%s) ends the wait after a short grace',
		async (status) => {
			api()
				.post(PE.create)
				.reply(200, created('12'))
				.get(PE.result)
				.query(true)
				.times(50)
				.reply(200, taskResponse('12', { status }));

			const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

			expect(error?.message).toContain(`Task 12 has a status this node does not know: "${status}"`);
			expect(error?.description).toMatch(/Get Result/);
			expect(requestsTo(PE.result)).toHaveLength(3);
		},
	);

	test('a huge preset id is not echoed whole', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ presetId: 'p'.repeat(1_000_000) }),
		});

		expect(error?.message).toMatch(/^Preset/);
		expect(error!.message.length).toBeLessThan(1000);
		expect(recorded).toHaveLength(0);
	});

	test('the JSON reader keeps "__proto__" a plain key', () => {
		const value = parseJsonKeepingLongs('{"__proto__":{"polluted":true},"a":1}') as Record<
			string,
			unknown
		>;

		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
		expect((value as { polluted?: boolean }).polluted).toBeUndefined();
	});

	test('a task whose fields hold "__proto__" reaches the item as data', async () => {
		api()
			.get(PE.result)
			.query(true)
			.reply(
				200,
				envelope('{"id":8,"status":"Processing","__proto__":{"status":"Success"},"output":null}'),
			);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '8' },
		});

		expect(items[0].json.status).toBe('Processing');
	});
});

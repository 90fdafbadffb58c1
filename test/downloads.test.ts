/**
 * Download Result, as a user meets it: what the node fetches (and what it refuses: private and
 * local addresses, redirects to them, pages posing as images, files over the cap), file names,
 * retries of a passing fault, and a host that stalls. Streaming into n8n's binary data is in
 * download-stream.test.ts, result lists of the Ideal House AI node in result-files.test.ts.
 */
import nock from 'nock';

import { limits } from '../nodes/shared/core/limits';
import { runNode } from './helpers/engine';
import { API_KEY, PE, TINY_PNG, api, clock, realTime, taskResponse } from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { sendJson } from './helpers/local-server';
import { downloadResult } from './helpers/params';

const { server } = eachTestOnAFreshWire();

describe('Download Result fetches only what it should', () => {
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
	const download = downloadResult('61');

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

	test('a download that fails without a network code names the file host, not Ideal House', async () => {
		finished('https://cdn.ideal.house/results/61.png');
		nock('https://cdn.ideal.house')
			.get('/results/61.png')
			.replyWithError('certificate has expired');

		const { error } = await runNode({ node: 'photoEnhancer', parameters: download });

		expect(error?.message).toBe(
			'The result of task 61 was not downloaded: the request to the file host ended without an answer: certificate has expired [item 0]',
		);
		expect(error?.description).toMatch(/Get Result operation and task ID 61/);
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

describe('downloads', () => {
	test('a host that stalls is bounded as a whole: no new attempt once the time limit is spent', async () => {
		realTime();
		limits.downloadTimeoutMs = 600;
		const service = await server((req, res) => {
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

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
			credentials: { apiKey: API_KEY, baseUrl: service.url },
		});

		expect(error?.message).toBe(
			'The result of task 61 was not downloaded: the file host did not send the file within 0.6 s [item 0]',
		);
		expect(service.seen.filter((request) => request.path.startsWith('/results/'))).toHaveLength(1);
	});

	/** Get Result of task 61 through the service at `base`, its result file at `resultUrl` (served). */
	async function downloadThrough(base: string, resultUrl: string) {
		api(base)
			.get(PE.result)
			.query({ taskId: '61' })
			.reply(200, taskResponse('61', { output: { resultUrl, width: 1, height: 1 } }));
		const file = new URL(resultUrl);
		nock(file.origin).get(file.pathname).reply(200, TINY_PNG);
		return await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '61', options: { downloadResult: true } },
			credentials: { apiKey: API_KEY, baseUrl: base },
		});
	}

	test('a base URL with a local-looking name does not open other private addresses', async () => {
		const proxy = 'https://ideal-proxy.internal';

		const { error, items } = await downloadThrough(proxy, 'http://10.0.0.5/r/61.png');

		expect(items).toEqual([]);
		expect(error?.message).toMatch(/10\.0\.0\.5 is in a private or local network/);
	});

	test("the local service's own host stays allowed", async () => {
		const local = 'https://ideal-proxy.internal';

		const { error, items } = await downloadThrough(local, `${local}/results/61.png`);

		expect(error).toBeUndefined();
		expect(items[0].binary?.data.mimeType).toBe('image/png');
	});
});

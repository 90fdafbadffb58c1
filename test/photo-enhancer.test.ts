import nock from 'nock';

import { logLines, runNode } from './helpers/engine';
import {
	API_KEY,
	BIG_ID,
	DONE,
	PE,
	TINY_PNG,
	api,
	clock,
	created,
	queued,
	recorded,
	resetWire,
	resultOf,
	running,
	serveTask,
	taskResponse,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance } from './helpers/params';
import { answerAnyRequest, expectRejected } from './helpers/refusals';

eachTestOnAFreshWire();

describe('Photo Enhancer: enhance and wait', () => {
	test('sends the create request the spec describes and emits the finished task', async () => {
		serveTask(PE, BIG_ID, running(40), { input: { presetId: 'sky-replacement-sunset-sky' } });

		const { items, error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		const [createCall, ...polls] = recorded;
		expect(createCall).toMatchObject({ method: 'POST', path: PE.create });
		expect(createCall.headers.apikey).toBe(API_KEY);
		expect(createCall.headers['content-type']).toBe('application/json');
		expect(createCall.body).toEqual({
			imageUrl: 'https://photos.example.com/listing/living-room.jpg',
			presetId: 'sky-replacement-sunset-sky',
			imageSize: '4K',
		});
		expect(polls).toHaveLength(2);
		for (const poll of polls) {
			expect(poll).toMatchObject({ method: 'GET', path: PE.result, query: { taskId: BIG_ID } });
			expect(poll.headers.apikey).toBe(API_KEY);
			expect(poll.body).toBeUndefined();
		}
		expect(items).toEqual([
			{
				json: {
					id: BIG_ID,
					status: 'Success',
					waitNumber: 0,
					percentage: 100,
					input: { presetId: 'sky-replacement-sunset-sky' },
					output: resultOf(BIG_ID),
					creditsCharged: 10,
				},
				pairedItem: { item: 0 },
			},
		]);
		// The first poll after the default interval of 4 s; 40 % by then puts the finish at 10 s,
		// so the second poll goes just after it (300 ms + 3 % of the 6 s to go), not every 4 s.
		expect(clock.sleeps).toEqual([4000, 6480]);
	});

	test.each([
		[
			'a prompt only',
			{ presetId: '', prompt: '  Brighten the room  ' },
			{ prompt: 'Brighten the room' },
		],
		[
			'a preset and a prompt',
			{ presetId: 'virtual-twilight-luxury-twilight', prompt: 'Warm windows' },
			{ presetId: 'virtual-twilight-luxury-twilight', prompt: 'Warm windows' },
		],
		[
			'image size 2K',
			{ imageSize: '2K' },
			{ presetId: 'sky-replacement-sunset-sky', imageSize: '2K' },
		],
		[
			'image size 512',
			{ imageSize: '512' },
			{ presetId: 'sky-replacement-sunset-sky', imageSize: '512' },
		],
	])('sends %s', async (_name, parameters, expected) => {
		serveTask(PE, '42', DONE);

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(parameters),
		});

		expect(error).toBeUndefined();
		expect(recorded[0].body).toEqual({
			imageUrl: 'https://photos.example.com/listing/living-room.jpg',
			imageSize: '4K',
			...expected,
		});
		expect(items[0].json.id).toBe('42');
	});

	test('an expression that yields a list of URLs is sent as a list', async () => {
		serveTask(PE, '7', DONE);

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.brackets }}', presetId: 'hdr-merge-hdr-merge' }),
			items: [
				{ json: { brackets: ['https://a.example.com/1.jpg', 'https://a.example.com/2.jpg'] } },
			],
		});

		expect(recorded[0].body).toEqual({
			imageUrl: ['https://a.example.com/1.jpg', 'https://a.example.com/2.jpg'],
			presetId: 'hdr-merge-hdr-merge',
			imageSize: '4K',
		});
	});

	test("a list of URLs without HDR Merge is sent as asked, with a warning in n8n's log; with HDR Merge, none", async () => {
		const brackets = ['https://a.example.com/1.jpg', 'https://a.example.com/2.jpg'];
		const scope = api();
		for (const id of ['11', '12'])
			scope
				.post(PE.create)
				.reply(200, created(id))
				.get(PE.result)
				.query({ taskId: id })
				.reply(200, taskResponse(id));
		logLines.splice(0);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.brackets }}', presetId: '={{ $json.preset }}' }),
			items: [
				{ json: { brackets, preset: 'sky-replacement-sunset-sky' } },
				{ json: { brackets, preset: 'hdr-merge-hdr-merge' } },
			],
		});

		expect(items.map((item) => item.json.status)).toEqual(['Success', 'Success']);
		expect(
			recorded
				.filter((call) => call.method === 'POST')
				.map((call) => (call.body as { imageUrl: unknown }).imageUrl),
		).toEqual([brackets, brackets]);
		expect(logLines.filter((line) => line.startsWith('warn '))).toEqual([
			expect.stringContaining('Item 0: 2 images sent without the HDR Merge preset'),
		]);
	});

	test('URLs typed one by one are sent as one list', async () => {
		serveTask(PE, '8', DONE);

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance({
				imageInput: 'urls',
				imageUrl: 'https://ignored.example.com/hidden.jpg',
				imageUrls: [
					'https://a.example.com/dark.jpg',
					' https://a.example.com/mid.jpg ',
					'https://a.example.com/bright.jpg',
				],
				presetId: 'hdr-merge-hdr-merge',
			}),
		});

		expect(recorded[0].body).toEqual({
			imageUrl: [
				'https://a.example.com/dark.jpg',
				'https://a.example.com/mid.jpg',
				'https://a.example.com/bright.jpg',
			],
			presetId: 'hdr-merge-hdr-merge',
			imageSize: '4K',
		});
	});

	test('the poll interval option is honoured and clamped to 3–5 s', async () => {
		for (const [asked, expected] of [
			[3.5, 3500],
			[1, 3000],
			[60, 5000],
		]) {
			resetWire();
			serveTask(PE, '9', queued(3), DONE);
			await runNode({
				node: 'photoEnhancer',
				parameters: enhance({ options: { pollInterval: asked } }),
			});
			expect(clock.sleeps).toEqual([expected, expected]);
		}
	});

	test('several items are created together, and each output links to its input', async () => {
		const ids = ['101', '102', '103'];
		const scope = api();
		ids.forEach((id) => scope.post(PE.create).reply(200, created(id)));
		ids.forEach((id) => scope.get(PE.result).query({ taskId: id }).reply(200, taskResponse(id)));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}' }),
			items: ids.map((_, index) => ({ json: { url: `https://photos.example.com/${index}.jpg` } })),
		});

		// n8n starts every item's request before any of them is answered: all creates come first.
		expect(recorded.map((request) => request.method)).toEqual([
			'POST',
			'POST',
			'POST',
			'GET',
			'GET',
			'GET',
		]);
		expect(
			recorded
				.slice(0, 3)
				.map((request) => (request.body as { imageUrl: string }).imageUrl)
				.sort(),
		).toEqual([
			'https://photos.example.com/0.jpg',
			'https://photos.example.com/1.jpg',
			'https://photos.example.com/2.jpg',
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.map((item) => item.json.status)).toEqual(['Success', 'Success', 'Success']);
		expect(new Set(items.map((item) => item.json.id)).size).toBe(3);
	});
});

describe('Photo Enhancer: without waiting, and Get Result', () => {
	test("'Wait for Completion' off returns the task id at once, with one request", async () => {
		serveTask(PE, BIG_ID);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false }),
		});

		expect(recorded).toHaveLength(1);
		expect(items).toEqual([
			{ json: { id: BIG_ID, status: 'Unprocessed', creditsCharged: 10 }, pairedItem: { item: 0 } },
		]);
	});

	test('Get Result reads a 64-bit task id without losing a digit', async () => {
		api()
			.get(PE.result)
			.query({ taskId: BIG_ID })
			.reply(200, taskResponse(BIG_ID, { status: 'Processing', percentage: 64 }));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: ` ${BIG_ID} ` },
		});

		expect(recorded).toHaveLength(1);
		expect(recorded[0]).toMatchObject({ method: 'GET', query: { taskId: BIG_ID } });
		expect(recorded[0].headers.apikey).toBe(API_KEY);
		expect(items).toEqual([
			{
				json: {
					id: BIG_ID,
					status: 'Processing',
					waitNumber: 0,
					percentage: 64,
					input: {},
					output: null,
					creditsCharged: 10,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('Get Result accepts a task id given as a number', async () => {
		api().get(PE.result).query({ taskId: '123456' }).reply(200, taskResponse('123456'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '={{ $json.id }}' },
			items: [{ json: { id: 123456 } }],
		});

		expect(items[0].json).toMatchObject({ id: '123456', status: 'Success' });
	});

	test('Get Result can download the finished image', async () => {
		api().get(PE.result).query(true).reply(200, taskResponse('55'));
		nock('https://cdn.ideal.house')
			.get('/results/55.png')
			.reply(200, TINY_PNG, { 'Content-Type': 'image/png' });

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '55', options: { downloadResult: true } },
		});

		expect(items[0].binary?.data).toMatchObject({ mimeType: 'image/png', fileName: '55.png' });
		expect(Buffer.from(items[0].binary!.data.data, 'base64').equals(TINY_PNG)).toBe(true);
	});
});

describe('Photo Enhancer: result download', () => {
	test('attaches the image under the chosen property, without sending the API key to the file host', async () => {
		serveTask(PE, '77', {
			output: { resultUrl: 'https://files.example.net/out/render?sig=abc', width: 1, height: 1 },
		});
		const download = nock('https://files.example.net')
			.get('/out/render')
			.query({ sig: 'abc' })
			.reply(
				200,
				function () {
					expect(this.req.headers.apikey).toBeUndefined();
					return TINY_PNG;
				},
				{ 'Content-Type': 'application/octet-stream' },
			);

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { downloadResult: true, binaryPropertyName: 'enhanced' } }),
		});

		expect(error).toBeUndefined();
		expect(download.isDone()).toBe(true);
		expect(Object.keys(items[0].binary ?? {})).toEqual(['enhanced']);
		// The type comes from the bytes when the host does not say it.
		expect(items[0].binary!.enhanced).toMatchObject({
			mimeType: 'image/png',
			fileName: 'ideal-house-77.png',
			fileExtension: 'png',
		});
		expect(items[0].binary!.enhanced.data).toBe(TINY_PNG.toString('base64'));
		expect(items[0].json.id).toBe('77');
	});
});

describe('Photo Enhancer refuses bad input before anything is charged', () => {
	beforeEach(answerAnyRequest);

	test.each([
		['an empty image URL', { imageUrl: '   ' }, "'Image URL' is empty [item 0]"],
		[
			'a relative image URL',
			{ imageUrl: '/photos/a.jpg' },
			'\'Image URL\' must be an absolute http(s) URL (got "/photos/a.jpg") [item 0]',
		],
		[
			'an ftp image URL',
			{ imageUrl: 'ftp://photos.example.com/a.jpg' },
			'\'Image URL\' must be an absolute http(s) URL (got "ftp://photos.example.com/a.jpg") [item 0]',
		],
		[
			'no preset and no prompt',
			{ presetId: '', prompt: '  ' },
			"'Preset Name or ID' and 'Prompt' are both empty: choose a preset, write a prompt, or both [item 0]",
		],
		[
			'an unknown preset from an expression',
			{ presetId: '={{ "sky-replacement-purple-sky" }}' },
			'\'Preset Name or ID\' "sky-replacement-purple-sky" is not a known preset. Close matches: Sky Replacement: Sky Replacement (sky-replacement-sky-replacement); Sky Replacement: Cloudy Sky (sky-replacement-cloudy-sky); Sky Replacement: Sunset Sky (sky-replacement-sunset-sky); Sky Replacement: Sunrise Sky (sky-replacement-sunrise-sky); Sky Replacement: Golden Hour Sky (sky-replacement-golden-hour-sky) [item 0]',
		],
		[
			'a size the service does not offer',
			{ imageSize: '={{ "8K" }}' },
			'\'Image Size\' must be one of 512, 1K, 2K, 4K (got "8K") [item 0]',
		],
		[
			'an empty list of URLs',
			{ imageInput: 'urls', imageUrls: [] },
			"'Image URLs' is empty [item 0]",
		],
		[
			'one bad URL in a list',
			{
				imageInput: 'urls',
				imageUrls: ['https://a.example.com/1.jpg', 'not a url'],
				presetId: 'hdr-merge-hdr-merge',
			},
			'\'Image URLs\' #2 must be an absolute http(s) URL (got "not a url") [item 0]',
		],
	])('%s', async (_name, parameters, message) => {
		const error = await expectRejected('photoEnhancer', enhance(parameters), message);
		expect(error?.description).toBeTruthy();
	});

	test('names the item that is wrong and leaves the others alone under Continue on Fail', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}', waitForCompletion: false }),
			items: [
				{ json: { url: 'https://photos.example.com/ok.jpg' } },
				{ json: { url: 'photos/bad.jpg' } },
			],
			onError: 'continueRegularOutput',
		});

		expect(items[0].json).toEqual({ id: '1', status: 'Unprocessed', creditsCharged: 10 });
		expect(items[1].json.error).toBe(
			'\'Image URL\' must be an absolute http(s) URL (got "photos/bad.jpg") [item 1]',
		);
		expect(recorded.filter((request) => request.path === PE.create)).toHaveLength(1);
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
				/^'Image Size' must be one of 512, 1K, 2K, 4K \(nothing: the value is (null|undefined)\) \[item 0\]$/,
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
			/^'Image URL' holds a line break, as if several URLs were pasted together/,
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

		expect(error?.message).toMatch(/^'Image URLs' #2 holds a line break/);
		expect(recorded).toHaveLength(0);
	});

	test('a huge preset id is not echoed whole', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ presetId: 'p'.repeat(1_000_000) }),
		});

		expect(error?.message).toMatch(/^'Preset Name or ID'/);
		expect(error!.message.length).toBeLessThan(1000);
		expect(recorded).toHaveLength(0);
	});
});

describe('Photo Enhancer: the task id of Get Result', () => {
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

		expect(error?.message).toMatch(/^'Task ID' .*\[item 0\]$/);
		expect(recorded).toHaveLength(0);
	});

	test('a task id that reached the node as a number above 2^53 is refused, with advice to pass text', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '={{ $json.id }}' },
			items: [{ json: { id: 1839201938475628544 } }],
		});

		expect(error?.message).toMatch(/^'Task ID' .*\[item 0\]$/);
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
});

describe('Photo Enhancer: image URLs as users write them', () => {
	test('a bad entry of a URL list is numbered as the user sees the list', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({
				imageInput: 'urls',
				imageUrls: ['https://a.example.com/1.jpg', '  ', 'not a url'],
				presetId: 'hdr-merge-hdr-merge',
			}),
		});

		expect(error?.message).toMatch(/^'Image URLs' #3 /);
	});

	test.each([
		['https:photos.example.com/a b.jpg', 'https://photos.example.com/a%20b.jpg'],
		['HTTPS://Photos.Example.com/x.jpg', 'https://photos.example.com/x.jpg'],
	])('the URL %j is sent as %s', async (imageUrl, sent) => {
		serveTask(PE, '1');

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl, waitForCompletion: false }),
		});

		expect((recorded[0].body as { imageUrl: string }).imageUrl).toBe(sent);
	});
});

import nock from 'nock';

import { runNode } from '../dev/harness/engine';
import {
	API_KEY,
	BASE,
	OR,
	PE,
	TINY_PNG,
	api,
	created,
	recorded,
	resetWire,
	taskResponse,
} from './helpers/api';

beforeEach(() => {
	resetWire();
	// Any request at all would be recorded here; validation must stop every one of them.
	api().persist().post(/.*/).reply(200, created('1')).get(/.*/).reply(200, taskResponse('1'));
});
afterEach(() => nock.cleanAll());
afterAll(() => nock.restore());

async function expectRejected(
	node: 'photoEnhancer' | 'objectRemover',
	parameters: Record<string, unknown>,
	message: string,
	items?: Parameters<typeof runNode>[0]['items'],
) {
	const { error, items: output, run } = await runNode({ node, parameters, items });
	expect(error?.message).toBe(message);
	expect(output).toEqual([]);
	expect(recorded).toEqual([]);
	expect(JSON.stringify(run)).not.toContain(API_KEY);
	return error;
}

describe('Photo Enhancer refuses bad input before anything is charged', () => {
	const enhance = (parameters: Record<string, unknown>) => ({
		operation: 'enhance',
		imageUrl: 'https://photos.example.com/a.jpg',
		presetId: 'sky-replacement-sunset-sky',
		...parameters,
	});

	test.each([
		['an empty image URL', { imageUrl: '   ' }, 'Image URL is empty [item 0]'],
		[
			'a relative image URL',
			{ imageUrl: '/photos/a.jpg' },
			'Image URL must be an absolute http(s) URL (got "/photos/a.jpg") [item 0]',
		],
		[
			'an ftp image URL',
			{ imageUrl: 'ftp://photos.example.com/a.jpg' },
			'Image URL must be an absolute http(s) URL (got "ftp://photos.example.com/a.jpg") [item 0]',
		],
		[
			'no preset and no prompt',
			{ presetId: '', prompt: '  ' },
			'Preset or Prompt is required: choose a preset, write a prompt, or both [item 0]',
		],
		[
			'an unknown preset from an expression',
			{ presetId: '={{ "sky-replacement-purple-sky" }}' },
			'Preset "sky-replacement-purple-sky" is not a known preset. Close matches: Sky Replacement: Sky Replacement (sky-replacement-sky-replacement); Sky Replacement: Cloudy Sky (sky-replacement-cloudy-sky); Sky Replacement: Sunset Sky (sky-replacement-sunset-sky); Sky Replacement: Sunrise Sky (sky-replacement-sunrise-sky); Sky Replacement: Golden Hour Sky (sky-replacement-golden-hour-sky) [item 0]',
		],
		[
			'a size the service does not offer',
			{ imageSize: '={{ "8K" }}' },
			'Image Size must be one of 512, 1K, 2K, 4K (got "8K") [item 0]',
		],
		[
			'an empty list of URLs',
			{ imageInput: 'urls', imageUrls: [] },
			'Image URLs is empty [item 0]',
		],
		[
			'one bad URL in a list',
			{
				imageInput: 'urls',
				imageUrls: ['https://a.example.com/1.jpg', 'not a url'],
				presetId: 'hdr-merge-hdr-merge',
			},
			'Image URLs #2 must be an absolute http(s) URL (got "not a url") [item 0]',
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
			'Image URL must be an absolute http(s) URL (got "photos/bad.jpg") [item 1]',
		);
		expect(recorded.filter((request) => request.path === PE.create)).toHaveLength(1);
	});
});

describe('Object Remover refuses bad input before anything is charged', () => {
	const single = (parameters: Record<string, unknown>) => ({
		operation: 'remove',
		imageUrl: 'https://photos.example.com/room.jpg',
		emptyType: 'single_furniture',
		...parameters,
	});

	test.each([
		[
			'a missing image URL',
			{ emptyType: 'whole_house', imageUrl: '={{ $json.photo }}' },
			'Image URL is empty [item 0]',
		],
		[
			'a non-http image URL',
			{ emptyType: 'whole_house', imageUrl: 'file:///tmp/room.jpg' },
			'Image URL must be an absolute http(s) URL (got "file:///tmp/room.jpg") [item 0]',
		],
		[
			'an empty mask URL',
			{ maskSource: 'url', maskUrl: '={{ $json.mask }}' },
			'Mask URL is empty [item 0]',
		],
		[
			'an empty base64 mask',
			{ maskSource: 'base64', maskBase64: ' ' },
			'Mask (Base64) is empty [item 0]',
		],
		[
			'base64 that is not base64',
			{ maskSource: 'base64', maskBase64: 'this is *not* base64!' },
			'Mask (Base64) is not valid base64 [item 0]',
		],
		[
			'base64 that is not an image',
			{ maskSource: 'base64', maskBase64: Buffer.from('hello mask').toString('base64') },
			'Mask (Base64) is not a PNG, JPEG or WebP image [item 0]',
		],
		[
			'a removal mode from an expression that does not exist',
			{ emptyType: '={{ "half_house" }}', maskUrl: 'https://a.example.com/m.png', maskBase64: 'x' },
			'Removal Mode must be whole_house or single_furniture (got "half_house") [item 0]',
		],
	])('%s', async (_name, parameters, message) => {
		await expectRejected('objectRemover', single(parameters), message);
	});

	test('n8n itself refuses to run with the image URL left empty', async () => {
		await expect(
			runNode({ node: 'objectRemover', parameters: { operation: 'remove', imageUrl: '' } }),
		).rejects.toThrow('Parameter "Image URL" is required');
		expect(recorded).toEqual([]);
	});

	test('a removal mode given per item by expression needs no mask field filled in for Whole House items', async () => {
		const { items } = await runNode({
			node: 'objectRemover',
			parameters: {
				operation: 'remove',
				imageUrl: 'https://p.example.com/1.jpg',
				emptyType: '={{ $json.mode }}',
				waitForCompletion: false,
			},
			items: [{ json: { mode: 'whole_house' } }, { json: { mode: 'single_furniture' } }],
			onError: 'continueRegularOutput',
		});

		expect(items[0].json).toEqual({ id: '1', status: 'Unprocessed', creditsCharged: 1 });
		expect(items[1].json).toEqual({
			error: 'Mask URL is empty [item 1]',
			details: {
				description: 'Give the address of an image the service can download (https://…).',
			},
		});
		expect(recorded.map((request) => request.body)).toEqual([
			{ imageUrl: 'https://p.example.com/1.jpg', emptyType: 'whole_house' },
		]);
	});

	test('a refused item keeps its link to its input on the error output', async () => {
		const { items, errorItems } = await runNode({
			node: 'objectRemover',
			parameters: { operation: 'remove', imageUrl: '={{ $json.url }}', waitForCompletion: false },
			items: [{ json: { url: 'https://p.example.com/1.jpg' } }, { json: { url: 'not a url' } }],
			onError: 'continueErrorOutput',
		});

		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(errorItems).toEqual([
			{
				json: {
					error: 'Image URL must be an absolute http(s) URL (got "not a url") [item 1]',
					details: { description: expect.stringContaining('full public address') },
				},
				pairedItem: { item: 1 },
			},
		]);
	});

	test('a binary mask property that the item does not have lists the ones it has', async () => {
		await expectRejected(
			'objectRemover',
			single({ maskSource: 'binary', maskBinaryProperty: 'mask' }),
			'Mask Binary Property "mask" is not on the item (it has: data, photo) [item 0]',
			[
				{
					json: {},
					binary: {
						data: { data: TINY_PNG.toString('base64'), mimeType: 'image/png' },
						photo: { data: TINY_PNG.toString('base64'), mimeType: 'image/png' },
					},
				},
			],
		);
	});

	test('a binary mask that is not an image is refused by its bytes, whatever its declared type', async () => {
		await expectRejected(
			'objectRemover',
			single({ maskSource: 'binary' }),
			'Mask Binary Property "data" is not a PNG, JPEG or WebP image [item 0]',
			[
				{
					json: {},
					binary: {
						data: { data: Buffer.from('%PDF-1.7 fake').toString('base64'), mimeType: 'image/png' },
					},
				},
			],
		);
	});

	test('an item without any binary data says so', async () => {
		await expectRejected(
			'objectRemover',
			single({ maskSource: 'binary' }),
			'Mask Binary Property "data" is not on the item (it has no binary data) [item 0]',
		);
	});
});

describe('the credential', () => {
	test('refuses to send the key over plain http to another host', async () => {
		const { error, run } = await runNode({
			node: 'objectRemover',
			parameters: { operation: 'remove', imageUrl: 'https://photos.example.com/room.jpg' },
			credentials: { apiKey: API_KEY, baseUrl: 'http://api.ideal.house' },
		});

		expect(error?.message).toContain('must start with https://');
		expect(recorded).toEqual([]);
		expect(JSON.stringify(run)).not.toContain(API_KEY);
	});

	test('allows plain http to a local test service, and sends the key in the APIKEY header', async () => {
		nock('http://127.0.0.1:8787')
			.post(OR.create)
			.reply(200, function () {
				expect(this.req.headers.apikey).toBe('local-dev-key');
				return created('3');
			});

		const { items, error } = await runNode({
			node: 'objectRemover',
			parameters: {
				operation: 'remove',
				imageUrl: 'https://photos.example.com/room.jpg',
				waitForCompletion: false,
			},
			credentials: { apiKey: 'local-dev-key', baseUrl: 'http://127.0.0.1:8787/' },
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: '3', status: 'Unprocessed', creditsCharged: 1 });
	});

	test('works with a base URL written with a trailing slash', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '1' },
			credentials: { apiKey: API_KEY, baseUrl: `${BASE}/` },
		});

		expect(items[0].json.id).toBe('1');
		expect(recorded[0].path).toBe(PE.result);
	});
});

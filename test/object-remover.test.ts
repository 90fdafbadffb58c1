import { runNode } from './helpers/engine';
import {
	API_KEY,
	BASE,
	BIG_ID,
	OR,
	TINY_PNG,
	api,
	created,
	queued,
	recorded,
	refuseCreates,
	serveTask,
	taskResponse,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { ROOM_PHOTO, remove } from './helpers/params';
import { answerAnyRequest, expectRejected } from './helpers/refusals';

const PHOTO = ROOM_PHOTO;
const pngItem = (property = 'data') => ({
	json: {},
	binary: {
		[property]: { data: TINY_PNG.toString('base64'), mimeType: 'image/png', fileName: 'mask.png' },
	},
});

eachTestOnAFreshWire();

/** The emptied room of task `id`: the size of the photo sent. */
const emptiedRoom = (id: string) => ({
	resultUrl: `https://cdn.ideal.house/r/${id}.png`,
	width: 1600,
	height: 1200,
});

function answerCreateAndPoll(id: string) {
	serveTask(OR, id, queued(2), { status: 'Success', output: emptiedRoom(id) });
}

describe('Object Remover: the request body per mode', () => {
	test('whole house sends exactly the image and the mode, whatever the hidden mask fields hold', async () => {
		answerCreateAndPoll(BIG_ID);

		const { items, error } = await runNode({
			node: 'objectRemover',
			parameters: remove({
				emptyType: 'whole_house',
				maskSource: 'url',
				maskUrl: 'https://photos.example.com/stale-mask.png',
				maskBase64: 'iVBORw0KGgo=',
			}),
		});

		expect(error).toBeUndefined();
		expect(recorded[0]).toMatchObject({ method: 'POST', path: OR.create });
		expect(recorded[0].headers.apikey).toBe(API_KEY);
		expect(recorded[0].headers['content-type']).toBe('application/json');
		expect(recorded[0].body).toEqual({ imageUrl: PHOTO, emptyType: 'whole_house' });
		expect(recorded.slice(1).map((request) => request.query)).toEqual([
			{ taskId: BIG_ID },
			{ taskId: BIG_ID },
		]);
		expect(items).toEqual([
			{
				json: {
					id: BIG_ID,
					status: 'Success',
					waitNumber: 0,
					percentage: 100,
					input: {},
					output: emptiedRoom(BIG_ID),
					creditsCharged: 1,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('single furniture with a mask URL sends only maskUrl', async () => {
		answerCreateAndPoll('21');

		await runNode({
			node: 'objectRemover',
			parameters: remove({
				emptyType: 'single_furniture',
				maskSource: 'url',
				maskUrl: ' https://photos.example.com/bedroom-mask.png ',
				maskBase64: 'ignored',
			}),
		});

		expect(recorded[0].body).toEqual({
			imageUrl: PHOTO,
			emptyType: 'single_furniture',
			maskUrl: 'https://photos.example.com/bedroom-mask.png',
		});
	});

	test('single furniture with a base64 mask strips a pasted data: prefix and line breaks', async () => {
		answerCreateAndPoll('22');
		const base64 = TINY_PNG.toString('base64');

		await runNode({
			node: 'objectRemover',
			parameters: remove({
				emptyType: 'single_furniture',
				maskSource: 'base64',
				maskBase64: `data:image/png;base64,${base64.slice(0, 40)}\n${base64.slice(40)}`,
				maskUrl: 'https://ignored.example.com/m.png',
			}),
		});

		expect(recorded[0].body).toEqual({
			imageUrl: PHOTO,
			emptyType: 'single_furniture',
			maskBase64: base64,
		});
	});

	test("single furniture with the item's own file sends the file's bytes as plain base64", async () => {
		answerCreateAndPoll('23');

		await runNode({
			node: 'objectRemover',
			parameters: remove({
				emptyType: 'single_furniture',
				maskSource: 'binary',
				maskBinaryProperty: 'mask',
			}),
			items: [pngItem('mask')],
		});

		const body = recorded[0].body as { maskBase64: string };
		expect(Object.keys(body).sort()).toEqual(['emptyType', 'imageUrl', 'maskBase64']);
		// Exactly the file: not base64 of base64, no data: prefix.
		expect(body.maskBase64).toBe(TINY_PNG.toString('base64'));
		expect(Buffer.from(body.maskBase64, 'base64').equals(TINY_PNG)).toBe(true);
	});
});

describe('Object Remover: results and errors', () => {
	test('Get Result reads a task id above 2^53 exactly', async () => {
		api()
			.get(OR.result)
			.query({ taskId: BIG_ID })
			.reply(200, taskResponse(BIG_ID, { status: 'Processing', waitNumber: 0, percentage: 10 }));

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: { operation: 'getResult', taskId: BIG_ID },
		});

		expect(recorded).toHaveLength(1);
		expect(recorded[0].query).toEqual({ taskId: BIG_ID });
		expect(items[0].json).toEqual({
			id: BIG_ID,
			status: 'Processing',
			waitNumber: 0,
			percentage: 10,
			input: {},
			output: null,
			creditsCharged: 1,
		});
	});

	test.each([
		[
			1011,
			'maskUrl or maskBase64 required',
			/code 1011, a request parameter is missing or not valid: "maskUrl or maskBase64 required"/,
		],
		[9051, 'COINS_NOT_ENOUGH', /not have enough credits: code 9051/],
	])('error code %i is an item error with the service message', async (code, message, expected) => {
		refuseCreates(OR, code, message);

		const { error, run } = await runNode({ node: 'objectRemover', parameters: remove() });

		expect(error?.message).toMatch(expected);
		expect(recorded).toHaveLength(1);
		expect(JSON.stringify(run)).not.toContain(API_KEY);
	});

	test('several items at once, mixing modes and mask sources, each keeps its own body and link', async () => {
		const scope = api();
		const bodies: unknown[] = [];
		let next = 500;
		scope
			.post(OR.create)
			.times(3)
			.reply(200, (_uri, body) => {
				bodies.push(body);
				return created(String(next++));
			});
		scope
			.get(OR.result)
			.query(true)
			.times(3)
			.reply(200, (uri) => {
				const id = new URL(uri, BASE).searchParams.get('taskId') as string;
				return taskResponse(id, {
					output: { resultUrl: `https://cdn.ideal.house/r/${id}.png`, width: 8, height: 8 },
				});
			});

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: remove({
				imageUrl: '={{ $json.photo }}',
				emptyType: '={{ $json.mode }}',
				maskSource: 'binary',
				maskUrl: 'https://unused.example.com/m.png',
				maskBase64: 'unused',
			}),
			items: [
				{ json: { photo: 'https://p.example.com/1.jpg', mode: 'whole_house' } },
				{ ...pngItem(), json: { photo: 'https://p.example.com/2.jpg', mode: 'single_furniture' } },
				{ json: { photo: 'https://p.example.com/3.jpg', mode: 'whole_house' } },
			],
		});

		expect(bodies).toEqual(
			expect.arrayContaining([
				{ imageUrl: 'https://p.example.com/1.jpg', emptyType: 'whole_house' },
				{
					imageUrl: 'https://p.example.com/2.jpg',
					emptyType: 'single_furniture',
					maskBase64: TINY_PNG.toString('base64'),
				},
				{ imageUrl: 'https://p.example.com/3.jpg', emptyType: 'whole_house' },
			]),
		);
		expect(bodies).toHaveLength(3);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.every((item) => item.json.status === 'Success')).toBe(true);
		// Each output belongs to the task its own create returned.
		const idsByPhoto = Object.fromEntries(
			(bodies as Array<{ imageUrl: string }>).map((body, index) => [
				body.imageUrl,
				String(500 + index),
			]),
		);
		expect(items.map((item) => item.json.id)).toEqual([
			idsByPhoto['https://p.example.com/1.jpg'],
			idsByPhoto['https://p.example.com/2.jpg'],
			idsByPhoto['https://p.example.com/3.jpg'],
		]);
	});
});

describe('Object Remover refuses bad input before anything is charged', () => {
	beforeEach(answerAnyRequest);

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
			"'Image URL' is empty [item 0]",
		],
		[
			'a non-http image URL',
			{ emptyType: 'whole_house', imageUrl: 'file:///tmp/room.jpg' },
			'\'Image URL\' must be an absolute http(s) URL (got "file:///tmp/room.jpg") [item 0]',
		],
		[
			'a relative image URL',
			{ emptyType: 'whole_house', imageUrl: '/samples/living-room.png' },
			'\'Image URL\' must be an absolute http(s) URL (got "/samples/living-room.png") [item 0]',
		],
		[
			'an empty mask URL',
			{ maskSource: 'url', maskUrl: '={{ $json.mask }}' },
			"'Mask URL' is empty [item 0]",
		],
		['a blank mask URL', { maskSource: 'url', maskUrl: '   ' }, "'Mask URL' is empty [item 0]"],
		[
			'an empty base64 mask',
			{ maskSource: 'base64', maskBase64: ' ' },
			"'Mask (Base64)' is empty [item 0]",
		],
		[
			'base64 that is not base64',
			{ maskSource: 'base64', maskBase64: 'this is *not* base64!' },
			"'Mask (Base64)' is not valid base64 [item 0]",
		],
		[
			'base64 that is not an image',
			{ maskSource: 'base64', maskBase64: Buffer.from('hello mask').toString('base64') },
			"'Mask (Base64)' is not a JPEG, PNG or WebP image [item 0]",
		],
		[
			'a removal mode from an expression that does not exist',
			{ emptyType: '={{ "half_house" }}', maskUrl: 'https://a.example.com/m.png', maskBase64: 'x' },
			'\'Removal Mode\' must be one of whole_house, single_furniture (got the text "half_house") [item 0]',
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
			error: "'Mask URL' is empty [item 1]",
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
					error: '\'Image URL\' must be an absolute http(s) URL (got "not a url") [item 1]',
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
			'\'Mask Input Binary Field\' "mask" is not on the item (it has: data, photo) [item 0]',
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
			'\'Mask Input Binary Field\' "data" is not a JPEG, PNG or WebP image [item 0]',
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
			'\'Mask Input Binary Field\' "data" is not on the item (it has no binary data) [item 0]',
		);
	});
});

describe('careless input is refused before anything is sent', () => {
	test('a mask URL with a line break is refused', async () => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove({
				emptyType: 'single_furniture',
				maskSource: 'url',
				maskUrl: 'https://photos.example.com/m.png\nhttps://photos.example.com/n.png',
			}),
		});

		expect(error?.message).toMatch(/^'Mask URL' holds a line break/);
		expect(error?.description).toBe('Give exactly one URL here.');
		expect(recorded).toHaveLength(0);
	});
});

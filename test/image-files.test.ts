/**
 * Whole images only, in n8n's engine: a photo file or a mask is read to its end (streamed when n8n
 * stores it by id), its size taken from its header, and anything cut off, unreadable, too small
 * for the API or too large is refused before anything leaves n8n. Ideal House is answered by nock
 * (every request recorded); n8n-core's binary data service in filesystem mode holds the files, and
 * n8n at a public address gives the service its own links to them.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { runNode, type NodeName } from './helpers/engine';
import { noisyPng } from '../service/png.ts';
import { OR, PE, api, created, pathsOf, recorded, serveTask, taskResponse } from './helpers/api';
import { filesForThisFile } from './helpers/binary-store';
import {
	jpegImage,
	pngChunk,
	pngClaiming,
	pngImage,
	pngOfChunks,
	webpImage,
	type WebpKind,
} from './helpers/images';
import { eachTestOnAFreshWire } from './helpers/journey';
import { REST, linksIn, opened, storedItem } from './helpers/n8n-links';
import { ROOM_PHOTO, fromFile, remove } from './helpers/params';

const files = filesForThisFile();
eachTestOnAFreshWire();
beforeEach(() => files.resetReads());

const ENDPOINTS = { photoEnhancer: PE, objectRemover: OR, idealHouse: pathsOf('virtualStaging') };

/** An item with these files, stored by n8n by id. */
const fileItem = async (named: Record<string, Buffer>) => await storedItem(files, named);

/** An item with these files inline, as n8n's default mode holds them (a mask may be). */
function inlineItem(named: Record<string, Buffer>): INodeExecutionData {
	return {
		json: {},
		binary: Object.fromEntries(
			Object.entries(named).map(([name, bytes]) => [
				name,
				{ data: bytes.toString('base64'), mimeType: 'application/octet-stream', fileName: name },
			]),
		),
	};
}

/** The service answers `count` creates, each task done at its first check. */
function answerTasks(node: NodeName, count: number) {
	const { create, result } = ENDPOINTS[node];
	for (let k = 0; k < count; k++) {
		const id = String(81 + k);
		api().post(create).reply(200, created(id));
		api()
			.get(result)
			.query({ taskId: id })
			.reply(200, taskResponse(id, { status: 'Success' }));
	}
}

const creates = () => recorded.filter((request) => request.method === 'POST');
const cut = (bytes: Buffer, by = 2) => bytes.subarray(0, bytes.length - by);

/** The files the creates' links open, in order, by n8n-core's own check of each token. */
async function sentFiles(): Promise<Buffer[]> {
	const links = creates().flatMap((request) => linksIn(request.body));
	return await Promise.all(links.map(async (link) => (await opened(files, link)).bytes));
}

async function run(node: NodeName, items: INodeExecutionData[], property = 'photo') {
	return await runNode({
		node,
		restApiUrl: REST,
		parameters: fromFile(node, property),
		items,
		onError: 'continueRegularOutput',
	});
}

function expectNothingSent() {
	expect(recorded).toEqual([]);
}

describe('a photo file that is not a whole JPEG, PNG or WebP is refused, with nothing sent', () => {
	const jpeg = jpegImage(640, 480);
	const png = pngImage(640, 480);
	const cases: Array<[string, Buffer, string]> = [
		[
			'the 3 bytes FF D8 FF',
			Buffer.from([0xff, 0xd8, 0xff]),
			'is not a whole JPEG: it ends before its frame header',
		],
		[
			'a PNG signature followed by garbage',
			Buffer.concat([png.subarray(0, 8), Buffer.alloc(3000, 0x61)]),
			'is not a readable PNG: it does not start with its IHDR header chunk',
		],
		[
			'a WebP that is only its RIFF header',
			Buffer.from('RIFF\xe8\x03\0\0WEBP', 'latin1'),
			'is not a whole WebP: it is shorter than the 1008 bytes its RIFF header gives',
		],
		[
			'a JPEG cut before its end-of-image marker',
			cut(jpeg),
			'is not a whole JPEG: it ends before its end-of-image marker',
		],
		[
			'a PNG cut before its IEND chunk',
			cut(png, 20),
			'is not a whole PNG: it ends before its IEND chunk',
		],
	];
	const nodes: NodeName[] = ['photoEnhancer', 'objectRemover', 'idealHouse'];

	test.each(
		nodes.flatMap((node) =>
			cases.map(([name, bytes, problem]) => [node, name, bytes, problem] as const),
		),
	)('%s: %s', async (node, _name, bytes, problem) => {
		const { items } = await run(node, [await fileItem({ photo: bytes })]);

		expect(items[0].json.error).toBe(`'Input Binary Field' "photo" ${problem} [item 0]`);
		expectNothingSent();
	});

	test('a cut file is told to be taken again from its source', async () => {
		const { error } = await runNode({
			node: 'objectRemover',
			restApiUrl: REST,
			parameters: fromFile('objectRemover'),
			items: [await fileItem({ photo: cut(jpeg) })],
		});

		expect(error?.message).toMatch(/^'Input Binary Field' "photo" is not a whole JPEG/);
		expect(error?.description).toMatch(/stops short.*take it from its source again/);
		expectNothingSent();
	});
});

describe('the Photo Enhancer takes photos from 128 × 128 px; the others have no smallest size', () => {
	test('a whole 64 × 64 PNG is refused before anything is sent, a whole 320 × 240 PNG is sent', async () => {
		answerTasks('photoEnhancer', 1);
		const sent = pngImage(320, 240);

		const { items } = await run('photoEnhancer', [
			await fileItem({ photo: pngImage(64, 64) }),
			await fileItem({ photo: sent }),
		]);

		expect(items[0].json.error).toBe(
			'\'Input Binary Field\' "photo" is 64 × 64 px; the Photo Enhancer takes photos from 128 × 128 px [item 0]',
		);
		expect(items[1].json).toMatchObject({ status: 'Success', creditsCharged: 10 });
		expect(await sentFiles()).toEqual([sent]);
	});

	test('127 × 128 and 128 × 127 px are refused; 128 × 128 and 6,500 × 200 px are sent', async () => {
		answerTasks('photoEnhancer', 2);

		const { items } = await run('photoEnhancer', [
			await fileItem({ photo: pngImage(127, 128) }),
			await fileItem({ photo: pngImage(128, 127) }),
			await fileItem({ photo: pngImage(128, 128) }),
			await fileItem({ photo: pngImage(6500, 200) }),
		]);

		expect(items.map((item) => item.json.error ?? item.json.status)).toEqual([
			'\'Input Binary Field\' "photo" is 127 × 128 px; the Photo Enhancer takes photos from 128 × 128 px [item 0]',
			'\'Input Binary Field\' "photo" is 128 × 127 px; the Photo Enhancer takes photos from 128 × 128 px [item 1]',
			'Success',
			'Success',
		]);
		expect(creates()).toHaveLength(2);
	});

	test('a JPEG’s size comes from its frame header, read after 300 kB of EXIF', async () => {
		answerTasks('photoEnhancer', 1);
		const camera = jpegImage(4032, 3024, { exifBytes: 300_000 });

		const { items } = await run('photoEnhancer', [
			await fileItem({ photo: jpegImage(100, 3000, { exifBytes: 300_000 }) }),
			await fileItem({ photo: camera }),
		]);

		expect(items[0].json.error).toBe(
			'\'Input Binary Field\' "photo" is 100 × 3000 px; the Photo Enhancer takes photos from 128 × 128 px [item 0]',
		);
		expect(items[1].json.status).toBe('Success');
		expect(await sentFiles()).toEqual([camera]);
	});

	test.each<WebpKind>(['lossy', 'lossless', 'extended'])(
		'a %s WebP: its size is read from its header',
		async (kind) => {
			answerTasks('photoEnhancer', 1);

			const whole = webpImage(kind, 320, 240);
			const { items } = await run('photoEnhancer', [
				await fileItem({ photo: webpImage(kind, 130, 100) }),
				await fileItem({ photo: webpImage(kind, 100, 130) }),
				await fileItem({ photo: whole }),
			]);

			expect(items.map((item) => item.json.error ?? item.json.status)).toEqual([
				'\'Input Binary Field\' "photo" is 130 × 100 px; the Photo Enhancer takes photos from 128 × 128 px [item 0]',
				'\'Input Binary Field\' "photo" is 100 × 130 px; the Photo Enhancer takes photos from 128 × 128 px [item 1]',
				'Success',
			]);
			expect(await sentFiles()).toEqual([whole]);
		},
	);

	test.each<NodeName>(['objectRemover', 'idealHouse'])(
		'%s: a whole 64 × 64 photo is sent (the spec gives no smallest size), the same photo cut is not',
		async (node) => {
			answerTasks(node, 1);
			const small = pngImage(64, 64);

			const { items } = await run(node, [
				await fileItem({ photo: small }),
				await fileItem({ photo: cut(small) }),
			]);

			expect(items[0].json.status).toBe('Success');
			expect(items[1].json.error).toBe(
				'\'Input Binary Field\' "photo" is not a whole PNG: it ends before its IEND chunk [item 1]',
			);
			expect(await sentFiles()).toEqual([small]);
		},
	);
});

describe("'Input Binary Field' names each property once", () => {
	test.each([
		['photo,photo,photo', 'photo'],
		['dark, mid,dark', 'dark'],
	])('"%s" is refused, with nothing sent', async (list, twice) => {
		const photo = pngImage(320, 240);

		const { items } = await run(
			'photoEnhancer',
			[await fileItem({ photo, dark: photo, mid: pngImage(320, 240) })],
			list,
		);

		expect(items[0].json.error).toBe(
			`'Input Binary Field' names "${twice}" more than once [item 0]`,
		);
		expectNothingSent();
	});
});

describe('a photo n8n stores by id is checked as it streams, and read once', () => {
	test('cut, it is refused; whole, it is linked as it is; neither is loaded whole, and the whole one is read once', async () => {
		answerTasks('objectRemover', 1);
		const whole = jpegImage(1024, 768, { exifBytes: 150_000 });

		const { items } = await run('objectRemover', [
			{ json: {}, binary: { photo: await files.store(cut(whole, 1000), 'cut.jpg') } },
			{ json: {}, binary: { photo: await files.store(whole, 'whole.jpg') } },
		]);

		expect(items[0].json.error).toBe(
			'\'Input Binary Field\' "photo" is not a whole JPEG: it ends before its end-of-image marker [item 0]',
		);
		expect(items[1].json.status).toBe('Success');
		// Each file read once, for its check: its link needs no copy.
		expect(files.reads.wholeLoads).toBe(0);
		expect(files.reads.streamedBytes).toBe(cut(whole, 1000).length + whole.length);
		expect(await sentFiles()).toEqual([whole]);
	});
});

describe('a photo n8n loses between its check and the copy its link needs', () => {
	test('fails the item before anything is sent, saying so; the next item goes on', async () => {
		answerTasks('objectRemover', 1);
		const photo = jpegImage(640, 480);
		// As a Form or Webhook trigger stores them: linked as copies under the execution's own id.
		const temp = { workflowId: 'wf-1', executionId: 'temp' };
		const items = [
			{ json: {}, binary: { photo: await files.store(photo, 'lost.jpg', temp) } },
			{ json: {}, binary: { photo: await files.store(photo, 'kept.jpg', temp) } },
		];
		const lost = items[0].binary.photo.id;
		const service = files.service;
		const getAsStream = service.getAsStream.bind(service);
		let reads = 0;
		// The first item's file opens for its check, then is gone, as a temporary file another run
		// cleared would be.
		service.getAsStream = async (id, chunkSize) => {
			if (id === lost && ++reads > 1) {
				throw new Error(`ENOENT: no such file or directory, open '${id}'`);
			}
			return await getAsStream(id, chunkSize);
		};

		try {
			const { items: out } = await run('objectRemover', items);

			expect(out[0].json.error).toBe('n8n could not make the link to the photo [item 0]');
			const { description } = out[0].json.details as { description: string };
			expect(description).toContain(`ENOENT: no such file or directory, open '${lost}'`);
			expect(description).toContain('Nothing was sent or charged.');
			expect(out[1].json.status).toBe('Success');
			expect(creates()).toHaveLength(1);
		} finally {
			service.getAsStream = getAsStream;
		}
	});
});

describe('a mask is checked as a photo is', () => {
	const mask = pngImage(640, 480);
	const single = (parameters: Record<string, unknown>) =>
		remove({ emptyType: 'single_furniture', ...parameters });

	test('from a binary property, cut: refused, nothing sent', async () => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: single({ maskSource: 'binary', maskBinaryProperty: 'mask' }),
			items: [inlineItem({ mask: cut(mask, 20) })],
		});

		expect(error?.message).toBe(
			'\'Mask Input Binary Field\' "mask" is not a whole PNG: it ends before its IEND chunk [item 0]',
		);
		expect(recorded).toEqual([]);
	});

	test.each([
		[
			'a PNG cut before its IEND chunk',
			cut(mask, 20),
			'is not a whole PNG: it ends before its IEND chunk',
		],
		[
			'the 3 bytes FF D8 FF',
			Buffer.from([0xff, 0xd8, 0xff]),
			'is not a whole JPEG: it ends before its frame header',
		],
	])('from base64, %s: refused, nothing sent', async (_name, bytes, problem) => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: single({ maskSource: 'base64', maskBase64: bytes.toString('base64') }),
		});

		expect(error?.message).toBe(`'Mask (Base64)' ${problem} [item 0]`);
		expect(recorded).toEqual([]);
	});

	test('over 20 MB, stored by id: refused after 20 MB of reading, never loaded whole', async () => {
		const large = Buffer.concat([mask, Buffer.alloc(21 * 1024 * 1024 - mask.length)]);
		const item = { json: {}, binary: { mask: await files.store(large, 'mask.png') } };

		const { error } = await runNode({
			node: 'objectRemover',
			parameters: single({ maskSource: 'binary', maskBinaryProperty: 'mask' }),
			items: [item],
		});

		expect(error?.message).toBe('\'Mask Input Binary Field\' "mask" is larger than 20 MB [item 0]');
		expect(recorded).toEqual([]);
		expect(files.reads.wholeLoads).toBe(0);
		expect(files.reads.streamedBytes).toBeGreaterThan(20 * 1024 * 1024);
		expect(files.reads.streamedBytes).toBeLessThan(large.length);
	});

	test('stored by id and whole: streamed, and sent as the base64 of its bytes', async () => {
		// About 300 kB of noise: several chunks, none of them a multiple of 3 bytes long.
		const photoMask = noisyPng(400, 300, 300_000, 7);
		serveTask(OR, '91');
		api()
			.get(OR.result)
			.query({ taskId: '91' })
			.reply(200, taskResponse('91', { status: 'Success' }));

		const { items, error } = await runNode({
			node: 'objectRemover',
			parameters: single({ maskSource: 'binary', maskBinaryProperty: 'mask' }),
			items: [{ json: {}, binary: { mask: await files.store(photoMask, 'mask.png') } }],
		});

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('Success');
		const body = creates()[0].body as { maskBase64: string };
		expect(body.maskBase64).toBe(photoMask.toString('base64'));
		expect(files.reads.wholeLoads).toBe(0);
		expect(files.reads.streamedBytes).toBe(2 * photoMask.length);
	});
});

describe('images that must match are compared before anything leaves n8n', () => {
	const photo = jpegImage(640, 480);

	/** Single Furniture on one item whose photo is its file `photo`, with this mask. */
	async function removeWithMask(mask: Record<string, unknown>, named: Record<string, Buffer>) {
		return await runNode({
			node: 'objectRemover',
			restApiUrl: REST,
			parameters: { ...fromFile('objectRemover'), emptyType: 'single_furniture', ...mask },
			items: [await fileItem(named)],
			onError: 'continueRegularOutput',
		});
	}

	test('a mask file of another size than the photo file: an item error naming both sizes, nothing sent', async () => {
		const { items } = await removeWithMask(
			{ maskSource: 'binary', maskBinaryProperty: 'mask' },
			{ photo, mask: pngImage(320, 240) },
		);

		expect(items[0].json.error).toBe(
			'\'Mask Input Binary Field\' "mask" is 320 × 240 px, but the photo (Input Binary Field "photo") is 640 × 480 px [item 0]',
		);
		expectNothingSent();
	});

	test('a base64 mask of another size than the photo file: the same, nothing sent', async () => {
		const { items } = await removeWithMask(
			{ maskSource: 'base64', maskBase64: pngImage(640, 481).toString('base64') },
			{ photo },
		);

		expect(items[0].json.error).toBe(
			'\'Mask (Base64)\' is 640 × 481 px, but the photo (Input Binary Field "photo") is 640 × 480 px [item 0]',
		);
		expectNothingSent();
	});

	test.each([
		['a file', () => ({ maskSource: 'binary', maskBinaryProperty: 'mask' }), true],
		[
			'base64',
			(mask: Buffer) => ({ maskSource: 'base64', maskBase64: mask.toString('base64') }),
			false,
		],
	])(
		'a mask of the photo file’s size, as %s, is sent with the link to the photo',
		async (_name, source, asFile) => {
			answerTasks('objectRemover', 1);
			const mask = pngImage(640, 480);

			const { items } = await removeWithMask(source(mask), asFile ? { photo, mask } : { photo });

			expect(items[0].json.status).toBe('Success');
			expect(await sentFiles()).toEqual([photo]);
			expect(creates()[0].body).toMatchObject({ maskBase64: mask.toString('base64') });
		},
	);

	test('with the photo at a URL, the mask is not compared (the photo is not downloaded): the service judges it', async () => {
		answerTasks('objectRemover', 1);
		const mask = pngImage(320, 240);

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: remove({
				emptyType: 'single_furniture',
				maskSource: 'binary',
				maskBinaryProperty: 'mask',
			}),
			items: [inlineItem({ mask })],
		});

		expect(items[0].json.status).toBe('Success');
		expect(creates()[0].body).toEqual({
			imageUrl: ROOM_PHOTO,
			emptyType: 'single_furniture',
			maskBase64: mask.toString('base64'),
		});
	});

	test('HDR brackets of different sizes: an item error naming each property’s size, nothing sent', async () => {
		const { items } = await run(
			'photoEnhancer',
			[
				await fileItem({
					under: jpegImage(640, 480),
					normal: pngImage(640, 480),
					over: webpImage('lossless', 600, 480),
				}),
			],
			'under,normal,over',
		);

		expect(items[0].json.error).toBe(
			'\'Input Binary Field\' names photos of different sizes: "under" 640 × 480 px, "normal" 640 × 480 px, "over" 600 × 480 px [item 0]',
		);
		expectNothingSent();
	});

	test('a photo whose header gives more pixels than its bytes hold is not a whole image: nothing sent', async () => {
		const forged = pngClaiming(100_000, 100_000);

		const { error } = await runNode({
			node: 'objectRemover',
			restApiUrl: REST,
			parameters: fromFile('objectRemover'),
			items: [await fileItem({ photo: forged })],
		});

		expect(error?.message).toBe(
			'\'Input Binary Field\' "photo" is not a whole PNG: its header gives 100000 × 100000 px, more than its 66 bytes can hold [item 0]',
		);
		expect(error?.description).toMatch(/^Its header gives a picture that its bytes do not hold/);
		expectNothingSent();
	});

	test('a mask with no image data is not a whole image: nothing sent', async () => {
		const hollow = pngOfChunks(640, 480, [pngChunk('IEND')]);

		const { items } = await removeWithMask(
			{ maskSource: 'base64', maskBase64: hollow.toString('base64') },
			{ photo },
		);

		expect(items[0].json.error).toBe(
			"'Mask (Base64)' is not a whole PNG: it holds no image data (IDAT) before IEND [item 0]",
		);
		expectNothingSent();
	});
});

/**
 * Plans and 3D on the Ideal House AI node, with nock on the wire: Floor Plan and House Plan (no
 * photo in), AI 3D (an image or a prompt; a 3D model file out), AI 3D Rendering (the render degree
 * with Flash only), Furniture Try-On (1 to 6 items) and Smart Replace (its mask through the extra
 * body fields). The exact bodies, the refusals that cost nothing, and result files told apart by
 * their bytes.
 */
import nock from 'nock';

import { sniffModelType, sniffResultType } from '../nodes/shared/files/file-types';
import { runNode } from './helpers/engine';
import { BIG_ID, TINY_PNG, api, created, recorded, taskResponse } from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { glb, zipOf } from './helpers/model-files';

const PHOTO = 'https://photos.example.com/listing/room.jpg';
const CDN = 'https://cdn.ideal.house';

eachTestOnAFreshWire();

/** A create that is answered and a task that finished, for the resource's paths. */
function finishes(resource: string, output?: object): void {
	api()
		.post(`/api/v1/${resource}/generate`)
		.reply(200, created(BIG_ID))
		.get(`/api/v1/${resource}/result`)
		.query({ taskId: BIG_ID })
		.reply(200, taskResponse(BIG_ID, output ? { output } : {}));
}

async function create(resource: string, parameters: Record<string, unknown>, options = {}) {
	return await runNode({
		node: 'idealHouse',
		parameters: { resource, operation: 'create', options, ...parameters },
	});
}

const sentBody = () => recorded.find((request) => request.method === 'POST')?.body;

describe('the bodies sent, with the documented defaults', () => {
	const EVERY_FLOOR_PLAN_FIELD = {
		bedrooms: 4,
		bathrooms: 3,
		kitchenType: 'closed',
		grossArea: '150-180m²',
		extras: 'garage, laundry',
		refImageUrl: 'https://plans.example.com/ref.png',
		modelType: 'Pro',
	};

	test.each([
		['floorPlan', {}, { bedrooms: 2, bathrooms: 1, kitchenType: 'open', modelType: 'Base' }, 10],
		// Every field given: sent as given.
		['floorPlan', EVERY_FLOOR_PLAN_FIELD, EVERY_FLOOR_PLAN_FIELD, 20],
		['housePlan', { stories: '2' }, { stories: '2', modelType: 'Base' }, 10],
		[
			'housePlan',
			{ stories: '1', style: 'Craftsman', modelType: 'Pro' },
			{ style: 'Craftsman', stories: '1', modelType: 'Pro' },
			20,
		],
		['ai3d', { prompt: 'a mid-century armchair' }, { prompt: 'a mid-century armchair' }, 20],
		['ai3d', { imageUrl: PHOTO }, { imageUrl: PHOTO }, 20],
		['ai3dRendering', { imageUrl: PHOTO }, { imageUrl: PHOTO, renderDegree: 3 }, 1],
		[
			'ai3dRendering',
			{ imageUrl: PHOTO, modelType: 'Flash', renderDegree: 6 },
			{ imageUrl: PHOTO, modelType: 'Flash', renderDegree: 6 },
			1,
		],
		// Render Degree is shown, and sent, with Flash only.
		[
			'ai3dRendering',
			{ imageUrl: PHOTO, modelType: 'Pro', renderDegree: 6 },
			{ imageUrl: PHOTO, modelType: 'Pro' },
			10,
		],
		[
			'furnitureTryOn',
			{
				imageUrl: PHOTO,
				furnitureList: '[{"image":"https://shop.example.com/sofa.png","id":9007199254740993}]',
			},
			{
				imageUrl: PHOTO,
				furnitureList: [{ image: 'https://shop.example.com/sofa.png', id: '9007199254740993' }],
				modelType: 'Base',
			},
			3,
		],
		[
			'smartReplace',
			{
				imageUrl: PHOTO,
				prompt: 'a reading chair',
				extraBody: '{"maskUrl":"https://photos.example.com/listing/room-mask.png"}',
			},
			{
				imageUrl: PHOTO,
				prompt: 'a reading chair',
				maskUrl: 'https://photos.example.com/listing/room-mask.png',
			},
			1,
		],
	])('%s %j sends %j and costs %i', async (resource, parameters, body, credits) => {
		finishes(resource);

		const { error, items } = await create(resource, parameters);

		expect(error).toBeUndefined();
		expect(sentBody()).toEqual(body);
		expect(items[0].json).toMatchObject({ id: BIG_ID, status: 'Success', creditsCharged: credits });
	});
});

describe('refused before anything is sent or charged', () => {
	test.each([
		[
			'ai3d',
			{},
			"'Image URL' and 'Prompt' are both empty: give an image URL, a prompt, or both [item 0]",
		],
		[
			'ai3d',
			{ prompt: '   ' },
			"'Image URL' and 'Prompt' are both empty: give an image URL, a prompt, or both [item 0]",
		],
		['ai3d', { imageUrl: 'photo.jpg' }, /^'Image URL' must be an absolute http\(s\) URL/],
		// Left empty in the editor, n8n itself refuses it; an expression that gives nothing reaches the node.
		['housePlan', { stories: '={{ $json.stories }}' }, "'Stories' is required [item 0]"],
		[
			'floorPlan',
			{ bedrooms: -1 },
			"'Bedrooms' must be a whole number of at least 0 (got -1) [item 0]",
		],
		[
			'floorPlan',
			{ bedrooms: 2.5 },
			"'Bedrooms' must be a whole number of at least 0 (got 2.5) [item 0]",
		],
		[
			'floorPlan',
			{ kitchenType: '={{ "galley" }}' },
			/^'Kitchen Type' must be one of closed, open \(got "galley"\)/,
		],
		[
			'floorPlan',
			{ modelType: '={{ "Flash" }}' },
			/^'Model Type' must be one of Base, Pro \(got "Flash"\)/,
		],
		[
			'ai3dRendering',
			{ imageUrl: PHOTO, renderDegree: 7 },
			"'Render Degree' must be a whole number from 1 to 6 (got 7) [item 0]",
		],
		[
			'ai3dRendering',
			{ imageUrl: PHOTO, renderDegree: 0 },
			"'Render Degree' must be a whole number from 1 to 6 (got 0) [item 0]",
		],
		['furnitureTryOn', { imageUrl: PHOTO }, "'Furniture List (JSON)' is required [item 0]"],
		[
			'furnitureTryOn',
			{ imageUrl: PHOTO, furnitureList: '[]' },
			"'Furniture List (JSON)' is required [item 0]",
		],
		[
			'furnitureTryOn',
			{
				imageUrl: PHOTO,
				furnitureList: JSON.stringify(Array.from({ length: 7 }, (_, i) => ({ id: i }))),
			},
			"'Furniture List (JSON)' must be a list of 1 to 6 items (got 7 items) [item 0]",
		],
		[
			'furnitureTryOn',
			{ imageUrl: PHOTO, furnitureList: '{"id":1}' },
			"'Furniture List (JSON)' must be a list of 1 to 6 items (got object) [item 0]",
		],
		[
			'furnitureTryOn',
			{ imageUrl: PHOTO, furnitureList: '[{"id":1},"sofa"]' },
			"'Furniture List (JSON)' #2 must be an object [item 0]",
		],
		[
			'furnitureTryOn',
			{ imageUrl: PHOTO, furnitureList: '[{"id":1}' },
			/^'Furniture List \(JSON\)' is not valid JSON/,
		],
		[
			'smartReplace',
			{ imageUrl: PHOTO, extraBody: '{"imageUrl":"https://x.example.com/b.jpg"}' },
			/^'Extra Body Fields \(JSON\)' sets "imageUrl", which the node has as a field of its own/,
		],
	])('%s %j: %s', async (resource, parameters, message) => {
		const { error, items } = await create(resource, parameters);

		expect(items).toEqual([]);
		if (typeof message === 'string') expect(error?.message).toBe(message);
		else expect(error?.message).toMatch(message);
		expect(recorded).toEqual([]);
	});
});

describe("AI 3D's model file", () => {
	const model = `${CDN}/results/${BIG_ID}.glb`;

	test('is attached as a GLB, told by its bytes whatever the host calls it', async () => {
		finishes('ai3d', { resultUrl: model, width: null, height: null });
		nock(CDN)
			.get(`/results/${BIG_ID}.glb`)
			.reply(200, glb(), { 'Content-Type': 'application/octet-stream' });

		const { error, items } = await create('ai3d', { prompt: 'a chair' }, { downloadResult: true });

		expect(error).toBeUndefined();
		expect(items[0].binary?.data).toMatchObject({
			mimeType: 'model/gltf-binary',
			fileExtension: 'glb',
			fileName: `${BIG_ID}.glb`,
		});
		expect(Buffer.from(items[0].binary!.data.data, 'base64').equals(glb())).toBe(true);
	});

	test('an image where a model should be is refused, and the item names the task', async () => {
		finishes('ai3d', { resultUrl: model, width: null, height: null });
		nock(CDN)
			.get(`/results/${BIG_ID}.glb`)
			.reply(200, TINY_PNG, { 'Content-Type': 'model/gltf-binary' });

		const { error, items } = await create('ai3d', { prompt: 'a chair' }, { downloadResult: true });

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			`The result of task ${BIG_ID} was not downloaded: the file is not a 3D model (GLB, glTF, OBJ, FBX, USDZ or a ZIP of them) (the host called it model/gltf-binary) [item 0]`,
		);
		expect(error?.description).toMatch(`task ID ${BIG_ID}`);
	});

	test('an image API still refuses a model file', async () => {
		finishes('ai3dRendering', { resultUrl: model, width: 1, height: 1 });
		nock(CDN).get(`/results/${BIG_ID}.glb`).reply(200, glb());

		const { error } = await create('ai3dRendering', { imageUrl: PHOTO }, { downloadResult: true });

		expect(error?.message).toMatch(/the file is not a PNG, JPEG or WebP image \[item 0\]$/);
	});
});

describe('3D model files told apart by their first bytes', () => {
	/** A ZIP whose first entry has this name, and nothing in it. */
	const zipWith = (name: string) => zipOf([[name, '']]);

	test.each([
		['GLB', glb(), 'model/gltf-binary', 'glb'],
		[
			'glTF',
			Buffer.from('{\n  "asset": { "version": "2.0" }, "scenes": []\n}'),
			'model/gltf+json',
			'gltf',
		],
		[
			'OBJ',
			Buffer.from('# exported\nmtllib room.mtl\nv 0 0 0\nv 1 0 0\nf 1 2 3\n'),
			'model/obj',
			'obj',
		],
		[
			'OBJ without comments',
			Buffer.from('v 0.5 0.1 0\nv 1 0 0\nv 0 1 0\nvn 0 1 0\nf 1//1 2//1 3//1\n'),
			'model/obj',
			'obj',
		],
		['FBX', Buffer.from('Kaydara FBX Binary  \0\x1a\0'), 'application/octet-stream', 'fbx'],
		['USDZ', zipWith('scene.usdc'), 'model/vnd.usdz+zip', 'usdz'],
		['a ZIP of models', zipWith('model.glb'), 'application/zip', 'zip'],
	])('%s', (_name, bytes, mimeType, extension) => {
		expect(sniffModelType(bytes)).toEqual({ mimeType, extension });
		expect(sniffResultType(bytes, 'model3d')).toEqual({ mimeType, extension });
	});

	test.each([
		['a PNG', TINY_PNG],
		['an HTML page', Buffer.from('<!doctype html><title>Not found</title>')],
		['JSON that is not glTF', Buffer.from('{"code":1001,"message":"not found"}')],
		['plain text', Buffer.from('hello world\n')],
		['nothing', Buffer.alloc(0)],
	])('%s is no 3D model', (_name, bytes) => {
		expect(sniffModelType(bytes)).toBeUndefined();
	});

	test('an API called by name takes any file: an image, a model, or bytes of no known kind', () => {
		expect(sniffResultType(TINY_PNG, 'any')).toEqual({ mimeType: 'image/png', extension: 'png' });
		expect(sniffResultType(glb(), 'any')).toEqual({
			mimeType: 'model/gltf-binary',
			extension: 'glb',
		});
		const wav = Buffer.from('RIFF\x24\x08\x00\x00WAVEfmt \x10\x00\x00\x00', 'latin1');
		expect(sniffResultType(wav, 'any')).toEqual({
			mimeType: 'application/octet-stream',
			extension: 'bin',
		});
	});
});

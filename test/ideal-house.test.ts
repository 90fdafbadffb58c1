/**
 * The Ideal House AI node in n8n's engine, with nock on the wire: for every API it offers, the
 * exact request it sends (and the inputs it refuses before anything is sent or charged), what
 * each task costs by model type, every result file of a task brought back as binary data,
 * Continue on Fail, Stop, and an API added to the node as a row of data and a description, with
 * no engine change. The option lists loaded in the editor are in ideal-house-styles.test.ts, the
 * node as an AI agent's tool in tool-mode.test.ts.
 */
import nock from 'nock';
import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers, updateDisplayOptions } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { createBodyCheck } from '../nodes/shared/item/body-check';
import { styleLoaders } from '../nodes/IdealHouse/methods/styles';
import { extraBodyField, styleList } from '../nodes/IdealHouse/fields';
import { sentAs } from '../nodes/shared/descriptions/body-fields';
import type { IdealHouseApi } from '../nodes/shared/catalog/catalog';
import {
	authenticationField,
	commonDescription,
	operationField,
	optionsField,
	taskIdField,
	waitForCompletionField,
} from '../nodes/shared/descriptions/fields';
import { createTaskRouting } from '../nodes/shared/item/routing';
import { gradientPng } from '../service/png.ts';
import { TEST_CREDENTIALS, runNode } from '../dev/harness/engine';
import {
	BIG_ID,
	TINY_PNG,
	api,
	created,
	envelope,
	quietAfterStop,
	recorded,
	resetWire,
	taskResponse,
} from './helpers/api';
import {
	PHOTO,
	REFERENCE,
	ROOM,
	CDN,
	LISTED,
	UNLISTED,
	paths,
	create,
	answerTask,
	answerCreate,
	expectCreateThenPolls,
	asTool,
} from './helpers/ideal-house';
import { loadOptions } from './helpers/editor';
import { runStoppedInWait } from './helpers/run';

beforeEach(resetWire);
afterAll(() => nock.restore());

describe('the request body of every API', () => {
	const full: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
		[
			'virtualStaging',
			{
				prompt: '  Warm oak, soft light ',
				indoorTypeId: `${ROOM}Living Room`,
				indoorStyleId: ' nordic-07 ',
				extraBody: '{"seed": 7, "watermark": false}',
			},
			{
				imageUrl: PHOTO,
				prompt: 'Warm oak, soft light',
				indoorTypeId: `${ROOM}Living Room`,
				indoorStyleId: 'nordic-07',
				seed: 7,
				watermark: false,
			},
		],
		[
			'exteriorRenovator',
			{
				prompt: 'Brick facade',
				referenceUrl: REFERENCE,
				buildingStyleId: 'colonial',
				extraBody: '{"strength": 0.6}',
			},
			{
				imageUrl: PHOTO,
				prompt: 'Brick facade',
				referenceUrl: REFERENCE,
				buildingStyleId: 'colonial',
				strength: 0.6,
			},
		],
		[
			'landscaping',
			{
				prompt: 'Low water',
				sceneId: 'garden-1',
				sceneElementId: ['lawn-1', 'path-2', 'pit-3'],
				modelType: 'Pro',
				extraBody: '{"variant": "b"}',
			},
			{
				imageUrl: PHOTO,
				prompt: 'Low water',
				sceneId: 'garden-1',
				sceneElementId: 'lawn-1,path-2,pit-3',
				modelType: 'Pro',
				variant: 'b',
			},
		],
		[
			'interiorRemodel',
			{
				prompt: 'Open plan',
				indoorTypeId: 'room-1',
				indoorStyleId: 'style-2',
				indoorElemId: ['paint-1', 'floor-2'],
				colorString: 'sage green, white',
				colorImgUrl: REFERENCE,
				extraBody: '{"keepLayout": true}',
			},
			{
				imageUrl: PHOTO,
				prompt: 'Open plan',
				indoorTypeId: 'room-1',
				indoorStyleId: 'style-2',
				indoorElemId: 'paint-1,floor-2',
				colorString: 'sage green, white',
				colorImgUrl: REFERENCE,
				keepLayout: true,
			},
		],
		[
			'changeFurniture',
			{
				prompt: 'Leather',
				indoorTypeId: 'room-1',
				indoorStyleId: 'style-2',
				indoorElemId: ['sofa-1'],
				extraBody: '{"n": 1}',
			},
			{
				imageUrl: PHOTO,
				prompt: 'Leather',
				indoorTypeId: 'room-1',
				indoorStyleId: 'style-2',
				indoorElemId: 'sofa-1',
				n: 1,
			},
		],
		[
			'homeDecor',
			{
				referenceUrl: REFERENCE,
				spaceStyleId: 'space-1',
				homeDecorStyleId: 'decor-2',
				prompt: 'Festive',
				modelType: 'Pro',
				extraBody: '{"season": "winter"}',
			},
			{
				imageUrl: PHOTO,
				referenceUrl: REFERENCE,
				spaceStyleId: 'space-1',
				homeDecorStyleId: 'decor-2',
				prompt: 'Festive',
				modelType: 'Pro',
				season: 'winter',
			},
		],
		[
			'magicEditor',
			{ prompt: 'Remove the car', modelType: 'Base', extraBody: '{"mask": "auto"}' },
			{ imageUrl: PHOTO, prompt: 'Remove the car', modelType: 'Base', mask: 'auto' },
		],
		[
			'planVisualizer',
			{
				prompt: 'Bright',
				planStyleId: 'plan-1',
				styleId: 'style-2',
				viewId: 'view-3',
				modelType: 'Base',
				extraBody: '{"quality": "high"}',
			},
			{
				imageUrl: PHOTO,
				prompt: 'Bright',
				planStyleId: 'plan-1',
				styleId: 'style-2',
				viewId: 'view-3',
				modelType: 'Base',
				quality: 'high',
			},
		],
	];

	test.each(full)(
		'%s: every field given is sent as the API names it, extraBody merged, then the task is polled',
		async (resource, parameters, body) => {
			answerTask(resource, BIG_ID);

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: create(resource, parameters),
			});

			expect(error).toBeUndefined();
			expectCreateThenPolls(resource, BIG_ID);
			expect(recorded[0].body).toEqual(body);
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({ id: BIG_ID, status: 'Success' });
			expect(items[0].pairedItem).toEqual({ item: 0 });
		},
	);

	test.each(LISTED)(
		'%s: with only the image given, the body is the image alone (empty fields and the default model type not sent)',
		async (resource) => {
			answerCreate(resource, '41');

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: create(resource, {
					prompt: '   ',
					modelType: '',
					waitForCompletion: false,
				}),
			});

			expect(error).toBeUndefined();
			expect(recorded).toHaveLength(1);
			expect(recorded[0]).toMatchObject({ method: 'POST', path: paths(resource).create });
			expect(recorded[0].body).toEqual({ imageUrl: PHOTO });
			expect(items.map((item) => item.json.status)).toEqual(['Unprocessed']);
		},
	);

	test('custom: the body is the JSON given, sent to the path of the API named', async () => {
		answerTask(UNLISTED, '42');

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'custom',
				operation: 'create',
				apiName: ` ${UNLISTED} `,
				extraBody: `{"imageUrl": "${PHOTO}", "prompt": "Swap the rug", "taskNo": 18392019384756285441}`,
			},
		});

		expect(error).toBeUndefined();
		expectCreateThenPolls(UNLISTED, '42');
		// A number beyond 2^53 keeps every digit and stays a number, rather than being rounded.
		expect(recorded[0].body).toEqual({
			imageUrl: PHOTO,
			prompt: 'Swap the rug',
			taskNo: '18392019384756285441',
		});
		expect(recorded[0].text).toContain('"taskNo":18392019384756285441}');
		expect(items[0].json).toMatchObject({ id: '42', status: 'Success', creditsCharged: null });
	});

	test('several ids typed as one text (an expression) are trimmed and comma-joined', async () => {
		answerCreate('changeFurniture', '43');

		await runNode({
			node: 'idealHouse',
			parameters: create('changeFurniture', {
				indoorElemId: '={{ " sofa-1 , rug-2,,lamp-3 " }}',
				waitForCompletion: false,
			}),
		});

		expect(recorded[0].body).toEqual({ imageUrl: PHOTO, indoorElemId: 'sofa-1,rug-2,lamp-3' });
	});

	test('an expression can fill the fixed room type with one of its values', async () => {
		answerCreate('virtualStaging', '44');

		await runNode({
			node: 'idealHouse',
			parameters: create('virtualStaging', {
				indoorTypeId: `={{ "${ROOM}" + $json.room }}`,
				waitForCompletion: false,
			}),
			items: [{ json: { room: 'Home Office' } }],
		});

		expect(recorded[0].body).toEqual({ imageUrl: PHOTO, indoorTypeId: `${ROOM}Home Office` });
	});

	test('Get Result of every API reads its own result path with the task id', async () => {
		for (const value of LISTED) {
			api()
				.get(paths(value).result)
				.query({ taskId: BIG_ID })
				.reply(200, taskResponse(BIG_ID, { status: 'Processing', percentage: 20 }));
		}
		api()
			.get(paths(UNLISTED).result)
			.query({ taskId: BIG_ID })
			.reply(200, taskResponse(BIG_ID, { status: 'Processing', percentage: 20 }));

		for (const value of [...LISTED, 'custom']) {
			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: {
					resource: value,
					operation: 'getResult',
					taskId: BIG_ID,
					...(value === 'custom' ? { apiName: UNLISTED } : {}),
				},
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ id: BIG_ID, status: 'Processing', percentage: 20 });
		}

		expect(
			recorded.map(({ method, path, query, body }) => ({ method, path, query, body })),
		).toEqual(
			[...LISTED, UNLISTED].map((name) => ({
				method: 'GET',
				path: paths(name).result,
				query: { taskId: BIG_ID },
				body: undefined,
			})),
		);
	});
});

describe('parameters as the editor keeps them when the resource changes', () => {
	const description = new IdealHouse().description;
	/** What n8n's editor does on every change: the node's parameters, filled from the description. */
	const fill = (parameters: INodeParameters) =>
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			{ typeVersion: 1 } as never,
			description,
		)!;

	test('a user who looked at Other API (Custom) and then chose Landscaping sends just the image', async () => {
		const onCustom = fill({ resource: 'custom', operation: 'create' });
		const onLandscaping = fill({ ...onCustom, resource: 'landscaping', imageUrl: PHOTO });
		answerCreate('landscaping', '45');

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: { ...onLandscaping, waitForCompletion: false },
		});

		expect(error).toBeUndefined();
		expect(recorded.map(({ path, body }) => ({ path, body }))).toEqual([
			{ path: paths('landscaping').create, body: { imageUrl: PHOTO } },
		]);
		expect(items[0].json).toEqual({ id: '45', status: 'Unprocessed', creditsCharged: 3 });
	});

	test('a model type of one API carried to another whose list lacks it is refused, not sent', async () => {
		const onLandscaping = fill({
			resource: 'landscaping',
			operation: 'create',
			modelType: 'Flash',
		});
		const onDecor = fill({ ...onLandscaping, resource: 'homeDecor', imageUrl: PHOTO });
		api().post(/.*/).reply(200, created('46'));

		const { error } = await runNode({ node: 'idealHouse', parameters: onDecor });

		expect(onDecor.modelType).toBe('Flash');
		expect(recorded).toEqual([]);
		expect(error?.message).toBe('Model Type must be one of Base, Pro (got "Flash") [item 0]');
	});
});

describe('inputs refused before anything is sent or charged', () => {
	/** Runs the item with the service ready to answer anything, and proves that nothing reached it. */
	async function refused(parameters: Record<string, unknown>) {
		api().post(/.*/).reply(200, created('99')).get(/.*/).query(true).reply(200, taskResponse('99'));
		const result = await runNode({ node: 'idealHouse', parameters });
		expect(recorded).toEqual([]);
		return result;
	}

	test.each(LISTED)('%s: no image URL (an expression giving nothing)', async (resource) => {
		const { error, items } = await refused(create(resource, { imageUrl: '={{ $json.photo }}' }));

		expect(items).toEqual([]);
		expect(error?.message).toBe('Image URL is required [item 0]');
	});

	test('an image URL left empty in the editor: n8n itself refuses to run the node', async () => {
		await expect(
			runNode({ node: 'idealHouse', parameters: create('landscaping', { imageUrl: '' }) }),
		).rejects.toThrow('Parameter "Image URL" is required.');
		expect(recorded).toEqual([]);
	});

	test.each(LISTED)('%s: an image URL that is not http(s)', async (resource) => {
		const { error } = await refused(
			create(resource, { imageUrl: 'ftp://photos.example.com/a.jpg' }),
		);

		expect(error?.message).toBe(
			'Image URL must be an absolute http(s) URL (got "ftp://photos.example.com/a.jpg") [item 0]',
		);
	});

	test.each([
		['exteriorRenovator', 'referenceUrl', 'Reference Image URL'],
		['homeDecor', 'referenceUrl', 'Reference Image URL'],
		['interiorRemodel', 'colorImgUrl', 'Colour Image URL'],
	])('%s: an optional %s that is not http(s)', async (resource, field, label) => {
		const { error } = await refused(create(resource, { [field]: 'photos.example.com/ref.jpg' }));

		expect(error?.message).toBe(
			`${label} must be an absolute http(s) URL (got "photos.example.com/ref.jpg") [item 0]`,
		);
	});

	test('virtualStaging: a room type outside its list, from an expression', async () => {
		const { error } = await refused(create('virtualStaging', { indoorTypeId: '={{ "Kitchen" }}' }));

		expect(error?.message).toBe(
			`Room Type must be one of ${ROOM}Bed Room, ${ROOM}Dining Room, ${ROOM}Home Office, ${ROOM}Living Room (got "Kitchen") [item 0]`,
		);
		expect(error?.description).toMatch(/an expression must produce one of them exactly/);
	});

	test.each([
		['landscaping', 'base', 'Flash, Base, Pro'],
		['magicEditor', 'Ultra', 'Flash, Base, Pro'],
		['homeDecor', 'Flash', 'Base, Pro'],
		['planVisualizer', 'pro', 'Base, Pro'],
	])('%s: a model type outside its price table (%s)', async (resource, modelType, listed) => {
		const { error } = await refused(create(resource, { modelType: `={{ "${modelType}" }}` }));

		expect(error?.message).toBe(
			`Model Type must be one of ${listed} (got "${modelType}") [item 0]`,
		);
	});

	test('magicEditor: the Base model without a prompt', async () => {
		const { error } = await refused(create('magicEditor', { modelType: 'Base', prompt: ' ' }));

		expect(error?.message).toBe('Prompt is required with the Base model [item 0]');
		expect(error?.description).toBe('Write what to change, or choose Flash or Pro.');
	});

	test.each([
		['landscaping', '{"modelType": "Pro"}', 'Extra Body Fields (JSON)', 'modelType'],
		[
			'virtualStaging',
			'{"imageUrl": "https://x.example.com/b.jpg"}',
			'Extra Body Fields (JSON)',
			'imageUrl',
		],
		['interiorRemodel', '{"colorString": "red"}', 'Extra Body Fields (JSON)', 'colorString'],
		['magicEditor', '{"prompt": "again"}', 'Extra Body Fields (JSON)', 'prompt'],
	])('%s: extraBody %s sets a field the node has', async (resource, extraBody, label, key) => {
		const { error } = await refused(create(resource, { prompt: 'Hello', extraBody }));

		expect(error?.message).toBe(
			`${label} sets "${key}", which the node has as a field of its own [item 0]`,
		);
		expect(error?.description).toMatch(/Use that field instead/);
	});

	test.each([
		['not JSON', '{"seed": 7', /^Extra Body Fields \(JSON\) is not valid JSON \(.+\) \[item 0\]$/],
		[
			'a list',
			'[1, 2]',
			/^Extra Body Fields \(JSON\) must be a JSON object, such as \{"field": "value"\} \[item 0\]$/,
		],
	])('an extraBody that is %s', async (_case, extraBody, message) => {
		const { error } = await refused(create('exteriorRenovator', { extraBody }));

		expect(error?.message).toMatch(message);
	});

	test.each([
		['with a slash', 'photoEnhancer/../objectRemover', 'photoEnhancer/../objectRemover'],
		['with a slash at the end', 'landscaping/', 'landscaping/'],
		['empty (from an expression)', '={{ "" }}', ''],
		['blank', '   ', '   '],
		['starting with a digit', '3dModel', '3dModel'],
	])('custom: an API name %s', async (_case, apiName, shown) => {
		const { error } = await refused({
			resource: 'custom',
			operation: 'create',
			apiName,
			extraBody: `{"imageUrl": "${PHOTO}"}`,
		});

		expect(error?.message).toBe(
			`API Name must be the API's name as it appears in its path, letters and digits only (got ${JSON.stringify(shown)}) [item 0]`,
		);
	});

	test('custom: a body that is not JSON is named by its own label', async () => {
		const { error } = await refused({
			resource: 'custom',
			operation: 'create',
			apiName: UNLISTED,
			extraBody: '{"imageUrl": ',
		});

		expect(error?.message).toMatch(/^Body \(JSON\) is not valid JSON \(.+\) \[item 0\]$/);
	});

	test('custom: Get Result with a bad API name sends nothing either', async () => {
		const { error } = await refused({
			resource: 'custom',
			operation: 'getResult',
			apiName: 'a/b',
			taskId: '7',
		});

		expect(error?.message).toMatch(/^API Name must be the API's name/);
	});
});

describe('what a task costs, by API and model type', () => {
	test.each([
		// resource, model type sent ('' = the service default), credits
		['landscaping', '', 3],
		['landscaping', 'Flash', 1],
		['landscaping', 'Base', 3],
		['landscaping', 'Pro', 10],
		['magicEditor', '', 1],
		['magicEditor', 'Flash', 1],
		['magicEditor', 'Base', 3],
		['magicEditor', 'Pro', 10],
		['homeDecor', '', 3],
		['homeDecor', 'Base', 3],
		['homeDecor', 'Pro', 10],
		['planVisualizer', '', 3],
		['planVisualizer', 'Base', 3],
		['planVisualizer', 'Pro', 10],
		['virtualStaging', undefined, 1],
		['exteriorRenovator', undefined, 1],
		['interiorRemodel', undefined, 1],
		['changeFurniture', undefined, 1],
	])('%s with model type %p costs %i', async (resource, modelType, credits) => {
		answerTask(resource, '51');

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: create(resource, {
				prompt: 'Hello',
				...(modelType === undefined ? {} : { modelType }),
			}),
		});

		expect(error).toBeUndefined();
		expect(recorded[0].body).toEqual({
			imageUrl: PHOTO,
			prompt: 'Hello',
			...(modelType ? { modelType } : {}),
		});
		expect(items[0].json).toEqual({
			id: '51',
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			input: {},
			output: { resultUrl: `${CDN}/r/51.png`, width: 1600, height: 1200 },
			creditsCharged: credits,
		});
	});

	test('without waiting, the new task already says what it cost', async () => {
		answerCreate('landscaping', BIG_ID);

		const { items } = await runNode({
			node: 'idealHouse',
			parameters: create('landscaping', { modelType: 'Flash', waitForCompletion: false }),
		});

		expect(items).toEqual([
			{
				json: { id: BIG_ID, status: 'Unprocessed', creditsCharged: 1 },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('a model type sent inside a custom body of a listed API sets its price; an unknown API has none', async () => {
		answerCreate('homeDecor', '52');
		answerCreate('landscaping', '53');
		answerCreate(UNLISTED, '54');
		const custom = (apiName: string, body: object) => ({
			resource: 'custom',
			operation: 'create',
			apiName,
			extraBody: JSON.stringify(body),
			waitForCompletion: false,
		});

		const decor = await runNode({
			node: 'idealHouse',
			parameters: custom('homeDecor', { imageUrl: PHOTO, modelType: 'Pro' }),
		});
		const garden = await runNode({
			node: 'idealHouse',
			parameters: custom('landscaping', { imageUrl: PHOTO }),
		});
		const other = await runNode({
			node: 'idealHouse',
			parameters: custom(UNLISTED, { imageUrl: PHOTO }),
		});

		expect(recorded.map(({ path, body }) => ({ path, body }))).toEqual([
			{ path: paths('homeDecor').create, body: { imageUrl: PHOTO, modelType: 'Pro' } },
			{ path: paths('landscaping').create, body: { imageUrl: PHOTO } },
			{ path: paths(UNLISTED).create, body: { imageUrl: PHOTO } },
		]);
		expect(decor.items[0].json).toEqual({ id: '52', status: 'Unprocessed', creditsCharged: 10 });
		expect(garden.items[0].json).toEqual({ id: '53', status: 'Unprocessed', creditsCharged: 3 });
		expect(other.items[0].json).toEqual({ id: '54', status: 'Unprocessed', creditsCharged: null });
	});

	test.each([
		[{ modelType: 'Flash' }, 1],
		[{ modelType: 'Pro' }, 10],
		// The stored input need not repeat the model type: then the price is not known.
		[{}, null],
		[{ modelType: 'constructor' }, null],
	])('Get Result prices a landscaping task by its stored input %j', async (input, credits) => {
		api()
			.get(paths('landscaping').result)
			.query({ taskId: '55' })
			.reply(200, taskResponse('55', { input: { imageUrl: PHOTO, ...input } }));

		const { items } = await runNode({
			node: 'idealHouse',
			parameters: { resource: 'landscaping', operation: 'getResult', taskId: '55' },
		});

		expect(items[0].json.creditsCharged).toBe(credits);
	});

	test.each([
		[
			'landscaping',
			{ modelType: 'Pro' },
			'Landscaping',
			'Its 10 credits were refunded automatically',
		],
		['magicEditor', {}, 'Magic Editor', 'Its 1 credit was refunded automatically'],
		['planVisualizer', {}, 'Plan Visualizer', 'Its 3 credits were refunded automatically'],
		['virtualStaging', {}, 'Virtual Staging', 'Its 1 credit was refunded automatically'],
	])('a Failed %s task cost nothing: %j', async (resource, parameters, label, note) => {
		answerTask(resource, '56', { status: 'Failed' });

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: create(resource, parameters),
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: {
					error: `Ideal House ${label} task 56 failed. ${note}`,
					details: {
						id: '56',
						creditsCharged: 0,
						description: expect.stringContaining('could not process this task'),
					},
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('a Failed task of an API called by name: credits, if any, refunded', async () => {
		answerTask(UNLISTED, '57', { status: 'Failed' });

		const { error } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'custom',
				operation: 'create',
				apiName: UNLISTED,
				extraBody: `{"imageUrl": "${PHOTO}"}`,
			},
		});

		expect(error?.message).toBe(
			'Ideal House imageToVideo task 57 failed. Its credits, if any, were refunded automatically',
		);
	});
});

describe('every file of a result list', () => {
	const files = [
		gradientPng(4, 3, [200, 10, 10], [10, 10, 200]),
		gradientPng(3, 4, [10, 200, 10], [200, 200, 10]),
		gradientPng(5, 2, [10, 10, 10], [250, 250, 250]),
	];
	const urls = files.map((_file, index) => `${CDN}/results/61-${index + 1}.png`);
	const output = { resultUrl: urls[0], width: 1920, height: 1080, resultList: urls };

	function serveFiles(): nock.Scope {
		const cdn = nock(CDN);
		files.forEach((bytes, index) => cdn.get(`/results/61-${index + 1}.png`).reply(200, bytes));
		return cdn;
	}

	test('three images of a house plan become data, data_1 and data_2, the JSON keeping the list', async () => {
		answerTask('housePlan', '61', { output });
		const cdn = serveFiles();

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'custom',
				operation: 'create',
				apiName: 'housePlan',
				extraBody: '{"stories": "2", "style": "Barndominium"}',
				options: { downloadResult: true },
			},
		});

		expect(error).toBeUndefined();
		expect(recorded[0].body).toEqual({ stories: '2', style: 'Barndominium' });
		expect(cdn.isDone()).toBe(true);
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			id: '61',
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			input: {},
			output,
			creditsCharged: null,
		});
		const binary = items[0].binary!;
		expect(Object.keys(binary)).toEqual(['data', 'data_1', 'data_2']);
		['data', 'data_1', 'data_2'].forEach((property, index) => {
			expect(binary[property]).toMatchObject({
				mimeType: 'image/png',
				fileExtension: 'png',
				fileName: `61-${index + 1}.png`,
			});
			expect(Buffer.from(binary[property].data, 'base64').equals(files[index])).toBe(true);
		});
	});

	test('in the field the user named, and from Get Result of a listed API too', async () => {
		api()
			.get(paths('planVisualizer').result)
			.query({ taskId: '61' })
			.reply(200, taskResponse('61', { output, input: { imageUrl: PHOTO, modelType: 'Pro' } }));
		serveFiles();

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'planVisualizer',
				operation: 'getResult',
				taskId: '61',
				options: { downloadResult: true, binaryPropertyName: 'plan' },
			},
		});

		expect(error).toBeUndefined();
		expect(items[0].json.creditsCharged).toBe(10);
		expect(Object.keys(items[0].binary!)).toEqual(['plan', 'plan_1', 'plan_2']);
		expect(
			['plan', 'plan_1', 'plan_2'].map((key) =>
				Buffer.from(items[0].binary![key].data, 'base64').equals(
					files[['plan', 'plan_1', 'plan_2'].indexOf(key)],
				),
			),
		).toEqual([true, true, true]);
	});

	test('a list with no resultUrl beside it (the older House Plan page): every file still comes', async () => {
		const listOnly = { resultList: urls, width: 1920, height: 1080 };
		answerTask(UNLISTED, '63', { output: listOnly });
		serveFiles();

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'custom',
				operation: 'create',
				apiName: UNLISTED,
				extraBody: '{"stories": "1"}',
				options: { downloadResult: true },
			},
		});

		expect(error).toBeUndefined();
		expect(items[0].json.output).toEqual(listOnly);
		expect(Object.keys(items[0].binary!)).toEqual(['data', 'data_1', 'data_2']);
		expect(
			['data', 'data_1', 'data_2'].map((key, index) =>
				Buffer.from(items[0].binary![key].data, 'base64').equals(files[index]),
			),
		).toEqual([true, true, true]);
	});

	test('a list holding only the resultUrl (the newer House Plan page): one file, downloaded once', async () => {
		const single = { resultUrl: urls[0], width: 1920, height: 1080, resultList: [urls[0]] };
		answerTask(UNLISTED, '64', { output: single });
		const cdn = nock(CDN).get('/results/61-1.png').once().reply(200, files[0]);

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'custom',
				operation: 'create',
				apiName: UNLISTED,
				extraBody: '{"stories": "1"}',
				options: { downloadResult: true },
			},
		});

		expect(error).toBeUndefined();
		expect(cdn.isDone()).toBe(true);
		expect(items[0].json.output).toEqual(single);
		expect(Object.keys(items[0].binary!)).toEqual(['data']);
		expect(Buffer.from(items[0].binary!.data.data, 'base64').equals(files[0])).toBe(true);
	});
});

describe('Continue on Fail', () => {
	test('each item keeps its link; an item whose task existed names it and what it cost', async () => {
		const scope = api();
		scope.post(paths('landscaping').create).reply(200, created('71'));
		scope.post(paths('landscaping').create).reply(200, envelope('null', 9051, 'COINS_NOT_ENOUGH'));
		scope.post(paths('landscaping').create).reply(200, created('73'));
		scope
			.get(paths('landscaping').result)
			.query({ taskId: '71' })
			.reply(200, taskResponse('71'))
			.get(paths('landscaping').result)
			.query({ taskId: '73' })
			.times(5)
			.reply(200, taskResponse('73', { status: 'Processing', percentage: 60 }));

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: create('landscaping', {
				imageUrl: '={{ $json.url }}',
				modelType: '={{ $json.model }}',
				options: { timeout: 12, pollInterval: 3 },
			}),
			items: [
				{ json: { url: 'https://p.example.com/1.jpg', model: 'Pro' } },
				{ json: { url: 'not a url', model: 'Pro' } },
				{ json: { url: 'https://p.example.com/3.jpg', model: '' } },
				{ json: { url: 'https://p.example.com/4.jpg', model: 'Flash' } },
			],
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		// The bad URL was never sent: three creates, in item order.
		expect(recorded.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
			{ imageUrl: 'https://p.example.com/1.jpg', modelType: 'Pro' },
			{ imageUrl: 'https://p.example.com/3.jpg' },
			{ imageUrl: 'https://p.example.com/4.jpg', modelType: 'Flash' },
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json).toMatchObject({ id: '71', status: 'Success', creditsCharged: 10 });
		expect(items[1].json).toEqual({
			error: 'Image URL must be an absolute http(s) URL (got "not a url") [item 1]',
			details: { description: expect.stringContaining('full public address') },
		});
		expect(items[2].json).toEqual({
			error:
				'Ideal House error 9051 (COINS_NOT_ENOUGH) – The account does not have enough credits: COINS_NOT_ENOUGH',
			details: {
				description:
					'Top up credits in your Ideal House account, then run the node again. Nothing was charged for this item.',
			},
		});
		expect(items[3].json).toEqual({
			error: 'Task 73 did not finish within 12 s (last status Processing, 60%)',
			details: {
				id: '73',
				creditsCharged: 1,
				description: expect.stringContaining('Get Result operation and task ID 73'),
			},
		});
	});
});

describe('the error output', () => {
	test('with On Error = error output, a refused item and a Failed task go there, linked; the rest stays', async () => {
		const scope = api();
		scope.post(paths('planVisualizer').create).reply(200, created('74'));
		scope.post(paths('planVisualizer').create).reply(200, created('75'));
		scope
			.get(paths('planVisualizer').result)
			.query({ taskId: '74' })
			.reply(200, taskResponse('74'))
			.get(paths('planVisualizer').result)
			.query({ taskId: '75' })
			.reply(200, taskResponse('75', { status: 'Failed' }));

		const { items, errorItems, error } = await runNode({
			node: 'idealHouse',
			parameters: create('planVisualizer', { modelType: '={{ $json.model }}' }),
			items: [{ json: { model: 'Pro' } }, { json: { model: 'Ultra' } }, { json: { model: '' } }],
			onError: 'continueErrorOutput',
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.id, item.json.creditsCharged, item.pairedItem])).toEqual([
			['74', 10, { item: 0 }],
		]);
		expect(errorItems.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(errorItems[0].json).toEqual({
			error: 'Model Type must be one of Base, Pro (got "Ultra") [item 1]',
			details: { description: expect.any(String) },
		});
		expect(errorItems[1].json).toEqual({
			error:
				'Ideal House Plan Visualizer task 75 failed. Its 3 credits were refunded automatically',
			details: { id: '75', creditsCharged: 0, description: expect.any(String) },
		});
	});
});

describe('Stop', () => {
	test('while waiting for a task, the error names the task', async () => {
		api()
			.post(paths('homeDecor').create)
			.reply(200, created(BIG_ID))
			.get(paths('homeDecor').result)
			.query({ taskId: BIG_ID })
			.times(1000)
			.reply(200, taskResponse(BIG_ID, { status: 'Processing', percentage: 30 }));

		// Stop is pressed as the wait after the second status check begins.
		const { error, items } = await runStoppedInWait(
			{ node: 'idealHouse', parameters: create('homeDecor', { modelType: 'Pro' }) },
			2,
		);

		expect(items).toEqual([]);
		expect(error?.message).toBe(`Execution stopped while waiting for task ${BIG_ID}`);
		// One create, then only status checks of that task, and none once stopped.
		expect(recorded[0]).toMatchObject({ method: 'POST', path: paths('homeDecor').create });
		expect(recorded[0].body).toEqual({ imageUrl: PHOTO, modelType: 'Pro' });
		const polls = recorded.slice(1);
		expect(polls.length).toBeGreaterThan(0);
		expect(polls.every((r) => r.method === 'GET' && r.query.taskId === BIG_ID)).toBe(true);
		await quietAfterStop(() => recorded.length);
	});

	test('with Continue on Fail, the stopped item names its task and its cost, and the run is cancelled', async () => {
		api()
			.post(paths('landscaping').create)
			.reply(200, created('91'))
			.get(paths('landscaping').result)
			.query({ taskId: '91' })
			.times(1000)
			.reply(200, taskResponse('91', { status: 'Unprocessed', waitNumber: 3 }));

		const { error, items, run } = await runStoppedInWait(
			{
				node: 'idealHouse',
				parameters: create('landscaping', { modelType: 'Flash' }),
				onError: 'continueRegularOutput',
			},
			2,
		);

		expect(run.status).toBe('canceled');
		expect(error?.message).toBe('The execution was cancelled manually');
		expect(items).toEqual([
			{
				json: {
					error: 'Execution stopped while waiting for task 91',
					details: {
						id: '91',
						creditsCharged: 1,
						description:
							'The task keeps running on the service. Fetch it later with the Get Result operation and task ID 91.',
					},
				},
				pairedItem: { item: 0 },
			},
		]);
		await quietAfterStop(() => recorded.length);
	});
});

describe('each API: as a tool, with Continue on Fail, and on Stop', () => {
	const tool = asTool(new IdealHouse());
	const EACH: Array<[string, Record<string, unknown>, string, string, number | null]> = [
		// resource, parameters, API in the path, label, credits
		['virtualStaging', {}, 'virtualStaging', 'Virtual Staging', 1],
		['exteriorRenovator', {}, 'exteriorRenovator', 'Exterior Renovator', 1],
		['landscaping', { modelType: 'Pro' }, 'landscaping', 'Landscaping', 10],
		['interiorRemodel', {}, 'interiorRemodel', 'Interior Remodel', 1],
		['changeFurniture', {}, 'changeFurniture', 'Change Furniture', 1],
		['homeDecor', {}, 'homeDecor', 'Home Decor', 3],
		['magicEditor', { modelType: 'Base', prompt: 'Tidy up' }, 'magicEditor', 'Magic Editor', 3],
		['planVisualizer', { modelType: 'Pro' }, 'planVisualizer', 'Plan Visualizer', 10],
		[
			'custom',
			{ imageUrl: '', apiName: UNLISTED, extraBody: `{"imageUrl": "${PHOTO}"}` },
			UNLISTED,
			UNLISTED,
			null,
		],
	];
	const refundNote = (credits: number | null) =>
		credits === null
			? 'Its credits, if any, were refunded automatically'
			: `Its ${credits} credit${credits === 1 ? ' was' : 's were'} refunded automatically`;

	test.each(EACH)(
		'%s as a tool: compact JSON',
		async (resource, parameters, name, _label, credits) => {
			answerTask(name, '101');

			const { items, error } = await runNode({
				node: tool,
				parameters: create(resource, parameters),
			});

			expect(error).toBeUndefined();
			expectCreateThenPolls(name, '101');
			expect(items).toEqual([
				{
					json: {
						id: '101',
						status: 'Success',
						resultUrl: `${CDN}/r/101.png`,
						width: 1600,
						height: 1200,
						creditsCharged: credits,
					},
					pairedItem: { item: 0 },
				},
			]);
		},
	);

	test.each(EACH)(
		'%s with Continue on Fail: a Failed task and a refused item, each linked',
		async (resource, parameters, name, label, credits) => {
			answerTask(name, '102', { status: 'Failed' });

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: create(resource, {
					...parameters,
					...(resource === 'custom'
						? { apiName: `={{ $json.ok ? "${UNLISTED}" : "no/such" }}` }
						: { imageUrl: `={{ $json.ok ? "${PHOTO}" : "ftp://x.example.com/a.jpg" }}` }),
				}),
				items: [{ json: { ok: false } }, { json: { ok: true } }],
				onError: 'continueRegularOutput',
			});

			expect(error).toBeUndefined();
			expect(recorded.filter((r) => r.method === 'POST')).toHaveLength(1);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(items[0].json.error).toBe(
				resource === 'custom'
					? 'API Name must be the API\'s name as it appears in its path, letters and digits only (got "no/such") [item 0]'
					: 'Image URL must be an absolute http(s) URL (got "ftp://x.example.com/a.jpg") [item 0]',
			);
			expect(items[0].json.details).not.toHaveProperty('id');
			expect(items[1].json).toEqual({
				error: `Ideal House ${label} task 102 failed. ${refundNote(credits)}`,
				details: { id: '102', creditsCharged: 0, description: expect.any(String) },
			});
		},
	);

	test.each(EACH)('%s on Stop: the error names the task', async (resource, parameters, name) => {
		api()
			.post(paths(name).create)
			.reply(200, created('103'))
			.get(paths(name).result)
			.query({ taskId: '103' })
			.times(1000)
			.reply(200, taskResponse('103', { status: 'Processing', percentage: 10 }));

		const { items, error } = await runStoppedInWait(
			{ node: 'idealHouse', parameters: create(resource, parameters) },
			2,
		);

		expect(items).toEqual([]);
		expect(error?.message).toBe('Execution stopped while waiting for task 103');
		await quietAfterStop(() => recorded.length);
	});
});

describe('adding an API is data', () => {
	// A test-only API: a row, and a description built from the node's own building blocks.
	const roomSketch: IdealHouseApi = {
		name: 'roomSketch',
		label: 'Room Sketch',
		price: { flat: 2 },
		results: 'image',
	};
	const fields: INodeProperties[] = updateDisplayOptions(
		{ show: { resource: ['roomSketch'], operation: ['create'] } },
		[
			{
				displayName: 'Image URL',
				name: 'imageUrl',
				type: 'string',
				required: true,
				default: '',
				description: 'Public URL of the room photo',
				routing: sentAs('imageUrl'),
			},
			{
				displayName: 'Prompt',
				name: 'prompt',
				type: 'string',
				default: '',
				description: 'How the sketch should look',
				routing: sentAs('prompt'),
			},
			{
				displayName: 'Line Style',
				name: 'lineStyle',
				type: 'options',
				default: '',
				description: 'The pen',
				options: [
					{ name: 'Service Default', value: '' },
					{ name: 'Pencil', value: 'pencil' },
					{ name: 'Ink', value: 'ink' },
				],
				routing: sentAs('lineStyle'),
			},
			{
				displayName: 'Detail',
				name: 'detail',
				type: 'number',
				default: 3,
				typeOptions: { minValue: 1, maxValue: 5, numberPrecision: 0 },
				description: 'How detailed',
				routing: sentAs('detail'),
			},
			{
				displayName: 'Paper Names or IDs',
				name: 'paperId',
				type: 'multiOptions',
				default: [],
				description: 'The paper',
				typeOptions: { loadOptionsMethod: styleList(roomSketch, 'paper') },
				routing: sentAs('paperId'),
			},
		],
	);
	const roomSketchNode: INodeType = {
		description: {
			...commonDescription,
			displayName: 'Room Sketch (test)',
			name: 'roomSketchTest',
			description: 'A test-only API',
			defaults: { name: 'Room Sketch' },
			properties: [
				authenticationField,
				{
					displayName: 'Resource',
					name: 'resource',
					type: 'options',
					noDataExpression: true,
					default: 'roomSketch',
					options: [{ name: 'Room Sketch', value: 'roomSketch' }],
				},
				operationField({
					api: roomSketch,
					create: {
						name: 'Create',
						value: 'create',
						action: 'Create a room sketch task',
						description: 'Create a task',
						routing: createTaskRouting({ api: roomSketch, bodyCheck: createBodyCheck(fields) }),
					},
					getResultAction: 'Get the result of a room sketch task',
					resource: 'roomSketch',
				}),
				...fields,
				extraBodyField,
				waitForCompletionField('create'),
				taskIdField,
				optionsField('create'),
			],
		},
		methods: { loadOptions: styleLoaders(fields) },
	};
	const sketch = (parameters: Record<string, unknown> = {}) => ({
		resource: 'roomSketch',
		operation: 'create',
		imageUrl: PHOTO,
		...parameters,
	});

	test('body, polling, price and result file, with no engine change', async () => {
		answerTask('roomSketch', BIG_ID, {
			output: { resultUrl: `${CDN}/r/sketch.png`, width: 1, height: 1 },
		});
		nock(CDN).get('/r/sketch.png').reply(200, TINY_PNG);

		const { items, error } = await runNode({
			node: roomSketchNode,
			parameters: sketch({
				prompt: 'Loose lines',
				lineStyle: 'ink',
				detail: 5,
				paperId: ['p1', 'p2'],
				extraBody: '{"dpi": 300}',
				options: { downloadResult: true },
			}),
		});

		expect(error).toBeUndefined();
		expectCreateThenPolls('roomSketch', BIG_ID);
		expect(recorded[0].body).toEqual({
			imageUrl: PHOTO,
			prompt: 'Loose lines',
			lineStyle: 'ink',
			detail: 5,
			paperId: 'p1,p2',
			dpi: 300,
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			id: BIG_ID,
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			input: {},
			output: { resultUrl: `${CDN}/r/sketch.png`, width: 1, height: 1 },
			creditsCharged: 2,
		});
		expect(Buffer.from(items[0].binary!.data.data, 'base64').equals(TINY_PNG)).toBe(true);
		expect(items[0].binary!.data.mimeType).toBe('image/png');
	});

	test('its option list loads from the Style Config endpoint under its name', async () => {
		api()
			.get('/api/v1/style/roomSketch/getStyles')
			.reply(
				200,
				envelope(
					JSON.stringify({
						paper: [
							{ name: { en: 'Kraft', zh: '牛皮纸' }, id: 'p1' },
							{ name: { en: 'Vellum', zh: '硫酸纸' }, id: 'p2' },
						],
					}),
				),
			);

		const options = await loadOptions(
			'styles__roomSketch__paper',
			{ resource: 'roomSketch', operation: 'create' },
			TEST_CREDENTIALS,
			roomSketchNode,
		);

		expect(fields.find((f) => f.name === 'paperId')?.typeOptions?.loadOptionsMethod).toBe(
			'styles__roomSketch__paper',
		);
		expect(options).toEqual([
			{ name: 'Kraft', value: 'p1' },
			{ name: 'Vellum', value: 'p2' },
		]);
		expect(recorded.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /api/v1/style/roomSketch/getStyles',
		]);
	});

	test('its checks come from its fields: a number out of range and a value off its list are refused', async () => {
		const far = await runNode({ node: roomSketchNode, parameters: sketch({ detail: 9 }) });
		const off = await runNode({
			node: roomSketchNode,
			parameters: sketch({ lineStyle: '={{ "crayon" }}' }),
		});

		expect(recorded).toEqual([]);
		expect(far.error?.message).toBe('Detail must be a whole number from 1 to 5 (got 9) [item 0]');
		expect(off.error?.message).toBe(
			'Line Style must be one of pencil, ink (got "crayon") [item 0]',
		);
	});

	test('a Failed task: 0 credits and its refund note; Get Result on its own path', async () => {
		answerTask('roomSketch', '81', { status: 'Failed' });
		api()
			.get(paths('roomSketch').result)
			.query({ taskId: '82' })
			.reply(200, taskResponse('82', { status: 'Processing', percentage: 70 }));

		const failed = await runNode({
			node: roomSketchNode,
			parameters: sketch(),
			onError: 'continueRegularOutput',
		});
		const read = await runNode({
			node: roomSketchNode,
			parameters: { resource: 'roomSketch', operation: 'getResult', taskId: '82' },
		});

		expect(recorded[0].body).toEqual({ imageUrl: PHOTO, detail: 3 });
		expect(failed.items[0].json).toEqual({
			error: 'Ideal House Room Sketch task 81 failed. Its 2 credits were refunded automatically',
			details: { id: '81', creditsCharged: 0, description: expect.any(String) },
		});
		expect(read.items[0].json).toMatchObject({ id: '82', status: 'Processing', creditsCharged: 2 });
		expect(recorded.at(-1)).toMatchObject({
			path: paths('roomSketch').result,
			query: { taskId: '82' },
		});
	});
});

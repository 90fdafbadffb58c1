/**
 * The Ideal House AI node in n8n's engine, with nock on the wire: for every API it offers, the
 * exact request it sends, the parameters the editor keeps when the resource changes, the inputs
 * it refuses before anything is sent or charged, and what a task of an API called by name costs.
 * What every listed API costs by model type is checked against the local service
 * (e2e/ideal-house.test.ts); Continue on Fail, Stop and the tool variant of every API are in
 * ideal-house-every-api.test.ts, an API added as data in ideal-house-new-api.test.ts, the option
 * lists in ideal-house-styles.test.ts.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { runNode } from './helpers/engine';
import { BIG_ID, api, created, recorded, taskResponse } from './helpers/api';
import {
	PHOTO,
	REFERENCE,
	ROOM,
	LISTED,
	UNLISTED,
	paths,
	create,
	answerTask,
	answerCreate,
	custom,
	expectCreateThenPolls,
} from './helpers/ideal-house';
import { eachTestOnAFreshWire } from './helpers/journey';

eachTestOnAFreshWire();

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
			parameters: custom(
				` ${UNLISTED} `,
				`{"imageUrl": "${PHOTO}", "prompt": "Swap the rug", "taskNo": 18392019384756285441}`,
			),
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
		expect(error?.message).toBe('\'Model Type\' must be one of Base, Pro (got "Flash") [item 0]');
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
		expect(error?.message).toBe("'Image URL' is required [item 0]");
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
			'\'Image URL\' must be an absolute http(s) URL (got "ftp://photos.example.com/a.jpg") [item 0]',
		);
	});

	test.each([
		['exteriorRenovator', 'referenceUrl', 'Reference Image URL'],
		['homeDecor', 'referenceUrl', 'Reference Image URL'],
		['interiorRemodel', 'colorImgUrl', 'Color Image URL'],
	])('%s: an optional %s that is not http(s)', async (resource, field, label) => {
		const { error } = await refused(create(resource, { [field]: 'photos.example.com/ref.jpg' }));

		expect(error?.message).toBe(
			`'${label}' must be an absolute http(s) URL (got "photos.example.com/ref.jpg") [item 0]`,
		);
	});

	test('virtualStaging: a room type outside its list, from an expression', async () => {
		const { error } = await refused(create('virtualStaging', { indoorTypeId: '={{ "Kitchen" }}' }));

		expect(error?.message).toBe(
			`'Room Type' must be one of ${ROOM}Bed Room, ${ROOM}Dining Room, ${ROOM}Home Office, ${ROOM}Living Room (got "Kitchen") [item 0]`,
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
			`'Model Type' must be one of ${listed} (got "${modelType}") [item 0]`,
		);
	});

	test('magicEditor: the Base model without a prompt', async () => {
		const { error } = await refused(create('magicEditor', { modelType: 'Base', prompt: ' ' }));

		expect(error?.message).toBe("'Prompt' is required with the Base model [item 0]");
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
			`'${label}' sets "${key}", which the node has as a field of its own [item 0]`,
		);
		expect(error?.description).toMatch(/Use that field instead/);
	});

	test.each([
		[
			'not JSON',
			'{"seed": 7',
			/^'Extra Body Fields \(JSON\)' is not valid JSON \(.+\) \[item 0\]$/,
		],
		[
			'a list',
			'[1, 2]',
			/^'Extra Body Fields \(JSON\)' must be a JSON object, such as \{"field": "value"\} \[item 0\]$/,
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
		const { error } = await refused(custom(apiName, `{"imageUrl": "${PHOTO}"}`));

		expect(error?.message).toBe(
			`'API Name' must be the API's name as it appears in its path, letters and digits only (got ${JSON.stringify(shown)}) [item 0]`,
		);
	});

	test('custom: a body that is not JSON is named by its own label', async () => {
		const { error } = await refused(custom(UNLISTED, '{"imageUrl": '));

		expect(error?.message).toMatch(/^'Body \(JSON\)' is not valid JSON \(.+\) \[item 0\]$/);
	});

	test('custom: Get Result with a bad API name sends nothing either', async () => {
		const { error } = await refused({
			resource: 'custom',
			operation: 'getResult',
			apiName: 'a/b',
			taskId: '7',
		});

		expect(error?.message).toMatch(/^'API Name' must be the API's name/);
	});
});

describe('what a task costs, by API and model type', () => {
	test('a model type sent inside a custom body of a listed API sets its price; an unknown API has none', async () => {
		answerCreate('homeDecor', '52');
		answerCreate('landscaping', '53');
		answerCreate(UNLISTED, '54');
		const byName = (apiName: string, body: object) =>
			custom(apiName, JSON.stringify(body), { waitForCompletion: false });

		const decor = await runNode({
			node: 'idealHouse',
			parameters: byName('homeDecor', { imageUrl: PHOTO, modelType: 'Pro' }),
		});
		const garden = await runNode({
			node: 'idealHouse',
			parameters: byName('landscaping', { imageUrl: PHOTO }),
		});
		const other = await runNode({
			node: 'idealHouse',
			parameters: byName(UNLISTED, { imageUrl: PHOTO }),
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
		['magicEditor', {}, 'Magic Editor', 'its 1 credit was refunded automatically'],
		['planVisualizer', {}, 'Plan Visualizer', 'its 3 credits were refunded automatically'],
		['virtualStaging', {}, 'Virtual Staging', 'its 1 credit was refunded automatically'],
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
					error: `Ideal House ${label} task 56 ended with status "Failed": ${note} [item 0]`,
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
			parameters: custom(UNLISTED, `{"imageUrl": "${PHOTO}"}`),
		});

		expect(error?.message).toBe(
			'Ideal House imageToVideo task 57 ended with status "Failed": its credits, if any, were refunded automatically [item 0]',
		);
	});
});

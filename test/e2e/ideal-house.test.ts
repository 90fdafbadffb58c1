/**
 * The Ideal House AI node end to end against the local service: for every API it offers, the
 * task the service records is the one the node emits (same id, body, size, price), the account
 * pays what the node says, option lists load from the service's Style Config endpoint in both of
 * its shapes and the ids picked there are taken by the service, a House Plan's three images all
 * come back, and Continue on Fail holds on a real service. (Stop and the tool variant of every
 * API, whose exact requests only nock shows, are in ideal-house-every-api.test.ts.)
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodePropertyOptions,
} from 'n8n-workflow';

import { IdealHouse } from '../../nodes/IdealHouse/IdealHouse.node';
import type { RunningService } from '../../service/server.ts';
import { styleConfigData } from '../../service/style-config.ts';
import { runNode, type RunOptions } from '../helpers/engine';
import {
	credentialsFor,
	eachTestOnTheLocalService,
	expectExactId,
	pngSize,
	sampleUrl,
	tasksOf,
} from './helpers';
import { loadOptions as loadEditorOptions } from '../helpers/editor';

const ROOM = 'Interior Design_Interior Scene_';
const START_BALANCE = 1000;

let service: RunningService;
eachTestOnTheLocalService({}, (started) => (service = started));

const sample = (name: string) => sampleUrl(service, name);

/** The values given, a sample's name written as "sample:<name>" replaced by its URL. */
const withSamples = (values: IDataObject): IDataObject =>
	Object.fromEntries(
		Object.entries(values).map(([key, value]) => [
			key,
			typeof value === 'string' && value.startsWith('sample:')
				? sample(value.slice('sample:'.length))
				: value,
		]),
	);

/** A create of `resource` on the local service, its result downloaded. */
function createOn(
	resource: string,
	parameters: IDataObject,
	more: Partial<RunOptions> = {},
): RunOptions {
	return {
		node: 'idealHouse',
		credentials: credentialsFor(service),
		parameters: {
			resource,
			operation: 'create',
			options: { downloadResult: true },
			...parameters,
		},
		...more,
	};
}

async function run(resource: string, parameters: IDataObject, more: Partial<RunOptions> = {}) {
	return await runNode(createOn(resource, parameters, more));
}

/** The editor's option list `method` for a create of `resource`, loaded from the local service. */
async function loadOptions(
	method: string,
	resource: string,
	credentials: ICredentialDataDecryptedObject = credentialsFor(service),
): Promise<INodePropertyOptions[]> {
	return await loadEditorOptions(method, { resource, operation: 'create' }, credentials);
}

/** The ids of a group, as the node loads them for the editor. */
async function ids(styleKey: string, group: string, resource: string): Promise<string[]> {
	const options = await loadOptions(`styles__${styleKey}__${group}`, resource);
	return options.map((option) => String(option.value)).filter((id) => id !== '');
}

/** The one task the service holds, checked against the item the node emitted for it. */
function expectSameTask(json: IDataObject, body: IDataObject, kind: string, credits: number) {
	const tasks = tasksOf(service);
	expect(tasks).toHaveLength(1);
	const [task] = tasks;
	const id = expectExactId(json);
	expect(task).toMatchObject({ id, kind, status: 'Success', cost: credits, refunded: false });
	expect(json).toEqual({
		id,
		status: 'Success',
		waitNumber: 0,
		percentage: 100,
		input: body,
		output: {
			resultUrl: `${service.baseUrl}/results/${id}.png`,
			width: task.output!.width,
			height: task.output!.height,
		},
		creditsCharged: credits,
	});
	expect(service.balance(service.apiKey)).toBe(START_BALANCE - credits);
	expect(service.stats().credits).toMatchObject({ charged: credits, refunded: 0 });
	return task;
}

describe('every API: the task the service records is the item the node emits', () => {
	test('virtualStaging', async () => {
		const body = {
			imageUrl: sample('living-room.png'),
			prompt: 'Warm oak furniture',
			indoorTypeId: `${ROOM}Bed Room`,
			indoorStyleId: 'nordic-07',
		};

		const { items, error } = await run('virtualStaging', { ...body, extraBody: '{}' });

		expect(error).toBeUndefined();
		const task = expectSameTask(items[0].json, body, 'virtualStaging', 1);
		expect(task.output).toEqual({ width: 1600, height: 1200 });
		expect(pngSize(Buffer.from(items[0].binary!.data.data, 'base64'))).toEqual({
			width: 1600,
			height: 1200,
		});
	});

	test('virtualStaging: each of the four room types the node lists is one the service takes', async () => {
		const rooms = ['Bed Room', 'Dining Room', 'Home Office', 'Living Room'].map(
			(room) => `${ROOM}${room}`,
		);

		const { items, error } = await run(
			'virtualStaging',
			{ imageUrl: sample('tiny.png'), indoorTypeId: '={{ $json.room }}', options: {} },
			{ items: rooms.map((room) => ({ json: { room } })) },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => (item.json.input as IDataObject).indoorTypeId)).toEqual(rooms);
		expect(items.map((item) => item.json.status)).toEqual(Array(4).fill('Success'));
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		const tasks = tasksOf(service);
		expect(tasks.map((task) => task.id).sort()).toEqual(items.map((item) => item.json.id).sort());
		expect(tasks.every((task) => task.kind === 'virtualStaging' && task.cost === 1)).toBe(true);
		expect(service.balance(service.apiKey)).toBe(START_BALANCE - 4);
	});

	test('exteriorRenovator, with a field the pages do not show in extraBody', async () => {
		const body = {
			imageUrl: sample('exterior.png'),
			prompt: 'Red brick facade',
			referenceUrl: sample('kitchen.png'),
			buildingStyleId: 'colonial',
		};

		const { items, error } = await run('exteriorRenovator', {
			...body,
			extraBody: '{"strength": 0.6}',
		});

		expect(error).toBeUndefined();
		const task = expectSameTask(items[0].json, { ...body, strength: 0.6 }, 'exteriorRenovator', 1);
		expect(pngSize(Buffer.from(items[0].binary!.data.data, 'base64'))).toEqual(task.output);
	});

	/** A field filled from a loaded option list: its group, and the index (or indices) picked. */
	type Pick = [group: string, at: number | number[]];
	test.each<[string, string, IDataObject, Record<string, Pick>, number]>([
		// resource, style key, fields (samples as "sample:…"), fields picked from the lists, credits
		[
			'landscaping',
			'landscaping',
			{ imageUrl: 'sample:exterior.png', prompt: 'Low water', modelType: 'Flash' },
			{ sceneId: ['gardenStyle', 2], sceneElementId: ['elements', [0, 3, 7]] },
			1,
		],
		[
			'interiorRemodel',
			'interoir_remodel',
			{
				imageUrl: 'sample:kitchen.png',
				prompt: 'Open plan',
				colorString: 'sage green and white',
				colorImgUrl: 'sample:living-room.png',
			},
			{
				indoorTypeId: ['roomType', 2],
				indoorStyleId: ['style', 4],
				indoorElemId: ['elements', [0, 1, 2]],
			},
			1,
		],
		[
			'changeFurniture',
			'change_furniture',
			{ imageUrl: 'sample:living-room.png', prompt: 'Leather and walnut' },
			{
				indoorTypeId: ['roomType', 0],
				indoorStyleId: ['style', 1],
				indoorElemId: ['elements', [0, 1]],
			},
			1,
		],
		// At the service default model (Base): the empty model type is not sent.
		[
			'homeDecor',
			'home_decor_ideas',
			{
				imageUrl: 'sample:living-room.png',
				referenceUrl: 'sample:kitchen.png',
				prompt: 'Festive',
				modelType: '',
			},
			{ spaceStyleId: ['spaceType', 0], homeDecorStyleId: ['decorStyle', 6] },
			3,
		],
		[
			'magicEditor',
			'',
			{ imageUrl: 'sample:kitchen.png', prompt: 'Remove the fridge magnets', modelType: 'Pro' },
			{},
			10,
		],
		[
			'planVisualizer',
			'ai_plan_visualizer',
			{ imageUrl: 'sample:living-room.png', prompt: 'Bright and airy', modelType: 'Base' },
			{ planStyleId: ['planType', 1], styleId: ['style', 3], viewId: ['view', 2] },
			3,
		],
	])(
		'%s, with option ids loaded from the service (several comma-joined)',
		async (resource, styleKey, fields, picks, credits) => {
			const picked: IDataObject = {};
			const stored: IDataObject = {};
			for (const [field, [group, at]] of Object.entries(picks)) {
				const loaded = await ids(styleKey, group, resource);
				const chosen = Array.isArray(at) ? at.map((index) => loaded[index]) : loaded[at];
				picked[field] = chosen;
				stored[field] = Array.isArray(chosen) ? chosen.join(',') : chosen;
			}
			const given = withSamples(fields);

			const { items, error } = await run(resource, { ...given, ...picked });

			expect(error).toBeUndefined();
			const sent = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== ''));
			expectSameTask(items[0].json, { ...sent, ...stored }, resource, credits);
		},
	);

	test('custom, naming a listed API: the body as given, the known price', async () => {
		const body = { imageUrl: sample('exterior.png'), prompt: 'Zen' };

		const { items, error } = await run('custom', {
			apiName: 'landscaping',
			extraBody: JSON.stringify(body),
		});

		expect(error).toBeUndefined();
		expectSameTask(items[0].json, body, 'landscaping', 3);
	});

	test('custom, naming an API the service does not serve: an error, nothing created or charged', async () => {
		const { items, error } = await run(
			'custom',
			{ apiName: 'imageToVideo', extraBody: `{"imageUrl": "${sample('exterior.png')}"}` },
			{ onError: 'continueRegularOutput' },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toBe(
			'Ideal House answered code 1001, the request was not carried out: "no such endpoint: POST /api/v1/imageToVideo/generate" [item 0]',
		);
		expect(items[0].json.details).not.toHaveProperty('id');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(service.stats().requests.byEndpoint).toEqual({
			unknown: { total: 1, byStatus: { '404': 1 } },
		});
		expect(tasksOf(service)).toEqual([]);
		expect(service.balance(service.apiKey)).toBe(START_BALANCE);
	});
});

describe('the plan, 3D, try-on and smart replace APIs: the service record is the item', () => {
	const PRODUCT = '[{"imageUrl": "https://shop.example.com/chair.png", "productId": "p-1"}]';
	test.each([
		// resource, parameters (a sample's name after "sample:"), body the service stores, credits, result file
		[
			'floorPlan',
			{},
			{ bedrooms: 2, bathrooms: 1, kitchenType: 'open', modelType: 'Base' },
			10,
			'png',
		],
		[
			'floorPlan',
			{ bedrooms: 0, kitchenType: 'closed', extras: 'garage', modelType: 'Pro' },
			{ bedrooms: 0, bathrooms: 1, kitchenType: 'closed', extras: 'garage', modelType: 'Pro' },
			20,
			'png',
		],
		['housePlan', { stories: '2' }, { stories: '2', modelType: 'Base' }, 10, 'png'],
		['ai3d', { prompt: 'A wing chair' }, { prompt: 'A wing chair' }, 20, 'glb'],
		[
			'ai3dRendering',
			{ imageUrl: 'sample:tiny.png', renderDegree: 5 },
			{ imageUrl: 'sample:tiny.png', renderDegree: 5 },
			1,
			'png',
		],
		[
			'ai3dRendering',
			{ imageUrl: 'sample:tiny.png', modelType: 'Pro', renderDegree: 5 },
			{ imageUrl: 'sample:tiny.png', modelType: 'Pro' },
			10,
			'png',
		],
		[
			'furnitureTryOn',
			{ imageUrl: 'sample:tiny.png', furnitureList: PRODUCT },
			{ imageUrl: 'sample:tiny.png', furnitureList: JSON.parse(PRODUCT), modelType: 'Base' },
			3,
			'png',
		],
		[
			'smartReplace',
			{ imageUrl: 'sample:tiny.png', prompt: 'A plant', extraBody: '{"maskUrl": "m"}' },
			{ imageUrl: 'sample:tiny.png', prompt: 'A plant', maskUrl: 'm' },
			1,
			'png',
		],
	] as Array<[string, IDataObject, IDataObject, number, string]>)(
		'%s %j',
		async (resource, parameters, stored, credits, extension) => {
			const { items, error } = await run(resource, withSamples(parameters));

			expect(error).toBeUndefined();
			const [task] = tasksOf(service);
			expect(tasksOf(service)).toHaveLength(1);
			expect(task).toMatchObject({ kind: resource, status: 'Success', cost: credits });
			const id = expectExactId(items[0].json);
			expect(id).toBe(task.id);
			expect(items[0].json).toMatchObject({
				status: 'Success',
				input: withSamples(stored),
				creditsCharged: credits,
			});
			expect((items[0].json.output as IDataObject).resultUrl).toBe(
				`${service.baseUrl}/results/${id}.${extension}`,
			);
			expect(items[0].binary?.data.fileName).toBe(`${id}.${extension}`);
			expect(service.balance(service.apiKey)).toBe(START_BALANCE - credits);
		},
	);
});

describe('what a task costs: the node says what the service charged', () => {
	test.each([
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
	])('%s with model type %p: %i credits', async (resource, modelType, credits) => {
		const parameters = {
			imageUrl: sample('tiny.png'),
			prompt: 'Brighter',
			...(modelType === undefined ? {} : { modelType }),
		};

		const { items, error } = await run(resource, { ...parameters, options: {} });

		expect(error).toBeUndefined();
		const body = { imageUrl: parameters.imageUrl, prompt: 'Brighter' };
		expectSameTask(items[0].json, modelType ? { ...body, modelType } : body, resource, credits);
		expect(items[0].binary).toBeUndefined();
	});

	test('Get Result reads the price from the task the service stored', async () => {
		const created = await run('landscaping', {
			imageUrl: sample('tiny.png'),
			modelType: 'Pro',
			waitForCompletion: false,
		});
		const id = expectExactId(created.items[0].json);
		expect(created.items[0].json).toEqual({ id, status: 'Unprocessed', creditsCharged: 10 });

		let read;
		do {
			read = await runNode({
				node: 'idealHouse',
				credentials: credentialsFor(service),
				parameters: { resource: 'landscaping', operation: 'getResult', taskId: id },
			});
		} while (read.items[0]?.json.status !== 'Success' && !read.error);

		expect(read.error).toBeUndefined();
		expect(read.items[0].json).toMatchObject({ id, status: 'Success', creditsCharged: 10 });
		expect(tasksOf(service)).toMatchObject([{ id, cost: 10 }]);
	});

	test('a Failed task: refunded by the service, 0 credits and the refund note on the item', async () => {
		const imageUrl = `${sample('exterior.png')}?fail`;

		const { items, error } = await run(
			'landscaping',
			{ imageUrl, modelType: 'Pro' },
			{ onError: 'continueRegularOutput' },
		);

		expect(error).toBeUndefined();
		const [task] = tasksOf(service);
		expect(task).toMatchObject({ status: 'Failed', cost: 10, refunded: true });
		expect(items).toEqual([
			{
				json: {
					error: `Ideal House Landscaping task ${task.id} ended with status "Failed": its 10 credits were refunded automatically [item 0]`,
					details: {
						id: task.id,
						creditsCharged: 0,
						description: expect.stringContaining('could not process this task'),
					},
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(service.balance(service.apiKey)).toBe(START_BALANCE);
		expect(service.stats().credits).toMatchObject({ charged: 10, refunded: 10 });
	});
});

describe('option lists from the Style Config endpoint', () => {
	/** Every loaded field of the node: its loader, its resource, the style key and group. */
	const LOADED: Array<[string, string, string]> = [
		['landscaping', 'landscaping', 'gardenStyle'],
		['landscaping', 'landscaping', 'elements'],
		['interiorRemodel', 'interoir_remodel', 'roomType'],
		['interiorRemodel', 'interoir_remodel', 'style'],
		['interiorRemodel', 'interoir_remodel', 'elements'],
		['changeFurniture', 'change_furniture', 'roomType'],
		['changeFurniture', 'change_furniture', 'style'],
		['changeFurniture', 'change_furniture', 'elements'],
		['homeDecor', 'home_decor_ideas', 'spaceType'],
		['homeDecor', 'home_decor_ideas', 'decorStyle'],
		['planVisualizer', 'ai_plan_visualizer', 'planType'],
		['planVisualizer', 'ai_plan_visualizer', 'style'],
		['planVisualizer', 'ai_plan_visualizer', 'view'],
	];

	const SERVICE_DEFAULT = {
		name: 'Service Default',
		value: '',
		description: 'Send no ID: the service chooses',
	};

	/** The options as the service lists them: English name and id. */
	function serviceOptions(styleKey: string, group: string): INodePropertyOptions[] {
		const data = styleConfigData(styleKey, 'groupsAsKeys', service.baseUrl) as Record<
			string,
			Array<{ name: { en: string }; id: string; url: string }>
		>;
		return data[group].map((option) => ({ name: option.name.en, value: option.id }));
	}

	test('the node loads exactly these lists', () => {
		const methods = Object.keys(new IdealHouse().methods.loadOptions).sort();
		expect(methods).toEqual(
			expect.arrayContaining(
				LOADED.map(([, styleKey, group]) => `styles__${styleKey}__${group}`).sort(),
			),
		);
	});

	test.each(['groupsAsKeys', 'namedGroupList'] as const)(
		'answered as %s: every group, English names and ids',
		async (styleShape) => {
			service.configure({ styleShape });

			for (const [resource, styleKey, group] of LOADED) {
				const options = await loadOptions(`styles__${styleKey}__${group}`, resource);
				expect(options.length).toBeGreaterThan(3);
				// A single choice starts with the entry that sends nothing; a several-choice list does not.
				const listed = serviceOptions(styleKey, group);
				expect(options).toEqual(group === 'elements' ? listed : [SERVICE_DEFAULT, ...listed]);
			}

			expect(service.stats().requests.byEndpoint).toEqual({
				'style.getStyles': { total: LOADED.length, byStatus: { '200': LOADED.length } },
			});
			expect(tasksOf(service)).toEqual([]);
		},
	);

	test('the names a user reads: Living Room, Japandi, Top View', async () => {
		service.configure({ styleShape: 'namedGroupList' });

		const rooms = await loadOptions('styles__change_furniture__roomType', 'changeFurniture');
		const decor = await loadOptions('styles__home_decor_ideas__decorStyle', 'homeDecor');
		const views = await loadOptions('styles__ai_plan_visualizer__view', 'planVisualizer');

		expect(rooms.map((option) => option.name)).toEqual([
			'Service Default',
			'Living Room',
			'Bedroom',
			'Dining Room',
			'Home Office',
			'Kids Room',
		]);
		expect(decor.map((option) => option.name)).toContain('Japandi');
		expect(views[1].name).toBe('Top View');
		expect(rooms.slice(1).every((option) => /^[0-9a-f]{24}$/.test(String(option.value)))).toBe(
			true,
		);
	});

	test('without a valid key: the service says 5002 and no list is shown', async () => {
		const failure = (await loadOptions(
			'styles__landscaping__gardenStyle',
			'landscaping',
			credentialsFor(service, 'not-a-key'),
		).catch((error: unknown) => error)) as Error;

		expect(failure).toBeInstanceOf(Error);
		expect(failure.message).toBe(
			'Ideal House answered code 5002, the API key is missing or not valid: "invalid API key"',
		);
		expect((failure as Error & { description?: string }).description).toMatch(
			/Check the API key in the "Ideal House API" credential/,
		);
		expect(JSON.stringify(failure)).not.toContain('not-a-key');
		expect(service.stats().requests.byCode).toEqual({ '5002': 1 });
	});

	test('ids loaded under one style key are refused by an API of another: the check is the service’s', async () => {
		const furnitureRooms = await ids('change_furniture', 'roomType', 'changeFurniture');

		const { error } = await run('interiorRemodel', {
			imageUrl: sample('tiny.png'),
			indoorTypeId: furnitureRooms[0],
		});

		expect(error?.message).toBe(
			`Ideal House answered code 1011, a request parameter is missing or not valid: "indoorTypeId "${furnitureRooms[0]}" is not an id of the roomType group of interoir_remodel (see GET /api/v1/style/interoir_remodel/getStyles)" [item 0]`,
		);
		expect(tasksOf(service)).toEqual([]);
		expect(service.balance(service.apiKey)).toBe(START_BALANCE);
	});
});

describe("a House Plan's three images", () => {
	test('come back as data, data_1 and data_2 with the bytes the service serves', async () => {
		service.configure({ housePlanResults: 3 });

		const { items, error } = await run('custom', {
			apiName: 'housePlan',
			extraBody: '{"stories": "2", "style": "Craftsman", "modelType": "Base"}',
		});

		expect(error).toBeUndefined();
		const [task] = tasksOf(service);
		expect(task).toMatchObject({ kind: 'housePlan', status: 'Success', cost: 10 });
		const id = expectExactId(items[0].json);
		expect(id).toBe(task.id);
		const urls = [1, 2, 3].map((n) => `${service.baseUrl}/results/${id}-${n}.png`);
		expect(items[0].json).toEqual({
			id,
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			input: { stories: '2', style: 'Craftsman', modelType: 'Base' },
			output: { resultUrl: urls[0], width: 1920, height: 1080, resultList: urls },
			creditsCharged: 10,
		});
		expect(service.stats().downloads.results).toBe(3);

		const binary = items[0].binary!;
		expect(Object.keys(binary)).toEqual(['data', 'data_1', 'data_2']);
		const served = await Promise.all(
			urls.map(async (url) => Buffer.from(await (await fetch(url)).arrayBuffer())),
		);
		const got = ['data', 'data_1', 'data_2'].map((key) => Buffer.from(binary[key].data, 'base64'));
		got.forEach((bytes, index) => {
			expect(bytes.equals(served[index])).toBe(true);
			expect(pngSize(bytes)).toEqual({ width: 1920, height: 1080 });
			expect(binary[['data', 'data_1', 'data_2'][index]]).toMatchObject({
				mimeType: 'image/png',
				fileExtension: 'png',
				fileName: `${id}-${index + 1}.png`,
			});
		});
		// Three different images, not one three times.
		expect(new Set(got.map((bytes) => bytes.toString('base64'))).size).toBe(3);
	});
});

describe('Continue on Fail on the service', () => {
	test('Continue on Fail: each item linked; only the good ones reach the service', async () => {
		const gardens = await ids('landscaping', 'gardenStyle', 'landscaping');
		const good = sample('exterior.png');

		const { items, error } = await run(
			'landscaping',
			{
				imageUrl: '={{ $json.url }}',
				sceneId: '={{ $json.scene }}',
				modelType: 'Pro',
				options: {},
			},
			{
				items: [
					{ json: { url: good, scene: gardens[0] } },
					{ json: { url: 'file:///etc/passwd', scene: gardens[0] } },
					{ json: { url: good, scene: 'not-a-garden' } },
					{ json: { url: `${good}?fail`, scene: '' } },
				],
				onError: 'continueRegularOutput',
			},
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		const tasks = tasksOf(service);
		expect(tasks.map((task) => task.status).sort()).toEqual(['Failed', 'Success']);
		const done = tasks.find((task) => task.status === 'Success')!;
		const failed = tasks.find((task) => task.status === 'Failed')!;
		expect(items[0].json).toMatchObject({ id: done.id, status: 'Success', creditsCharged: 10 });
		expect(items[1].json).toEqual({
			error: '\'Image URL\' must be an absolute http(s) URL (got "file:///etc/passwd") [item 1]',
			details: { description: expect.any(String) },
		});
		expect(items[2].json.error).toBe(
			'Ideal House answered code 1011, a request parameter is missing or not valid: "sceneId "not-a-garden" is not an id of the gardenStyle group of landscaping (see GET /api/v1/style/landscaping/getStyles)" [item 2]',
		);
		expect(items[2].json.details).not.toHaveProperty('id');
		expect(items[3].json).toEqual({
			error: `Ideal House Landscaping task ${failed.id} ended with status "Failed": its 10 credits were refunded automatically [item 3]`,
			details: { id: failed.id, creditsCharged: 0, description: expect.any(String) },
		});
		// Three creates reached the service (the file URL never left the node).
		expect(service.stats().requests.byEndpoint['landscaping.generate'].total).toBe(3);
		expect(service.balance(service.apiKey)).toBe(START_BALANCE - 10);
	});
});

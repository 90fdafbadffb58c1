/**
 * No paid task lost on the Ideal House AI node, tried as a hostile server and a careless user
 * would: names every JavaScript object has, a model type emptied by an expression, Extra Body
 * Fields that would skip a field's checks or its price, numbers JSON cannot carry, a create
 * answered with an HTTP error that still names its task, and every step after a create failing
 * in turn. Each case checks the exact requests sent and the item that comes out.
 */
import nock from 'nock';

import * as creditsModule from '../nodes/shared/catalog/credits';
import * as downloadModule from '../nodes/shared/output/download';
import * as outputModule from '../nodes/shared/output/output';
import * as pollerModule from '../nodes/shared/item-life/wait';
import { logLines, runNode } from './helpers/engine';
import {
	TINY_PNG,
	api,
	created,
	envelope,
	recorded,
	running,
	serveTask,
	taskResponse,
} from './helpers/api';
import { CDN, PHOTO, create, custom, paths } from './helpers/ideal-house';
import { eachTestOnAFreshWire } from './helpers/journey';

/** The names every object has through its prototype, which a table must never answer to. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];

const posts = () => recorded.filter((request) => request.method === 'POST');

eachTestOnAFreshWire();
afterEach(() => jest.restoreAllMocks());

describe('names that every JavaScript object has', () => {
	test.each(PROTOTYPE_NAMES)(
		'Other API named %s is an API the node does not list: sent to its own path, id kept, price unknown',
		async (name) => {
			serveTask(paths(name), '1839201938475628544');

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: custom(name, `{"imageUrl": "${PHOTO}"}`, { waitForCompletion: false }),
			});

			expect(error).toBeUndefined();
			expect(posts().map(({ path, body }) => ({ path, body }))).toEqual([
				{ path: paths(name).create, body: { imageUrl: PHOTO } },
			]);
			expect(items[0].json).toEqual({
				id: '1839201938475628544',
				status: 'Unprocessed',
				creditsCharged: null,
			});
		},
	);

	test.each(PROTOTYPE_NAMES)(
		'a model type named %s, sent to a listed API by name, is priced as not known',
		async (modelType) => {
			serveTask(paths('landscaping'), '61');

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: custom('landscaping', JSON.stringify({ imageUrl: PHOTO, modelType }), {
					waitForCompletion: false,
				}),
			});

			expect(error).toBeUndefined();
			expect(posts()).toHaveLength(1);
			expect(items[0].json).toEqual({ id: '61', status: 'Unprocessed', creditsCharged: null });
		},
	);

	test.each(PROTOTYPE_NAMES)(
		'Get Result of a task whose stored model type is %s reports its price as not known',
		async (modelType) => {
			api()
				.get(paths('magicEditor').result)
				.query({ taskId: '62' })
				.reply(200, taskResponse('62', { input: { imageUrl: PHOTO, modelType } }));

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: { resource: 'magicEditor', operation: 'getResult', taskId: '62' },
			});

			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ id: '62', status: 'Success', creditsCharged: null });
		},
	);

	test.each(PROTOTYPE_NAMES)(
		'a model type named %s on a listed resource is refused before anything is sent',
		async (modelType) => {
			const { error } = await runNode({
				node: 'idealHouse',
				parameters: create('landscaping', { modelType }),
			});

			expect(error?.message).toMatch(/^'Model Type' must be one of Flash, Base, Pro/);
			expect(recorded).toEqual([]);
		},
	);
});

describe('a result field named after what every object has', () => {
	test.each(PROTOTYPE_NAMES)('the result is attached in a field named %s', async (property) => {
		serveTask(paths('virtualStaging'), '66', {
			output: { resultUrl: `${CDN}/r/66.png`, width: 1, height: 1 },
		});
		nock(CDN).get('/r/66.png').reply(200, TINY_PNG, { 'Content-Type': 'image/png' });

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: create('virtualStaging', {
				options: { downloadResult: true, binaryPropertyName: property },
			}),
		});

		expect(error).toBeUndefined();
		expect(Object.keys(items[0].binary ?? {})).toEqual([property]);
		expect(items[0].binary?.[property].mimeType).toBe('image/png');
	});

	const intoProto = { downloadResult: true, binaryPropertyName: '__proto__' };
	test.each([
		[
			'a create (it would replace the item rather than name a field)',
			create('virtualStaging', { options: intoProto }),
		],
		[
			'Get Result, whose result is just as paid for',
			{ resource: 'virtualStaging', operation: 'getResult', taskId: '66', options: intoProto },
		],
	])('__proto__ as the field is refused before anything is sent: %s', async (_case, parameters) => {
		const { error } = await runNode({ node: 'idealHouse', parameters });

		expect(error?.message).toBe('\'Put Output File in Field\' cannot be "__proto__" [item 0]');
		expect(recorded).toEqual([]);
	});
});

describe('a model type emptied by an expression', () => {
	test.each([
		['floorPlan', {}],
		['housePlan', { stories: '2' }],
		['furnitureTryOn', { imageUrl: PHOTO, furnitureList: '[{"id":1}]' }],
	])(
		'%s, whose page names no default tier, refuses it before anything is sent',
		async (resource, fields) => {
			// An expression that gives "" and one on a field the item does not have.
			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: { resource, operation: 'create', ...fields, modelType: '={{ $json.model }}' },
				items: [{ json: { model: '' } }, { json: {} }],
				onError: 'continueRegularOutput',
			});

			expect(error).toBeUndefined();
			expect(recorded).toEqual([]);
			expect(items.map((item) => item.json)).toEqual([
				{ error: "'Model Type' is required [item 0]", details: expect.any(Object) },
				{ error: "'Model Type' is required [item 1]", details: expect.any(Object) },
			]);
		},
	);

	test('Landscaping, whose page names Base as the default, sends none and is priced at Base', async () => {
		serveTask(paths('landscaping'), '63');

		const { items } = await runNode({
			node: 'idealHouse',
			parameters: create('landscaping', { modelType: '={{ "" }}', waitForCompletion: false }),
		});

		expect(posts().map((request) => request.body)).toEqual([{ imageUrl: PHOTO }]);
		expect(items[0].json).toEqual({ id: '63', status: 'Unprocessed', creditsCharged: 3 });
	});
});

describe('Get Result prices only what the stored input says', () => {
	test.each([
		['magicEditor', { modelType: 'Pro' }, 10],
		['magicEditor', { modelType: 'Flash' }, 1],
		['magicEditor', {}, null],
		['magicEditor', { modelType: '' }, null],
		['landscaping', { modelType: 'Flash' }, 1],
		['landscaping', { modelType: 'Pro' }, 10],
		// The stored input need not repeat the model type: then the price is not known.
		['landscaping', {}, null],
		['landscaping', { modelType: 'constructor' }, null],
	])('a %s task with stored input %j costs %p', async (resource, input, credits) => {
		api()
			.get(paths(resource).result)
			.query({ taskId: '64' })
			.reply(200, taskResponse('64', { input: { imageUrl: PHOTO, ...input } }));

		const { items } = await runNode({
			node: 'idealHouse',
			parameters: { resource, operation: 'getResult', taskId: '64' },
		});

		expect(items[0].json.creditsCharged).toBe(credits);
	});
});

describe('Extra Body Fields', () => {
	const stage = (extraBody: string, resource = 'virtualStaging') => ({
		resource,
		operation: 'create',
		imageUrl: PHOTO,
		extraBody,
		waitForCompletion: false,
	});

	test.each([
		['landscaping', '{"ModelType":"Pro"}', 'ModelType', 'modelType', 'Model Type'],
		['landscaping', '{"model_type":"Pro"}', 'model_type', 'modelType', 'Model Type'],
		['landscaping', '{"model-type":"Pro"}', 'model-type', 'modelType', 'Model Type'],
		['virtualStaging', '{"ImageUrl":"http://10.0.0.1/x.jpg"}', 'ImageUrl', 'imageUrl', 'Image URL'],
		[
			'homeDecor',
			'{"reference_url":"ftp://x"}',
			'reference_url',
			'referenceUrl',
			'Reference Image URL',
		],
	])(
		'%s: %s looks like a misspelt field and is refused before anything is sent',
		async (resource, extraBody, key, field, label) => {
			const { error } = await runNode({
				node: 'idealHouse',
				parameters: stage(extraBody, resource),
			});

			expect(error?.message).toBe(
				`'Extra Body Fields (JSON)' sets "${key}", which looks like a misspelt "${field}": the service would not read it as that field [item 0]`,
			);
			expect(error?.description).toBe(
				`Use the node's "${label}" field instead, so that its value is checked before anything is charged.`,
			);
			expect(recorded).toEqual([]);
		},
	);

	test('a misspelt model type on an API without model types is refused too', async () => {
		const { error } = await runNode({
			node: 'idealHouse',
			parameters: stage('{"MODELTYPE":"Pro"}'),
		});

		expect(error?.message).toBe(
			'\'Extra Body Fields (JSON)\' sets "MODELTYPE", which looks like a misspelt "modelType": the service would not read it as that field [item 0]',
		);
		expect(recorded).toEqual([]);
	});

	test.each([
		['virtualStaging', 'Virtual Staging', '1 credit'],
		['changeFurniture', 'Change Furniture', '1 credit'],
	])('a model type on %s, which has one price, is refused', async (resource, label, credits) => {
		const { error } = await runNode({
			node: 'idealHouse',
			parameters: stage('{"modelType":"Pro"}', resource),
		});

		expect(error?.message).toBe(
			`'Extra Body Fields (JSON)' sets "modelType", but ${label} has one price (${credits} per task) and no model types [item 0]`,
		);
		expect(recorded).toEqual([]);
	});

	test('a model type sent by name to a listed API with one price is refused', async () => {
		const { error } = await runNode({
			node: 'idealHouse',
			parameters: custom('photoEnhancer', `{"imageUrl":"${PHOTO}","modelType":"Pro"}`),
		});

		expect(error?.message).toBe(
			'\'Body (JSON)\' sets "modelType", but Photo Enhancer has one price (10 credits per task) and no model types [item 0]',
		);
		expect(recorded).toEqual([]);
	});

	test('a 64-bit integer goes out as a JSON number with every digit', async () => {
		serveTask(paths('virtualStaging'), '65');

		const { error } = await runNode({
			node: 'idealHouse',
			parameters: stage('{"seed": 1839201938475628544, "small": 7, "note": "1839201938475628544"}'),
		});

		expect(error).toBeUndefined();
		expect(posts()).toHaveLength(1);
		expect(posts()[0].text).toBe(
			`{"imageUrl":"${PHOTO}","seed":1839201938475628544,"small":7,"note":"1839201938475628544"}`,
		);
		expect(posts()[0].headers['content-type']).toMatch(/^application\/json/);
	});

	test.each([
		['1e400', '{"seed": 1e400}', 'holds a number too large for JSON (1e400)'],
		['-1e400', '{"seed": [1, -1e400]}', 'holds a number too large for JSON (-1e400)'],
		[
			'5,000 nested lists',
			`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
			'is too deeply nested (more than 64 levels)',
		],
		[
			'5,000 nested objects',
			`{"a":${'{"a":'.repeat(5000)}1${'}'.repeat(5001)}`,
			'is too deeply nested (more than 64 levels)',
		],
	])('%s is refused before anything is sent', async (_case, extraBody, reason) => {
		const { error } = await runNode({ node: 'idealHouse', parameters: stage(extraBody) });

		expect(error?.message).toBe(`'Extra Body Fields (JSON)' ${reason} [item 0]`);
		expect(recorded).toEqual([]);
	});
});

describe('a create answered with an HTTP error whose body names a task', () => {
	test.each([429, 500, 503])(
		'HTTP %s with code 0 and a task id is the created task: sent once, its id kept',
		async (status) => {
			api()
				.post(paths('virtualStaging').create)
				.reply(status, created('1839201938475628544'))
				.get(paths('virtualStaging').result)
				.query({ taskId: '1839201938475628544' })
				.reply(200, taskResponse('1839201938475628544'));

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: create('virtualStaging'),
			});

			expect(error).toBeUndefined();
			expect(posts()).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				id: '1839201938475628544',
				status: 'Success',
				creditsCharged: 1,
			});
		},
	);

	test('an error envelope that names a task is never sent again, and says which task may exist', async () => {
		api()
			.post(paths('virtualStaging').create)
			.times(5)
			.reply(429, envelope('1839201938475628544', 1003, 'busy'));

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: create('virtualStaging'),
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		expect(posts()).toHaveLength(1);
		// The task the answer named is the item's, in details.id, as any task that may exist.
		expect(items[0].json).toEqual({
			error: expect.stringMatching(/^Ideal House answered code 1003/),
			details: {
				id: '1839201938475628544',
				description: expect.stringContaining(
					'Task 1839201938475628544 may have been created and charged: fetch it with the Get Result operation',
				),
			},
		});
	});
});

describe('every way an item can end after its create keeps the task id and its price', () => {
	const ID = '1839201938475628544';

	function createdAndDone(resource = 'homeDecor'): void {
		serveTask(paths(resource), ID, {
			output: { resultUrl: `${CDN}/r/1.png`, width: 1, height: 1 },
		});
		nock(CDN).get('/r/1.png').reply(200, TINY_PNG, { 'Content-Type': 'image/png' });
	}

	const decorate = create('homeDecor', { modelType: 'Pro', options: { downloadResult: true } });

	/** Each step after the create, made to fail in turn. */
	const steps: Array<[string, () => void]> = [
		[
			'logging the new task',
			() => {
				const push = logLines.push.bind(logLines);
				jest.spyOn(logLines, 'push').mockImplementation((...lines: string[]) => {
					if (lines.some((line) => line.includes(`task ${ID} created`))) {
						throw new Error('log volume full');
					}
					return push(...lines);
				});
			},
		],
		[
			'pricing the task',
			() =>
				jest.spyOn(creditsModule, 'price').mockImplementation(() => {
					throw new TypeError('price table broken');
				}),
		],
		[
			'waiting for the task',
			() => jest.spyOn(pollerModule, 'waitForTask').mockRejectedValue(new TypeError('poll broken')),
		],
		[
			'emitting the item',
			() => jest.spyOn(outputModule, 'emitTask').mockRejectedValue(new RangeError('emit broken')),
		],
		[
			'downloading the result',
			() =>
				jest.spyOn(downloadModule, 'downloadResultFile').mockRejectedValue(new Error('disk full')),
		],
	];

	test.each(steps)(
		'%s fails: with Continue on Fail the item names the task and what it cost',
		async (step, breakStep) => {
			createdAndDone();
			breakStep();

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: decorate,
				onError: 'continueRegularOutput',
			});

			expect(error).toBeUndefined();
			expect(posts()).toHaveLength(1);
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			// When pricing itself failed, the price is reported as not known rather than guessed.
			expect(items[0].json.details).toMatchObject({
				id: ID,
				creditsCharged: step === 'pricing the task' ? null : 10,
			});
		},
	);

	test.each(steps)(
		'%s fails: the node fails with a message that names the task, never sent again',
		async (_step, breakStep) => {
			createdAndDone();
			breakStep();

			const { error } = await runNode({ node: 'idealHouse', parameters: decorate });

			expect(posts()).toHaveLength(1);
			expect(`${error?.message} ${error?.description}`).toContain(ID);
		},
	);

	test('the wait runs out: the item names the task and its price', async () => {
		serveTask(paths('homeDecor'), ID, { ...running(30), times: 10 });

		const { items } = await runNode({
			node: 'idealHouse',
			parameters: { ...decorate, options: { timeout: 9, pollInterval: 3 } },
			onError: 'continueRegularOutput',
		});

		expect(posts()).toHaveLength(1);
		expect(items[0].json).toEqual({
			error: `Task ${ID} did not finish within 9 s (last status Processing, 30%) [item 0]`,
			details: { id: ID, creditsCharged: 10, description: expect.stringContaining(ID) },
		});
	});

	test('the task ends Failed: the item names the task, refunded', async () => {
		serveTask(paths('homeDecor'), ID, { status: 'Failed' });

		const { items } = await runNode({
			node: 'idealHouse',
			parameters: decorate,
			onError: 'continueRegularOutput',
		});

		expect(items[0].json).toEqual({
			error: `Ideal House Home Decor task ${ID} ended with status "Failed": its 10 credits were refunded automatically [item 0]`,
			details: { id: ID, creditsCharged: 0, description: expect.any(String) },
		});
	});
});

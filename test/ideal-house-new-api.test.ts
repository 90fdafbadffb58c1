/**
 * An API added to the Ideal House AI node as data: a catalog row and a description built from
 * the node's own building blocks, run through n8n's engine with nock on the wire. Its body,
 * polling, price, result file, option list, checks and Get Result all work with no engine change.
 */
import nock from 'nock';
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { createBodyCheck } from '../nodes/shared/item-life/body-check';
import { styleLoaders } from '../nodes/IdealHouse/methods/styles';
import { extraBodyField, styleField } from '../nodes/IdealHouse/fields';
import { sentAs } from '../nodes/shared/descriptions/body-fields';
import type { IdealHouseApi } from '../nodes/shared/catalog/apis';
import {
	commonDescription,
	operationField,
	optionsField,
	taskIdField,
	waitForCompletionField,
} from '../nodes/shared/descriptions/fields';
import { createTaskRouting } from '../nodes/shared/item-life/routing';
import { TEST_CREDENTIALS, runNode } from './helpers/engine';
import { BIG_ID, TINY_PNG, api, envelope, recorded, taskResponse } from './helpers/api';
import { PHOTO, CDN, paths, answerTask, expectCreateThenPolls } from './helpers/ideal-house';
import { loadOptions } from './helpers/editor';
import { eachTestOnAFreshWire } from './helpers/journey';

eachTestOnAFreshWire();

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
			styleField(roomSketch, {
				label: 'Paper Names or IDs',
				sentAs: 'paperId',
				group: 'paper',
				what: 'The paper',
				several: true,
			}),
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
						action: 'Create room sketch task',
						description: 'Create a room sketch task',
						routing: createTaskRouting({ api: roomSketch, bodyCheck: createBodyCheck(fields) }),
					},
					task: 'room sketch',
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
		expect(far.error?.message).toBe("'Detail' must be a whole number from 1 to 5 (got 9) [item 0]");
		expect(off.error?.message).toBe(
			`'Line Style' must be one of pencil, ink (got "crayon") [item 0]`,
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
			error:
				'Ideal House Room Sketch task 81 ended with status "Failed": its 2 credits were refunded automatically [item 0]',
			details: { id: '81', creditsCharged: 0, description: expect.any(String) },
		});
		expect(read.items[0].json).toMatchObject({ id: '82', status: 'Processing', creditsCharged: 2 });
		expect(recorded.at(-1)).toMatchObject({
			path: paths('roomSketch').result,
			query: { taskId: '82' },
		});
	});
});

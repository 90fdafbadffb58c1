/**
 * The nodes as the tool variants n8n generates from `usableAsTool` (type `…photoEnhancerTool`):
 * the same node description under the tool's name, run through n8n's engine with nock on the wire.
 * What an AI agent sees: the tool description, compact JSON of a finished task (its price, its
 * files) and errors that tell the model what to do.
 */
import { NodeHelpers, type INodeType } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node';
import { CREDIT_LIMIT_TOOL_NOTE } from '../nodes/shared/item-life/credit-limit';
import { runNode } from './helpers/engine';
import {
	API_KEY,
	BIG_ID,
	DONE,
	OR,
	PE,
	recorded,
	refuseCreates,
	resultOf,
	serveTask,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { CDN, PHOTO, answerTask, asTool, create } from './helpers/ideal-house';
import { enhance } from './helpers/params';

const photoTool = asTool(new PhotoEnhancer());
const removerTool = asTool(new ObjectRemover());

eachTestOnAFreshWire();

describe('tool variants', () => {
	test('the tool description is a field of the tool variant only, with a default a model can use', () => {
		const fill = (nodeType: INodeType) =>
			NodeHelpers.getNodeParameters(
				nodeType.description.properties,
				{ operation: 'enhance' },
				true,
				false,
				{ typeVersion: 1 } as never,
				nodeType.description,
			);
		const told = String(fill(photoTool)?.toolDescription);
		expect(told.endsWith(` ${CREDIT_LIMIT_TOOL_NOTE}`)).toBe(true);
		expect(fill(new PhotoEnhancer())).not.toHaveProperty('toolDescription');
		expect(told).toMatch(/^Enhances a real-estate photo with Ideal House AI/);
		expect(told).toMatch(/Cost: 10 credits per task/);
		// The public price page differs from the specification: the model is told, so is the user.
		expect(told).toMatch(/lists 20 credits for 4K results/);
		expect(told).toMatch(/Sky Replacement: .*Sunset Sky/);
		expect(told).toMatch(/returns JSON \{id, status, resultUrl, width, height, creditsCharged\}/);
	});

	test('a finished task comes back as compact JSON, with no binary', async () => {
		serveTask(PE, BIG_ID, { input: { presetId: 'sky-replacement-sunset-sky' } });

		const { items, error } = await runNode({ node: photoTool, parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: {
					id: BIG_ID,
					status: 'Success',
					...resultOf(BIG_ID),
					creditsCharged: 10,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('a preset name from the model is sent as its id', async () => {
		serveTask(PE, BIG_ID, DONE);

		const { error } = await runNode({
			node: photoTool,
			parameters: enhance({ presetId: '={{ "Sunset Sky" }}' }),
		});

		expect(error).toBeUndefined();
		expect(recorded[0].body).toEqual({
			imageUrl: 'https://photos.example.com/listing/living-room.jpg',
			presetId: 'sky-replacement-sunset-sky',
			imageSize: '4K',
		});
	});

	test.each([
		[
			'an ambiguous name',
			'Real Estate Photo Editing',
			/matches several presets: Image Optimization: Real Estate Photo Editing \(image-optimization-real-estate-photo-editing\); Image Quality Correction: Real Estate Photo Editing/,
		],
		[
			'an unknown name',
			'Purple Sky',
			/"Purple Sky" is not a known preset\. Close matches: Sky Replacement: /,
		],
	])(
		'%s fails before anything is sent, listing the presets it could mean',
		async (_case, name, message) => {
			const { error } = await runNode({
				node: photoTool,
				parameters: enhance({ presetId: `={{ ${JSON.stringify(name)} }}` }),
			});

			expect(error?.message).toMatch(message);
			expect(recorded).toEqual([]);
		},
	);

	test('an error tells the model what to do in its message (9010: rephrase the prompt)', async () => {
		refuseCreates(PE, 9010, 'SCAN_TEXT_ERROR');

		const { error, run } = await runNode({
			node: photoTool,
			parameters: enhance({ presetId: '', prompt: 'make it look like a crime scene' }),
		});

		expect(error?.message).toMatch(
			/code 9010, the prompt did not pass the text review.*Rephrase the prompt/,
		);
		expect(JSON.stringify(run)).not.toContain(API_KEY);
	});

	test('as a plain node the error message stays as it was, the advice in the description', async () => {
		refuseCreates(PE, 9010, 'SCAN_TEXT_ERROR');

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ presetId: '', prompt: 'x' }),
		});

		expect(error?.message).not.toMatch(/Rephrase/);
		expect(error?.description).toMatch(/Rephrase the prompt/);
	});

	test('Object Remover as a tool: compact JSON of the emptied room', async () => {
		serveTask(OR, '77', {
			output: { resultUrl: 'https://cdn.ideal.house/r/77.png', width: 1024, height: 768 },
		});

		const { items, error } = await runNode({
			node: removerTool,
			parameters: { operation: 'remove', imageUrl: 'https://photos.example.com/room.jpg' },
		});

		expect(error).toBeUndefined();
		expect(recorded[0].body).toEqual({
			imageUrl: 'https://photos.example.com/room.jpg',
			emptyType: 'whole_house',
		});
		expect(items.map((item) => item.json)).toEqual([
			{
				id: '77',
				status: 'Success',
				resultUrl: 'https://cdn.ideal.house/r/77.png',
				width: 1024,
				height: 768,
				creditsCharged: 1,
			},
		]);
	});
});

describe('as a tool for an AI agent', () => {
	const tool = asTool(new IdealHouse());

	test('each resource tells the model its price in the tool description', () => {
		const fill = (resource: string) =>
			NodeHelpers.getNodeParameters(
				tool.description.properties,
				{ resource, operation: 'create' },
				true,
				false,
				{ typeVersion: 1 } as never,
				tool.description,
			)?.toolDescription;

		expect(fill('landscaping')).toMatch(
			/Cost: Flash 1, Base 3 \(default\), Pro 10 credits per task by model type, refunded/,
		);
		expect(fill('homeDecor')).toMatch(/Cost: Base 3 \(default\), Pro 10 credits per task/);
		expect(fill('virtualStaging')).toMatch(/Cost: 1 credit per task/);
		expect(fill('custom')).toMatch(/creditsCharged is null/);
		expect(
			NodeHelpers.getNodeParameters(
				new IdealHouse().description.properties,
				{ resource: 'landscaping', operation: 'create' },
				true,
				false,
				{ typeVersion: 1 } as never,
				new IdealHouse().description,
			),
		).not.toHaveProperty('toolDescription');
	});

	test('a finished task comes back as compact JSON, priced by its model type', async () => {
		answerTask('magicEditor', BIG_ID, {
			input: { imageUrl: PHOTO, prompt: 'Remove the car', modelType: 'Pro' },
		});

		const { items, error } = await runNode({
			node: tool,
			parameters: create('magicEditor', { prompt: 'Remove the car', modelType: 'Pro' }),
		});

		expect(error).toBeUndefined();
		expect(recorded[0].body).toEqual({
			imageUrl: PHOTO,
			prompt: 'Remove the car',
			modelType: 'Pro',
		});
		expect(items).toEqual([
			{
				json: {
					id: BIG_ID,
					status: 'Success',
					resultUrl: `${CDN}/r/${BIG_ID}.png`,
					width: 1600,
					height: 1200,
					creditsCharged: 10,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('a task with several files lists them all for the model', async () => {
		const urls = [1, 2, 3].map((n) => `${CDN}/results/62-${n}.png`);
		answerTask('housePlan', '62', {
			output: { resultUrl: urls[0], width: 1920, height: 1080, resultList: urls },
		});

		const { items } = await runNode({
			node: tool,
			parameters: {
				resource: 'custom',
				operation: 'create',
				apiName: 'housePlan',
				extraBody: '{"stories": 1}',
			},
		});

		expect(items[0].json).toEqual({
			id: '62',
			status: 'Success',
			resultUrl: urls[0],
			width: 1920,
			height: 1080,
			creditsCharged: null,
			resultList: urls,
		});
	});

	test('a refused input tells the model what to do in the message', async () => {
		const { error } = await runNode({
			node: tool,
			parameters: create('magicEditor', { modelType: 'Base' }),
		});

		expect(recorded).toEqual([]);
		expect(error?.message).toBe(
			"'Prompt' is required with the Base model. Write what to change, or choose Flash or Pro. [item 0]",
		);
	});
});

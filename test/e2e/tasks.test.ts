/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * Both nodes end to end against the local service: the tasks they create, what they emit, the
 * images they bring back and what the account pays. (One file: each test file loads n8n anew,
 * which costs more than all of these tests together.)
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RunningService } from '../../service/server.ts';
import { creditsOf } from '../helpers/prices.ts';
import { runNode, type NodeName } from '../helpers/engine';
import {
	credentialsFor,
	eachTestOnTheLocalService,
	expectExactId,
	itemWithBinary,
	pngSize,
	sampleBytes,
	sampleUrl,
} from './helpers';

/** The local service's account starts with this balance; what a task costs is the catalog's. */
const START_BALANCE = 1000;
const ENHANCED = creditsOf('photoEnhancer');
const REMOVED = creditsOf('objectRemover');

let service: RunningService;
let maskBase64: string;

// Every test starts from full balances and zero counters (fetching the mask here counts too).
eachTestOnTheLocalService({}, async (started) => {
	service = started;
	maskBase64 = (await sampleBytes(service, 'living-room-mask.png')).toString('base64');
});

async function enhance(parameters: IDataObject) {
	return await runNode({
		node: 'photoEnhancer',
		credentials: credentialsFor(service),
		parameters: { operation: 'enhance', options: { downloadResult: true }, ...parameters },
	});
}

describe('Photo Enhancer end to end: the task, its image and its price', () => {
	test.each([
		// name, sample, preset, prompt, size, expected width x height (long edge at the size, aspect kept)
		[
			'a preset at 512',
			'living-room.png',
			'sky-replacement-sunset-sky',
			undefined,
			'512',
			512,
			384,
		],
		['a prompt at 1K', 'exterior.png', undefined, 'Make the sky clear blue', '1K', 1024, 683],
		[
			'a preset and a prompt at 2K',
			'kitchen.png',
			'virtual-twilight-luxury-twilight',
			'Warm windows',
			'2K',
			2048,
			1536,
		],
	])('%s', async (_name, sample, presetId, prompt, imageSize, width, height) => {
		const imageUrl = sampleUrl(service, sample);

		const { items, error } = await enhance({
			imageUrl,
			presetId: presetId ?? '',
			prompt: prompt ?? '',
			imageSize,
		});

		expect(error).toBeUndefined();
		const [task] = service.stats().tasks;
		expect(items).toHaveLength(1);
		const id = expectExactId(items[0].json);
		expect(id).toBe(task.id);
		expect(items[0].json).toEqual({
			id,
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			input: {
				imageUrl,
				imageUrls: [imageUrl],
				prompt: prompt ?? '',
				presetId: presetId ?? null,
				imageSize,
				isApiCall: true,
				modelType: 'SINGLE_IMAGE',
				model: 'ideal-house-enhancer-local',
			},
			output: { resultUrl: `${service.baseUrl}/results/${id}.png`, width, height },
			creditsCharged: ENHANCED,
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });

		const binary = items[0].binary?.data;
		expect(binary).toMatchObject({
			mimeType: 'image/png',
			fileExtension: 'png',
			fileName: `${id}.png`,
		});
		const bytes = Buffer.from(binary!.data, 'base64');
		expect(pngSize(bytes)).toEqual({ width, height });

		expect(service.balance(service.apiKey)).toBe(START_BALANCE - ENHANCED);
		expect(service.stats().credits).toMatchObject({ charged: ENHANCED, refunded: 0 });
		expect(service.stats().tasksCreated.total).toBe(1);
		expect(service.stats().downloads.results).toBe(1);
	});

	test('an HDR merge of three brackets typed one by one is one task, sized from the first bracket', async () => {
		const brackets = ['bracket-1.png', 'bracket-2.png', 'bracket-3.png'].map((name) =>
			sampleUrl(service, name),
		);

		const { items, error } = await enhance({
			imageInput: 'urls',
			imageUrls: brackets,
			presetId: 'hdr-merge-hdr-merge',
			imageSize: '2K',
			options: { downloadResult: true, binaryPropertyName: 'merged' },
		});

		expect(error).toBeUndefined();
		const id = expectExactId(items[0].json);
		expect(items[0].json).toMatchObject({
			id,
			status: 'Success',
			input: {
				imageUrl: brackets,
				imageUrls: brackets,
				presetId: 'hdr-merge-hdr-merge',
				modelType: 'MULTI_IMAGE',
			},
			output: { width: 2048, height: 1365 },
		});
		expect(Object.keys(items[0].binary ?? {})).toEqual(['merged']);
		expect(pngSize(Buffer.from(items[0].binary!.merged.data, 'base64'))).toEqual({
			width: 2048,
			height: 1365,
		});
		expect(service.stats().tasksCreated.total).toBe(1);
		expect(service.balance(service.apiKey)).toBe(START_BALANCE - ENHANCED);
	});
});

async function remove(parameters: IDataObject, items?: INodeExecutionData[]) {
	return await runNode({
		node: 'objectRemover',
		credentials: credentialsFor(service),
		parameters: { operation: 'remove', options: { downloadResult: true }, ...parameters },
		items,
	});
}

describe('Object Remover end to end: the result has the source image size', () => {
	test.each([
		['living-room.png', 1600, 1200],
		['kitchen.png', 1280, 960],
	])('whole house on %s', async (sample, width, height) => {
		const imageUrl = sampleUrl(service, sample);

		const { items, error } = await remove({ imageUrl, emptyType: 'whole_house' });

		expect(error).toBeUndefined();
		const id = expectExactId(items[0].json);
		expect(id).toBe(service.stats().tasks[0].id);
		expect(items[0].json).toEqual({
			id,
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			input: { imageUrl, emptyType: 'whole_house' },
			output: { resultUrl: `${service.baseUrl}/results/${id}.png`, width, height },
			creditsCharged: REMOVED,
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].binary?.data.mimeType).toBe('image/png');
		expect(pngSize(Buffer.from(items[0].binary!.data.data, 'base64'))).toEqual({ width, height });
		expect(service.balance(service.apiKey)).toBe(START_BALANCE - REMOVED);
		expect(service.stats().credits).toMatchObject({ charged: REMOVED, refunded: 0 });
	});

	const single = { emptyType: 'single_furniture' };
	test.each<[string, () => IDataObject, () => INodeExecutionData[] | undefined, IDataObject]>([
		[
			'a mask URL',
			() => ({ ...single, maskSource: 'url', maskUrl: sampleUrl(service, 'living-room-mask.png') }),
			() => undefined,
			{ maskUrl: 'MASK_URL' },
		],
		[
			"the item's binary file",
			() => ({ ...single, maskSource: 'binary', maskBinaryProperty: 'mask' }),
			() => [itemWithBinary('mask', Buffer.from(maskBase64, 'base64'))],
			{},
		],
		['base64 text', () => ({ ...single, maskSource: 'base64', maskBase64 }), () => undefined, {}],
		[
			'base64 text pasted as a data: URL',
			() => ({
				...single,
				maskSource: 'base64',
				maskBase64: `data:image/png;base64,${maskBase64}`,
			}),
			() => undefined,
			{},
		],
	])('single furniture with %s', async (_name, parameters, items, storedMask) => {
		const imageUrl = sampleUrl(service, 'living-room.png');
		const maskUrl = sampleUrl(service, 'living-room-mask.png');

		const { items: output, error } = await remove({ imageUrl, ...parameters() }, items());

		expect(error).toBeUndefined();
		const id = expectExactId(output[0].json);
		// The service keeps a mask URL in the task's input; a base64 mask is not stored.
		const input = storedMask.maskUrl
			? { imageUrl, maskUrl, emptyType: 'single_furniture' }
			: { imageUrl, emptyType: 'single_furniture' };
		expect(output[0].json).toEqual({
			id,
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			input,
			output: { resultUrl: `${service.baseUrl}/results/${id}.png`, width: 1600, height: 1200 },
			creditsCharged: REMOVED,
		});
		expect(pngSize(Buffer.from(output[0].binary!.data.data, 'base64'))).toEqual({
			width: 1600,
			height: 1200,
		});
		expect(service.balance(service.apiKey)).toBe(START_BALANCE - REMOVED);
		expect(service.stats().tasksCreated.byEndpoint).toEqual({ 'objectRemover.generate': 1 });
	});
});

/** Waits on the wall clock (the nodes' clock is sped up) until the service reports the task done. */
async function untilDone(id: string): Promise<void> {
	for (let tries = 0; tries < 200; tries++) {
		const task = service.stats().tasks.find((candidate) => candidate.id === id);
		if (task && (task.status === 'Success' || task.status === 'Failed')) return;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`task ${id} did not finish`);
}

describe("'Wait for Completion' off, then Get Result later", () => {
	test.each<[NodeName, Record<string, unknown>, number, { width: number; height: number }]>([
		[
			'photoEnhancer',
			{ operation: 'enhance', presetId: 'exterior-enhancement-curb-appeal', imageSize: '1K' },
			ENHANCED,
			{ width: 1024, height: 768 },
		],
		[
			'objectRemover',
			{ operation: 'remove', emptyType: 'whole_house' },
			REMOVED,
			{ width: 1600, height: 1200 },
		],
	])(
		'%s: the id handed out at once reads back as the same finished task',
		async (node, parameters, cost, size) => {
			const imageUrl = sampleUrl(service, 'living-room.png');

			const created = await runNode({
				node,
				credentials: credentialsFor(service),
				parameters: { ...parameters, imageUrl, waitForCompletion: false },
			});

			expect(created.error).toBeUndefined();
			const id = expectExactId(created.items[0].json);
			expect(created.items).toEqual([
				{ json: { id, status: 'Unprocessed', creditsCharged: cost }, pairedItem: { item: 0 } },
			]);
			// Nothing was polled: the node returned right after the create.
			expect(Object.keys(service.stats().requests.byEndpoint)).toEqual([`${node}.generate`]);
			expect(service.balance(service.apiKey)).toBe(START_BALANCE - cost);

			await untilDone(id);
			// The id travels through an expression, as a later node in a workflow would map it.
			const later = await runNode({
				node,
				credentials: credentialsFor(service),
				parameters: {
					operation: 'getResult',
					taskId: '={{ $json.id }}',
					options: { downloadResult: true },
				},
				items: [{ json: created.items[0].json }],
			});

			expect(later.error).toBeUndefined();
			expect(later.items).toHaveLength(1);
			expect(later.items[0].json).toMatchObject({
				id,
				status: 'Success',
				percentage: 100,
				input: { imageUrl },
				output: { resultUrl: `${service.baseUrl}/results/${id}.png`, ...size },
				creditsCharged: cost,
			});
			expect(pngSize(Buffer.from(later.items[0].binary!.data.data, 'base64'))).toEqual(size);
			expect(service.stats().tasksCreated.total).toBe(1);
			expect(service.stats().requests.byEndpoint[`${node}.result`]).toEqual({
				total: 1,
				byStatus: { '200': 1 },
			});
			expect(service.balance(service.apiKey)).toBe(START_BALANCE - cost);
		},
	);
});

describe('several items in one run', () => {
	// Six different photos and sizes; with two workers and jittered durations the tasks finish
	// out of order, and the output must still follow the input.
	const inputs = [
		{
			sample: 'living-room.png',
			size: '512',
			preset: 'sky-replacement-sunset-sky',
			prompt: '',
			width: 512,
			height: 384,
		},
		{
			sample: 'exterior.png',
			size: '1K',
			preset: '',
			prompt: 'Clear blue sky',
			width: 1024,
			height: 683,
		},
		{
			sample: 'kitchen.png',
			size: '512',
			preset: 'lighting-color-exposure-turn-on-lights',
			prompt: '',
			width: 512,
			height: 384,
		},
		{
			sample: 'bracket-2.png',
			size: '1K',
			preset: 'image-optimization-mls-photo-enhancement',
			prompt: 'Crisp',
			width: 1024,
			height: 683,
		},
		{
			sample: 'exterior.png',
			size: '512',
			preset: 'virtual-twilight-luxury-twilight',
			prompt: '',
			width: 512,
			height: 341,
		},
		{
			sample: 'living-room.png',
			size: '2K',
			preset: '',
			prompt: 'Warmer light',
			width: 2048,
			height: 1536,
		},
	];

	test('six mixed Photo Enhancer items all finish, in input order, each linked to its input', async () => {
		service.configure({ workers: 2, taskDurationMs: 60, taskDurationJitterMs: 50 });
		const items = inputs.map((input) => ({
			json: { ...input, url: sampleUrl(service, input.sample) },
		}));

		const { items: output, error } = await runNode({
			node: 'photoEnhancer',
			credentials: credentialsFor(service),
			parameters: {
				operation: 'enhance',
				imageUrl: '={{ $json.url }}',
				presetId: '={{ $json.preset }}',
				prompt: '={{ $json.prompt }}',
				imageSize: '={{ $json.size }}',
			},
			items,
		});

		expect(error).toBeUndefined();
		expect(output).toHaveLength(6);
		output.forEach((item, index) => {
			const input = items[index].json;
			expectExactId(item.json);
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({
				status: 'Success',
				input: {
					imageUrl: input.url,
					imageSize: input.size,
					presetId: input.preset || null,
					prompt: input.prompt,
				},
				output: { width: input.width, height: input.height },
			});
		});
		const stats = service.stats();
		// Each output carries the id of the task its own input created: ids in creation order differ.
		expect(new Set(output.map((item) => item.json.id)).size).toBe(6);
		const byId = new Map(stats.tasks.map((task) => [task.id, task]));
		output.forEach((item, index) =>
			expect(byId.get(item.json.id as string)?.output).toEqual({
				width: inputs[index].width,
				height: inputs[index].height,
			}),
		);
		expect(stats.tasksCreated.total).toBe(6);
		expect(service.balance(service.apiKey)).toBe(START_BALANCE - 6 * ENHANCED);
	});

	test('Object Remover: successes, a Failed task, a service error and an invalid item, each in its place', async () => {
		const living = sampleUrl(service, 'living-room.png');
		const mask = sampleUrl(service, 'living-room-mask.png');
		const items = [
			{ json: { url: living, mask } },
			{ json: { url: `${living}?fail=yes`, mask } },
			{ json: { url: 'not a url', mask } },
			{ json: { url: sampleUrl(service, 'kitchen.png'), mask } }, // 1280x960 photo, 1600x1200 mask
			{ json: { url: `${living}?copy=2`, mask } },
		];

		const {
			items: output,
			errorItems,
			error,
		} = await runNode({
			node: 'objectRemover',
			credentials: credentialsFor(service),
			parameters: {
				operation: 'remove',
				imageUrl: '={{ $json.url }}',
				emptyType: 'single_furniture',
				maskSource: 'url',
				maskUrl: '={{ $json.mask }}',
			},
			items,
			onError: 'continueErrorOutput',
		});

		expect(error).toBeUndefined();
		expect(
			output.map((item) => [item.pairedItem, item.json.status, item.json.input, item.json.output]),
		).toEqual([
			[
				{ item: 0 },
				'Success',
				{ imageUrl: living, maskUrl: mask, emptyType: 'single_furniture' },
				expect.objectContaining({ width: 1600, height: 1200 }),
			],
			[
				{ item: 4 },
				'Success',
				{ imageUrl: `${living}?copy=2`, maskUrl: mask, emptyType: 'single_furniture' },
				expect.objectContaining({ width: 1600, height: 1200 }),
			],
		]);
		expect(errorItems.map((item) => item.json.error)).toEqual([
			expect.stringMatching(
				/^Ideal House Object Remover task \d+ ended with status "Failed": its 1 credit was refunded automatically \[item 1\]$/,
			),
			'\'Image URL\' must be an absolute http(s) URL (got "not a url") [item 2]',
			expect.stringContaining('code 1011, a request parameter is missing or not valid'),
		]);
		// (The invalid item's link is not checked: n8n's routing drops it for a preSend error; reported.)
		expect([errorItems[0].pairedItem, errorItems[2].pairedItem]).toEqual([
			{ item: 1 },
			{ item: 3 },
		]);
		// Three tasks created (the invalid item never left n8n, the service refused the odd mask), one refunded.
		const stats = service.stats();
		expect(stats.requests.byEndpoint['objectRemover.generate'].total).toBe(4);
		expect(stats.tasksCreated.total).toBe(3);
		expect(stats.credits).toMatchObject({ charged: 3 * REMOVED, refunded: REMOVED });
		expect(service.balance(service.apiKey)).toBe(START_BALANCE - 2 * REMOVED);
	});
});

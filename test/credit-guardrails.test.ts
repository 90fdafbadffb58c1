/**
 * Credit guardrails in n8n's engine, with nock on the wire: the Credit Limit (also when 50 items
 * go at once, and with an API whose price is not known), Preview (the exact request of every
 * node, and nothing sent), and the stop after the service's first "not enough credits" (9051).
 */
import type { INode } from 'n8n-workflow';

import { givesCreditsBack, type Outcome } from '../nodes/shared/core/outcome';
import { IdealHouseApiError, IdealHouseItemError } from '../nodes/shared/core/errors';
import { logLines, runNode } from './helpers/engine';
import {
	API_KEY,
	BIG_ID,
	DONE,
	OR,
	PE,
	TINY_PNG,
	answerCreates,
	api,
	clock,
	created,
	recorded,
	refuseCreates,
	requestsTo,
	serveTask,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance } from './helpers/params';

const PHOTO = 'https://photos.example.com/listing/room.jpg';
const photos = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		json: { url: `https://photos.example.com/listing/${index}.jpg` },
	}));

/** Photo Enhancer on each item's own photo at 2K, not waiting, with the guardrail `options`. */
const enhanceEach = (options: Record<string, unknown>, parameters: Record<string, unknown> = {}) =>
	enhance({
		imageUrl: '={{ $json.url }}',
		presetId: 'image-optimization-mls-photo-enhancement',
		imageSize: '2K',
		waitForCompletion: false,
		options,
		...parameters,
	});

const body = (index: number) => ({
	imageUrl: `https://photos.example.com/listing/${index}.jpg`,
	presetId: 'image-optimization-mls-photo-enhancement',
	imageSize: '2K',
});

/** Every create answered with the next id, 81, 82, … */
const limitError = (limit: number, spent: number, cost: number, item: number) =>
	`'Credit Limit' of ${limit} credit${limit === 1 ? '' : 's'} reached: this node has already spent ${spent} credit${spent === 1 ? '' : 's'} in this execution, and this item would cost ${cost} credit${cost === 1 ? '' : 's'} [item ${item}]`;

const LIMIT_ADVICE =
	"Nothing was sent or charged for this item. A task counts from its creation (tasks still being created count too) and comes back to the limit when it ends Failed. Raise 'Credit Limit' under 'Options', or run this item in a later execution.";

eachTestOnAFreshWire();

describe('Credit Limit', () => {
	test('a create that would pass it is an item error naming the limit and the spend; nothing is sent for it', async () => {
		answerCreates(2);

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: 25 }),
			items: photos(4),
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		expect(requestsTo(PE.create).map((request) => request.body)).toEqual([body(0), body(1)]);
		expect(items).toEqual([
			{ json: { id: '81', status: 'Unprocessed', creditsCharged: 10 }, pairedItem: { item: 0 } },
			{ json: { id: '82', status: 'Unprocessed', creditsCharged: 10 }, pairedItem: { item: 1 } },
			{
				json: { error: limitError(25, 20, 10, 2), details: { description: LIMIT_ADVICE } },
				pairedItem: { item: 2 },
			},
			{
				json: { error: limitError(25, 20, 10, 3), details: { description: LIMIT_ADVICE } },
				pairedItem: { item: 3 },
			},
		]);
	});

	test('the held-back items go to the error output, the created ones to the main output', async () => {
		serveTask(OR, '91');

		const { items, errorItems } = await runNode({
			node: 'objectRemover',
			parameters: {
				operation: 'remove',
				imageUrl: '={{ $json.url }}',
				waitForCompletion: false,
				options: { creditLimit: 1 },
			},
			items: photos(3),
			onError: 'continueErrorOutput',
		});

		expect(requestsTo(OR.create)).toHaveLength(1);
		expect(items).toEqual([
			{ json: { id: '91', status: 'Unprocessed', creditsCharged: 1 }, pairedItem: { item: 0 } },
		]);
		expect(errorItems).toEqual(
			[1, 2].map((index) => ({
				json: { error: limitError(1, 1, 1, index), details: { description: LIMIT_ADVICE } },
				pairedItem: { item: index },
			})),
		);
	});

	test('without Continue on Fail the node fails with the limit error', async () => {
		answerCreates(1);

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: 10 }),
			items: photos(2),
		});

		expect(error?.message).toBe(limitError(10, 10, 10, 1));
		expect(error?.description).toBe(LIMIT_ADVICE);
		expect(requestsTo(PE.create)).toHaveLength(1);
	});

	test('50 items at once: every create the limit allows is in flight together, and none past it is sent', async () => {
		// The answers are held until nine creates have arrived: all nine were counted before any
		// answer came back, the state in which a check-then-count limit would overshoot.
		const held: Array<() => void> = [];
		let arrived = 0;
		let maxInFlight = 0;
		const releaseAll = () => held.splice(0).forEach((release) => release());
		api()
			.post(PE.create)
			.times(50)
			.reply((_uri, _body, callback) => {
				arrived++;
				maxInFlight = Math.max(maxInFlight, held.length + 1);
				held.push(() => callback(null, [200, created(String(100 + arrived))]));
				if (arrived === 9) releaseAll();
			});

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: 95 }),
			items: photos(50),
			onError: 'continueRegularOutput',
		});

		expect(requestsTo(PE.create)).toHaveLength(9);
		expect(maxInFlight).toBe(9);
		const createdItems = items.filter((item) => item.json.status === 'Unprocessed');
		expect(createdItems.map((item) => item.json.creditsCharged)).toEqual(Array(9).fill(10));
		const refused = items.filter((item) => item.json.error !== undefined);
		expect(refused).toHaveLength(41);
		for (const item of refused) {
			const index = (item.pairedItem as { item: number }).item;
			expect(item.json.error).toBe(limitError(95, 90, 10, index));
		}
	});

	test('a create the service refuses gives its credits back to the items behind it', async () => {
		// One request a second: each item is counted when its turn comes, after the answer before it.
		refuseCreates(PE, 1011, 'image too small');
		serveTask(PE, '83');

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: 10, maxRequestsPerSecond: 1 }),
			items: photos(3),
			onError: 'continueRegularOutput',
		});

		expect(requestsTo(PE.create).map((request) => request.body)).toEqual([body(0), body(1)]);
		expect(items.map((item) => item.json.error ?? item.json.id)).toEqual([
			'Ideal House answered code 1011, a request parameter is missing or not valid: "image too small" [item 0]',
			'83',
			limitError(10, 10, 10, 2),
		]);
		expect(clock.sleeps).toEqual([1000, 1000]);
	});

	test('prices by model type: a Pro task counts 10, a Flash task 1', async () => {
		api()
			.post('/api/v1/magicEditor/generate')
			.times(2)
			.reply(200, () => created('84'));

		const { items } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'magicEditor',
				operation: 'create',
				imageUrl: PHOTO,
				prompt: 'Remove the car',
				modelType: '={{ $json.model }}',
				waitForCompletion: false,
				options: { creditLimit: 12, maxRequestsPerSecond: 1 },
			},
			items: [
				{ json: { model: 'Pro' } },
				{ json: { model: 'Flash' } },
				{ json: { model: 'Base' } },
			],
			onError: 'continueRegularOutput',
		});

		expect(recorded.map((request) => (request.body as { modelType: string }).modelType)).toEqual([
			'Pro',
			'Flash',
		]);
		expect(items.map((item) => item.json.error ?? item.json.creditsCharged)).toEqual([
			10,
			1,
			limitError(12, 11, 3, 2),
		]);
	});

	test('with a limit, an API whose price is not known is refused and says why; without one it is sent', async () => {
		const custom = (apiName: string, options: Record<string, unknown>) => ({
			resource: 'custom',
			operation: 'create',
			apiName,
			extraBody: `{"imageUrl": "${PHOTO}"}`,
			waitForCompletion: false,
			options,
		});

		const refused = await runNode({
			node: 'idealHouse',
			parameters: custom('imageToVideo', { creditLimit: 100 }),
			onError: 'continueRegularOutput',
		});

		expect(recorded).toEqual([]);
		expect(refused.items).toEqual([
			{
				json: {
					error:
						'\'Credit Limit\' cannot be kept for the "imageToVideo" API: its price is not known, so this item cannot be counted against the limit [item 0]',
					details: {
						description:
							"Nothing was sent or charged for this item. To call an API whose price Ideal House does not publish, set 'Credit Limit' to 0 (no limit) on this node.",
					},
				},
				pairedItem: { item: 0 },
			},
		]);

		api().post('/api/v1/imageToVideo/generate').reply(200, created('85'));
		api().post('/api/v1/virtualStaging/generate').reply(200, created('86'));
		const unlimited = await runNode({
			node: 'idealHouse',
			parameters: custom('imageToVideo', {}),
		});
		// A listed API called by its name keeps its price, so the limit can count it.
		const listed = await runNode({
			node: 'idealHouse',
			parameters: custom('virtualStaging', { creditLimit: 1 }),
		});

		expect(recorded.map((request) => request.path)).toEqual([
			'/api/v1/imageToVideo/generate',
			'/api/v1/virtualStaging/generate',
		]);
		expect(unlimited.items[0].json).toEqual({
			id: '85',
			status: 'Unprocessed',
			creditsCharged: null,
		});
		expect(listed.items[0].json).toEqual({ id: '86', status: 'Unprocessed', creditsCharged: 1 });
	});

	test('a limit that is not a number of 0 or more is a field error; nothing is sent', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: '={{ -5 }}' }),
			items: photos(1),
			onError: 'continueRegularOutput',
		});

		expect(recorded).toEqual([]);
		expect(items[0].json).toEqual({
			error: "'Credit Limit' must be a number of credits, 0 or more (got -5) [item 0]",
			details: {
				description:
					'0 means no limit. An expression here must give a number. Nothing was sent or charged.',
			},
		});
	});

	test('each execution has its own count', async () => {
		answerCreates(2);

		const first = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: 10 }),
			items: photos(1),
		});
		const second = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: 10 }),
			items: photos(1),
		});

		expect([first.items[0].json.id, second.items[0].json.id]).toEqual(['81', '82']);
	});

	describe('which failed creates give their credits back', () => {
		const node = { name: 'Ideal House', type: 'n8n-nodes-ideal-house.photoEnhancer' } as INode;
		const apiError = (outcome: Outcome) =>
			new IdealHouseApiError(node, { message: 'x' }, { message: 'x' }, outcome);
		const itemError = (outcome: Outcome) => new IdealHouseItemError(node, 'x', {}, outcome);

		test.each([
			[
				'a task that ended Failed (the service refunded it)',
				apiError({ kind: 'finished', taskId: '1', creditsCharged: 0, refunded: true }),
				true,
			],
			[
				'the service refused the create (9051, 1011 …)',
				apiError({ kind: 'refused', apiCode: 9051 }),
				true,
			],
			[
				'HTTP 429 after the last attempt',
				apiError({ kind: 'refused', retry: { reason: 'HTTP 429' } }),
				true,
			],
			['Stop before the request left', itemError({ kind: 'neverSent', stopped: true }), true],
			[
				'a task that exists (timeout, Stop while waiting)',
				itemError({ kind: 'created', taskId: '1', stopped: true }),
				false,
			],
			['an answer without a usable task id', apiError({ kind: 'maybeActed' }), false],
			[
				'HTTP 502 (the service may have acted)',
				apiError({ kind: 'maybeActed', retry: { reason: 'HTTP 502' } }),
				false,
			],
			['Stop after the request left', itemError({ kind: 'maybeActed', stopped: true }), false],
		])('%s', (_case, error, back) => {
			expect(givesCreditsBack(error.outcome)).toBe(back);
		});
	});
});

describe('Preview', () => {
	afterEach(() => {
		// Nothing was asked of the service: no create, no status check, no download.
		expect(recorded).toEqual([]);
		expect(logLines.filter((line) => / task \d+ created /.test(line))).toEqual([]);
	});
	beforeEach(() => logLines.splice(0));

	test('Photo Enhancer: the exact create of every item and its price', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ preview: true }, { waitForCompletion: true }),
			items: photos(2),
		});

		expect(items).toEqual(
			[0, 1].map((index) => ({
				json: { preview: { method: 'POST', path: PE.create, body: body(index), credits: 10 } },
				pairedItem: { item: index },
			})),
		);
	});

	test('Object Remover: Whole House, and Single Furniture with its mask from a binary file', async () => {
		const { items } = await runNode({
			node: 'objectRemover',
			parameters: {
				operation: 'remove',
				imageUrl: PHOTO,
				emptyType: '={{ $json.mode }}',
				maskSource: 'binary',
				maskBinaryProperty: 'mask',
				options: { preview: true, downloadResult: true },
			},
			items: [
				{ json: { mode: 'whole_house' } },
				{
					json: { mode: 'single_furniture' },
					binary: { mask: { data: TINY_PNG.toString('base64'), mimeType: 'image/png' } },
				},
			],
		});

		expect(items.map((item) => item.json)).toEqual([
			{
				preview: {
					method: 'POST',
					path: OR.create,
					body: { imageUrl: PHOTO, emptyType: 'whole_house' },
					credits: 1,
				},
			},
			{
				preview: {
					method: 'POST',
					path: OR.create,
					body: {
						imageUrl: PHOTO,
						emptyType: 'single_furniture',
						maskBase64: TINY_PNG.toString('base64'),
					},
					credits: 1,
				},
			},
		]);
		expect(items.every((item) => item.binary === undefined)).toBe(true);
	});

	test('Ideal House AI: the body each API would get, priced by model type, null where unknown', async () => {
		const preview = async (resource: string, parameters: Record<string, unknown>) => {
			const { items } = await runNode({
				node: 'idealHouse',
				parameters: {
					resource,
					operation: 'create',
					imageUrl: PHOTO,
					options: { preview: true },
					...parameters,
				},
			});
			return items.map((item) => item.json);
		};

		expect(await preview('magicEditor', { prompt: 'Remove the car', modelType: 'Pro' })).toEqual([
			{
				preview: {
					method: 'POST',
					path: '/api/v1/magicEditor/generate',
					body: { imageUrl: PHOTO, prompt: 'Remove the car', modelType: 'Pro' },
					credits: 10,
				},
			},
		]);
		expect(await preview('landscaping', { modelType: '' })).toEqual([
			{
				preview: {
					method: 'POST',
					path: '/api/v1/landscaping/generate',
					body: { imageUrl: PHOTO },
					credits: 3,
				},
			},
		]);
		expect(
			await preview('custom', {
				apiName: 'imageToVideo',
				extraBody: `{"imageUrl": "${PHOTO}", "seconds": 5}`,
			}),
		).toEqual([
			{
				preview: {
					method: 'POST',
					path: '/api/v1/imageToVideo/generate',
					body: { imageUrl: PHOTO, seconds: 5 },
					credits: null,
				},
			},
		]);
	});

	test('Get Result: the status read it would send, free', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: ` ${BIG_ID} `, options: { preview: true } },
		});

		expect(items).toEqual([
			{
				json: {
					preview: {
						method: 'GET',
						path: PE.result,
						qs: { taskId: BIG_ID },
						body: null,
						credits: 0,
					},
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('items are checked as a real run checks them: a bad field, and the Credit Limit', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ preview: true, creditLimit: 20 }),
			items: [...photos(1), { json: { url: 'not a url' } }, ...photos(3).slice(1)],
			onError: 'continueRegularOutput',
		});

		expect(items.map((item) => item.json.error ?? item.json.preview)).toEqual([
			{ method: 'POST', path: PE.create, body: body(0), credits: 10 },
			'\'Image URL\' must be an absolute http(s) URL (got "not a url") [item 1]',
			{ method: 'POST', path: PE.create, body: body(1), credits: 10 },
			limitError(20, 20, 10, 3),
		]);
	});

	test('the API key is never in it, even where a user pasted it into a field', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ preview: true }, { prompt: `key ${API_KEY} here` }),
			items: photos(1),
		});

		expect(JSON.stringify(items)).not.toContain(API_KEY);
		expect(items[0].json.preview).toEqual({
			method: 'POST',
			path: PE.create,
			body: { ...body(0), prompt: 'key [redacted] here' },
			credits: 10,
		});
	});
});

describe('the first "not enough credits" stops the creates not yet sent', () => {
	const TOP_UP = 'Top up credits in your Ideal House account. Then run the node again.';
	/** The item whose create the service answered with 9051. */
	const refused = (index: number) =>
		`Ideal House refused the task: the account does not have enough credits: code 9051, "coins not enough" [item ${index}]`;
	/** An item held back after it. */
	const heldBack = (index: number) =>
		`Ideal House refused an earlier task of this execution: the account does not have enough credits (code 9051), so this item was not sent [item ${index}]`;

	test('at one request a second, the items waiting their turn are not sent, each with the 9051 error', async () => {
		refuseCreates(PE, 9051, 'coins not enough');

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ maxRequestsPerSecond: 1 }),
			items: photos(4),
			onError: 'continueRegularOutput',
		});

		expect(recorded.map((request) => request.body)).toEqual([body(0)]);
		expect(items).toEqual([
			{
				json: {
					error: refused(0),
					details: { description: `Nothing was created or charged for this item. ${TOP_UP}` },
				},
				pairedItem: { item: 0 },
			},
			...[1, 2, 3].map((index) => ({
				json: {
					error: heldBack(index),
					details: { description: `Nothing was sent or charged for this item. ${TOP_UP}` },
				},
				pairedItem: { item: index },
			})),
		]);
		// Item 1 waited its turn (1 s after the answer) and was held back then; the slots it and
		// the others did not use went on at once.
		expect(clock.sleeps).toEqual([1000]);
	});

	test('with a Credit Limit set too; the next execution sends again', async () => {
		refuseCreates(PE, 9051, 'coins not enough');
		serveTask(PE, '87');

		const first = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ maxRequestsPerSecond: 1, creditLimit: 10 }),
			items: photos(2),
			onError: 'continueRegularOutput',
		});
		const next = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ maxRequestsPerSecond: 1, creditLimit: 10 }),
			items: photos(1),
		});

		expect(first.items.map((item) => item.json.error)).toEqual([refused(0), heldBack(1)]);
		expect(recorded.map((request) => request.body)).toEqual([body(0), body(0)]);
		expect(next.items[0].json).toEqual({ id: '87', status: 'Unprocessed', creditsCharged: 10 });
	});

	test('status checks of tasks already created go on', async () => {
		serveTask(PE, '88', DONE);
		refuseCreates(PE, 9051, 'coins not enough');

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ maxRequestsPerSecond: 1 }, { waitForCompletion: true }),
			items: photos(3),
			onError: 'continueRegularOutput',
		});

		expect(recorded.map((request) => `${request.method} ${request.path}`)).toEqual([
			`POST ${PE.create}`,
			`POST ${PE.create}`,
			`GET ${PE.result}`,
		]);
		expect(items.map((item) => item.json.error ?? item.json.status)).toEqual([
			'Success',
			refused(1),
			heldBack(2),
		]);
	});
});

import type { IDataObject } from 'n8n-workflow';

import type { RunningService } from '../../service/server.ts';
import { logLines, runNode, type NodeName, type RunResult } from '../helpers/engine';
import { credentialsFor, eachTestOnTheLocalService, sampleUrl } from './helpers';

// Made-up API keys nobody else uses, so that a leak cannot hide behind a common word.
const ACCOUNT = 'e2e-secret-key-4b1d9c0e';
const POOR_ACCOUNT = 'e2e-poor-key-7a2e51f3';
const UNKNOWN_ACCOUNT = 'e2e-wrong-key-c93d08aa';
const START = 1000;

let service: RunningService;

eachTestOnTheLocalService({ accounts: { [ACCOUNT]: START } }, (started) => (service = started));

function run(
	node: NodeName,
	parameters: IDataObject,
	extra: { apiKey?: string; onError?: 'continueErrorOutput' } = {},
) {
	const operation = node === 'photoEnhancer' ? 'enhance' : 'remove';
	return runNode({
		node,
		credentials: credentialsFor(service, extra.apiKey ?? ACCOUNT),
		parameters: { operation, ...parameters },
		onError: extra.onError,
	});
}

const living = () => sampleUrl(service, 'living-room.png');

function expectNoSecret(result: RunResult) {
	const text = JSON.stringify(result.run);
	for (const key of [ACCOUNT, POOR_ACCOUNT, UNKNOWN_ACCOUNT]) expect(text).not.toContain(key);
}

/** The service answered the create once, created nothing and charged nothing. */
function expectRejectedCreate(kind: NodeName, apiKey = ACCOUNT, balance = START) {
	const stats = service.stats();
	expect(stats.requests.byEndpoint).toEqual({
		[`${kind}.generate`]: { total: 1, byStatus: { '200': 1 } },
	});
	expect(stats.tasksCreated.total).toBe(0);
	expect(stats.credits).toMatchObject({ charged: 0, refunded: 0 });
	expect(service.balance(apiKey)).toBe(balance);
}

describe('a task that ends Failed is an item error, and its credits come back', () => {
	test('Photo Enhancer: the node error says 10 credits were refunded, and they were', async () => {
		const result = await run('photoEnhancer', {
			imageUrl: `${living()}?fail=1`,
			presetId: 'image-optimization-mls-photo-enhancement',
			imageSize: '512',
		});

		const [task] = service.stats().tasks;
		expect(task).toMatchObject({ status: 'Failed', cost: 10, refunded: true });
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe(
			`Ideal House Photo Enhancer task ${task.id} ended with status "Failed": its 10 credits were refunded automatically [item 0]`,
		);
		expect(service.stats().credits).toMatchObject({ charged: 10, refunded: 10 });
		expect(service.balance(ACCOUNT)).toBe(START);
		expectNoSecret(result);
	});

	test('Object Remover, error output: the error item keeps the task id and its cost, now 0', async () => {
		const result = await run(
			'objectRemover',
			{ imageUrl: `${living()}?fail=1`, emptyType: 'whole_house' },
			{ onError: 'continueErrorOutput' },
		);

		const [task] = service.stats().tasks;
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		expect(result.errorItems).toEqual([
			{
				json: {
					error: `Ideal House Object Remover task ${task.id} ended with status "Failed": its 1 credit was refunded automatically [item 0]`,
					details: {
						description: expect.stringContaining('could not process this image'),
						id: task.id,
						creditsCharged: 0,
					},
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(service.stats().credits).toMatchObject({ charged: 1, refunded: 1 });
		expect(service.balance(ACCOUNT)).toBe(START);
	});
});

describe('every error code a node can meet: worded by the node, nothing charged', () => {
	test('5002: a key the service does not know', async () => {
		const result = await run(
			'photoEnhancer',
			{ imageUrl: living(), presetId: 'sky-replacement-sunset-sky' },
			{ apiKey: UNKNOWN_ACCOUNT },
		);

		expect(result.error?.message).toBe(
			'Ideal House answered code 5002, the API key is missing or not valid: "invalid API key" [item 0]',
		);
		expect(result.error?.description).toMatch(
			/Check the API key in the "Ideal House API" credential/,
		);
		expectRejectedCreate('photoEnhancer');
		expectNoSecret(result);
	});

	test.each<[NodeName, IDataObject, number, number]>([
		['photoEnhancer', { presetId: 'sky-replacement-sunset-sky' }, 5, 10],
		['objectRemover', { emptyType: 'whole_house' }, 0, 1],
	])('9051: %s on an account with too few credits', async (node, parameters, balance, cost) => {
		service.setAccount(POOR_ACCOUNT, balance);

		const result = await run(node, { imageUrl: living(), ...parameters }, { apiKey: POOR_ACCOUNT });

		expect(result.error?.message).toBe(
			`Ideal House refused the task: the account does not have enough credits: code 9051, "insufficient credits: this task costs ${cost}, the balance is ${balance}" [item 0]`,
		);
		expect(result.error?.description).toMatch(/Nothing was created or charged.*Top up credits/);
		expectRejectedCreate(node, POOR_ACCOUNT, balance);
		expectNoSecret(result);
	});

	test('9010: a banned word in the prompt', async () => {
		const result = await run('photoEnhancer', {
			imageUrl: living(),
			prompt: 'Make it nsfw please',
		});

		expect(result.error?.message).toBe(
			'Ideal House answered code 9010, the prompt did not pass the text review: "prompt failed text review (contains "nsfw")" [item 0]',
		);
		expect(result.error?.description).toMatch(/Rephrase the prompt/);
		expectRejectedCreate('photoEnhancer');
	});

	test.each<[NodeName, () => IDataObject]>([
		[
			'photoEnhancer',
			() => ({
				imageUrl: living(),
				presetId: 'sky-replacement-sunset-sky',
				prompt: 'Add a pool [reject]',
			}),
		],
		['objectRemover', () => ({ imageUrl: `${living()}?tag=[reject]`, emptyType: 'whole_house' })],
	])('9038 on %s: the reject phrase', async (node, parameters) => {
		const result = await run(node, parameters());

		expect(result.error?.message).toBe(
			'Ideal House answered code 9038, the generated image did not pass the content review: "generated image content was rejected (PROHIBITED_CONTENT)" [item 0]',
		);
		expect(result.error?.description).toMatch(/Try a different image, preset or prompt/);
		expectRejectedCreate(node);
	});

	test.each<[string, NodeName, () => IDataObject, () => string]>([
		[
			'an image below 128 px (tiny.png)',
			'photoEnhancer',
			() => ({ imageUrl: sampleUrl(service, 'tiny.png'), presetId: 'sky-replacement-sunset-sky' }),
			() =>
				`imageUrl (${sampleUrl(service, 'tiny.png')}) is 64x64 px; images must be at least 128x128 px`,
		],
		[
			'a file that is not an image',
			'photoEnhancer',
			() => ({
				imageUrl: sampleUrl(service, 'not-an-image.png'),
				presetId: 'sky-replacement-sunset-sky',
			}),
			() => `imageUrl (${sampleUrl(service, 'not-an-image.png')}) is not a JPEG, PNG or WebP image`,
		],
		[
			'a mask whose size differs from the photo',
			'objectRemover',
			() => ({
				imageUrl: living(),
				emptyType: 'single_furniture',
				maskSource: 'url',
				maskUrl: sampleUrl(service, 'tiny.png'),
			}),
			() =>
				'the mask is 64x64 px but the image is 1600x1200 px; they must have the same dimensions',
		],
	])('1011: %s', async (_name, node, parameters, serviceMessage) => {
		const result = await run(node, parameters());

		expect(result.error?.message).toBe(
			`Ideal House answered code 1011, a request parameter is missing or not valid: "${serviceMessage()}" [item 0]`,
		);
		expect(result.error?.description).toMatch(/Fix the parameter the service message names/);
		expectRejectedCreate(node);
	});

	test('1001: Get Result for a task id the account does not have', async () => {
		const taskId = '9007199254740993123';

		const result = await runNode({
			node: 'objectRemover',
			credentials: credentialsFor(service, ACCOUNT),
			parameters: { operation: 'getResult', taskId },
		});

		expect(result.error?.message).toBe(
			`Ideal House answered code 1001, the request was not carried out: "task not found: ${taskId}" [item 0]`,
		);
		expect(service.stats().requests.byEndpoint).toEqual({
			'objectRemover.result': { total: 1, byStatus: { '200': 1 } },
		});
	});
});

describe('the API key stays out of what n8n keeps', () => {
	test('a successful run, with the result downloaded', async () => {
		const result = await run('objectRemover', {
			imageUrl: living(),
			emptyType: 'whole_house',
			options: { downloadResult: true },
		});

		expect(result.items[0].json.status).toBe('Success');
		expectNoSecret(result);
	});

	test('an error run (error output)', async () => {
		const result = await run(
			'photoEnhancer',
			{ imageUrl: sampleUrl(service, 'tiny.png'), prompt: 'Brighten' },
			{ onError: 'continueErrorOutput' },
		);

		expect(result.errorItems[0].json.error).toMatch(/1011/);
		expectNoSecret(result);
	});

	test('nor anything n8n or the nodes logged in this file', () => {
		expect(logLines.length).toBeGreaterThan(0);
		const log = logLines.join('\n');
		for (const key of [ACCOUNT, POOR_ACCOUNT, UNKNOWN_ACCOUNT]) expect(log).not.toContain(key);
	});
});

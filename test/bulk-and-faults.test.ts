import nock from 'nock';

import { clock as nodeClock } from '../nodes/shared/basics/clock';
import { RequestBudget } from '../nodes/shared/transport/throttle';
import { logLines, runNode } from '../dev/harness/engine';
import {
	BIG_ID,
	OR,
	PE,
	api,
	clock,
	created,
	envelope,
	recorded,
	requestsTo,
	resetWire,
	taskResponse,
} from './helpers/api';

const enhance = (parameters: Record<string, unknown> = {}) => ({
	operation: 'enhance',
	imageUrl: 'https://photos.example.com/a.jpg',
	presetId: 'exterior-enhancement-curb-appeal',
	...parameters,
});

beforeEach(resetWire);
afterAll(() => nock.restore());

describe('a create is retried only when the task certainly was not created', () => {
	test.each([
		[
			'HTTP 429 (Retry-After honoured)',
			(scope: nock.Interceptor) => scope.reply(429, 'Too Many Requests', { 'Retry-After': '9' }),
			[9000],
		],
		[
			'code 1003',
			(scope: nock.Interceptor) => scope.reply(200, envelope('null', 1003, 'busy')),
			[2000],
		],
		[
			'a refused connection',
			(scope: nock.Interceptor) =>
				scope.replyWithError(
					Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
				),
			[2000],
		],
	])('%s: one more create, one task', async (_name, fault, expectedWaits) => {
		const scope = api();
		fault(scope.post(PE.create));
		scope
			.post(PE.create)
			.reply(200, created('61'))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('61'));

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false }),
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({ id: '61', status: 'Unprocessed', creditsCharged: 10 });
		expect(requestsTo(PE.create)).toHaveLength(2);
		expect(recorded[1].body).toEqual(recorded[0].body);
		expect(clock.sleeps).toEqual(expectedWaits);
	});

	test.each([
		['HTTP 502', (scope: nock.Interceptor) => scope.reply(502, 'Bad Gateway')],
		[
			'HTTP 500 with an envelope',
			(scope: nock.Interceptor) => scope.reply(500, envelope('null', 1001, 'oops')),
		],
		[
			'HTTP 502 carrying a 1003 body (a gateway: the service may have acted)',
			(scope: nock.Interceptor) => scope.reply(502, envelope('null', 1003, 'upstream')),
		],
		[
			'a reset connection',
			(scope: nock.Interceptor) =>
				scope.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
		],
		[
			'a truncated body',
			(scope: nock.Interceptor) => scope.reply(200, '{"code":0,"message":"ok","data":18392019'),
		],
	])(
		'%s: no second create (it could charge twice), and the error says the task may exist',
		async (_name, fault) => {
			const scope = api();
			fault(scope.post(PE.create));
			scope.post(PE.create).reply(200, created('62'));

			const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

			expect(requestsTo(PE.create)).toHaveLength(1);
			expect(error?.description).toContain('may have been created and charged');
			expect(clock.sleeps).toEqual([]);
		},
	);

	test('gives up after five refused attempts, backing off 2, 4, 8, 16 s', async () => {
		api().post(OR.create).times(5).reply(429, 'Too Many Requests');

		const { error } = await runNode({
			node: 'objectRemover',
			parameters: { operation: 'remove', imageUrl: 'https://photos.example.com/a.jpg' },
		});

		expect(error?.message).toBe('Ideal House answered HTTP 429: Too Many Requests');
		expect(requestsTo(OR.create)).toHaveLength(5);
		expect(clock.sleeps).toEqual([2000, 4000, 8000, 16000]);
	});

	test('Get Result is a read: retried on any passing fault', async () => {
		api()
			.get(PE.result)
			.query(true)
			.reply(503, 'busy')
			.get(PE.result)
			.query(true)
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('63'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '63' },
		});

		expect(items[0].json).toMatchObject({ id: '63', status: 'Success', creditsCharged: 10 });
		expect(requestsTo(PE.result)).toHaveLength(3);
	});
});

describe('bulk runs', () => {
	test('requests share a per-execution budget: never more than the limit in any second', () => {
		let now = 0;
		nodeClock.now = () => now;
		const budget = new RequestBudget(2);
		// Two in flight: the third waits for an answer, however long it takes.
		expect([1, 2, 3].map(() => budget.tryTake())).toEqual([0, 0, Infinity]);
		now = 300;
		budget.answered();
		budget.answered();
		// Answered at 300: each counts until 1300, whenever the request itself arrived.
		expect(budget.tryTake()).toBe(1000);
		now = 1300;
		expect([1, 2].map(() => budget.tryTake())).toEqual([0, 0]);
		expect(budget.tryTake()).toBe(Infinity);
		now = 1400;
		budget.answered();
		now = 1900;
		budget.answered();
		now = 2400; // one answer is a second old: one more may go, not two
		expect([1, 2].map(() => budget.tryTake())).toEqual([0, 500]);
		now = 0;
		const slow = new RequestBudget(0.5); // one request every 2 s
		expect(slow.tryTake()).toBe(0);
		slow.answered();
		expect(slow.tryTake()).toBe(2000);
	});

	test('the Max Requests per Second option makes the items past the limit wait their turn', async () => {
		let now = 0;
		const sleeps: number[] = [];
		nodeClock.now = () => now;
		nodeClock.sleep = async (ms: number) => {
			sleeps.push(ms);
			now += ms;
		};
		const arrivals: number[] = [];
		api()
			.post(PE.create)
			.times(8)
			.reply(() => {
				// The first batch reaches the service late, as it does at the start of a busy run.
				if (arrivals.length < 4) now = Math.max(now, 900);
				arrivals.push(now);
				return [200, created('64')];
			});

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false, options: { maxRequestsPerSecond: 4 } }),
			items: Array.from({ length: 8 }, () => ({ json: {} })),
		});

		expect(items).toHaveLength(8);
		expect(requestsTo(PE.create)).toHaveLength(8);
		// The first four went at once; the fifth waited until an answer was a second old, so no
		// second at the service ever saw more than four.
		expect(arrivals.slice(0, 4)).toEqual([900, 900, 900, 900]);
		expect(arrivals[4]).toBeGreaterThanOrEqual(1900);
		for (const at of arrivals) {
			expect(
				arrivals.filter((other) => other > at - 1000 && other <= at).length,
			).toBeLessThanOrEqual(4);
		}
		expect(sleeps[0]).toBe(1000);
		// (The budget itself is checked exactly, request by request, in the test above.)
	});

	test('polls are spread by up to ±0.5 s around the interval, never leaving 3–5 s', async () => {
		for (const [random, interval, expected] of [
			[0, 4, 3500],
			[1, 4, 4500],
			[0, 3, 3000],
			[1, 5, 5000],
		]) {
			resetWire();
			nodeClock.random = () => random;
			api()
				.post(PE.create)
				.reply(200, created('65'))
				.get(PE.result)
				.query(true)
				.reply(200, taskResponse('65'));
			await runNode({
				node: 'photoEnhancer',
				parameters: enhance({ options: { pollInterval: interval } }),
			});
			expect(clock.sleeps).toEqual([expected]);
		}
	});

	test('one failed item neither stalls nor fails the others', async () => {
		const scope = api();
		scope
			.post(PE.create)
			.times(3)
			.reply(200, (_uri, body) =>
				(body as { imageUrl: string }).imageUrl.includes('broke')
					? envelope('null', 1011, 'image too small')
					: created('66'),
			);
		scope.get(PE.result).query(true).times(2).reply(200, taskResponse('66'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: '={{ $json.url }}' }),
			items: [
				{ json: { url: 'https://p.example.com/1.jpg' } },
				{ json: { url: 'https://p.example.com/broke.jpg' } },
				{ json: { url: 'https://p.example.com/3.jpg' } },
			],
			onError: 'continueRegularOutput',
		});

		expect(items.map((item) => item.json.status ?? 'error')).toEqual([
			'Success',
			'error',
			'Success',
		]);
		expect(items[1].json.error).toMatch(/1011 \(PARAM_ERROR\).*image too small/);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

describe('what a task cost, and timeouts', () => {
	test('a Failed task is not a success: nothing on the success output', async () => {
		api()
			.post(OR.create)
			.reply(200, created('67'))
			.get(OR.result)
			.query(true)
			.reply(200, taskResponse('67', { status: 'Failed' }));

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: { operation: 'remove', imageUrl: 'https://photos.example.com/a.jpg' },
			onError: 'continueErrorOutput',
		});

		expect(items).toEqual([]);
	});

	test('on the error output too, a Failed task keeps its id, cost 0 and link', async () => {
		api()
			.post(OR.create)
			.reply(200, created('68'))
			.get(OR.result)
			.query(true)
			.reply(200, taskResponse('68', { status: 'Failed' }));

		const { errorItems } = await runNode({
			node: 'objectRemover',
			parameters: { operation: 'remove', imageUrl: 'https://photos.example.com/a.jpg' },
			onError: 'continueErrorOutput',
		});

		expect(errorItems).toHaveLength(1);
		expect(errorItems[0].json).toEqual({
			error: 'Ideal House Object Remover task 68 failed. Its 1 credit was refunded automatically',
			details: {
				id: '68',
				creditsCharged: 0,
				description: expect.stringContaining('could not process this image'),
			},
		});
		expect(errorItems[0].pairedItem).toEqual({ item: 0 });
	});

	test('a timed-out item that fails still says which task was paid for', async () => {
		const scope = api().post(PE.create).reply(200, created('69'));
		scope
			.get(PE.result)
			.query(true)
			.times(10)
			.reply(200, taskResponse('69', { status: 'Processing', percentage: 80 }));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 8 } }),
			onError: 'continueRegularOutput',
		});

		expect(items[0].json).toEqual({
			error: 'Task 69 did not finish within 8 s (last status Processing, 80%)',
			details: {
				id: '69',
				creditsCharged: 10,
				description: expect.stringContaining('Get Result operation and task ID 69'),
			},
		});
	});

	test('On Timeout "Output the Last Status" emits the task as last seen, to finish later', async () => {
		const scope = api().post(PE.create).reply(200, created('70'));
		scope
			.get(PE.result)
			.query(true)
			.times(10)
			.reply(200, taskResponse('70', { status: 'Processing', percentage: 80 }));

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 8, onTimeout: 'returnLastStatus' } }),
		});

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: {
					id: '70',
					status: 'Processing',
					waitNumber: 0,
					percentage: 80,
					input: {},
					output: null,
					creditsCharged: 10,
				},
				pairedItem: { item: 0 },
			},
		]);
		// At 4 s (80 % points at 5 s), 3 s later (still 80 %: progress says nothing any more),
		// and at the 8 s deadline.
		expect(requestsTo(PE.result)).toHaveLength(3);
		expect(clock.sleeps).toEqual([4000, 3000, 1000]);
	});
});

describe("a created task's id is in n8n's log before the node waits for it", () => {
	const createdLines = () =>
		logLines
			.filter((line) => line.startsWith('info Ideal House ') && / task \d+ created /.test(line))
			.map((line) => ({
				message: line.slice(0, line.indexOf(' {')),
				meta: JSON.parse(line.slice(line.indexOf(' {') + 1)),
			}));

	beforeEach(() => logLines.splice(0));

	test('every create logs the exact id, execution, node and item, also when the wait never ends', async () => {
		const scope = api()
			.post(OR.create)
			.reply(200, created(BIG_ID))
			.post(OR.create)
			.reply(200, created('71'));
		scope.get(OR.result).query({ taskId: '71' }).reply(200, taskResponse('71'));
		// The first task never finishes: its item fails on the timeout, and the log still holds its id.
		scope
			.get(OR.result)
			.query({ taskId: BIG_ID })
			.times(10)
			.reply(200, taskResponse(BIG_ID, { status: 'Processing' }));

		const { items, executionId } = await runNode({
			node: 'objectRemover',
			parameters: {
				operation: 'remove',
				imageUrl: '={{ $json.url }}',
				emptyType: 'whole_house',
				options: { timeout: 8 },
			},
			items: [
				{ json: { url: 'https://photos.example.com/a.jpg' } },
				{ json: { url: 'https://photos.example.com/b.jpg' } },
			],
			onError: 'continueRegularOutput',
		});

		expect(items.map((item) => item.json.id ?? (item.json.details as { id: string }).id)).toEqual([
			BIG_ID,
			'71',
		]);
		const common = { kind: 'objectRemover', node: 'Ideal House', executionId, workflowId: 'wf-1' };
		expect(createdLines().sort((a, b) => a.meta.itemIndex - b.meta.itemIndex)).toEqual([
			{
				message: `info Ideal House Object Remover task ${BIG_ID} created (execution ${executionId}, workflow wf-1, node "Ideal House", item 0)`,
				meta: { taskId: BIG_ID, itemIndex: 0, ...common },
			},
			{
				message: `info Ideal House Object Remover task 71 created (execution ${executionId}, workflow wf-1, node "Ideal House", item 1)`,
				meta: { taskId: '71', itemIndex: 1, ...common },
			},
		]);
	});

	test('a create that fails logs nothing', async () => {
		api()
			.post(PE.create)
			.reply(200, envelope('null', 9051, 'coins not enough'));

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			onError: 'continueRegularOutput',
		});

		expect(createdLines()).toEqual([]);
	});
});

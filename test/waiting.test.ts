/**
 * Waiting for a task, as a user meets it: the wait ends in a verdict (Success, Failed, the
 * Timeout, Stop), the wait options are checked before anything is sent and cannot flood the
 * service, an unknown status ends the wait after a short grace, what a task cost stays on the
 * item, and a created task's id is in n8n's log before the node waits for it.
 */
import { logLines, runNode } from './helpers/engine';
import {
	BIG_ID,
	DONE,
	OR,
	PE,
	api,
	clock,
	created,
	envelope,
	quietAfterStop,
	recorded,
	refuseCreates,
	requestsTo,
	running,
	serveTask,
	taskResponse,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance } from './helpers/params';
import { runStoppedInWait } from './helpers/run';

eachTestOnAFreshWire();

describe('waiting ends in a verdict', () => {
	test('a timeout fails the item with the task id, so the paid task can be fetched later', async () => {
		serveTask(PE, BIG_ID, { ...running(30), times: 100 });

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 20, pollInterval: 5 } }),
		});

		expect(error?.message).toBe(
			`Task ${BIG_ID} did not finish within 20 s (last status Processing, 30%) [item 0]`,
		);
		expect(error?.description).toContain(`Get Result operation and task ID ${BIG_ID}`);
		// 30 % at 5 s and still at 10 s: stalled progress predicts nothing, so polls at 5, 10, 15
		// and 20 s, then gives up.
		expect(requestsTo(PE.result)).toHaveLength(4);
		expect(clock.sleeps).toEqual([5000, 5000, 5000, 5000]);
	});

	test('a Poll Interval above 5 s still checks every 5 s, as Ideal House asks', async () => {
		serveTask(PE, BIG_ID, { ...running(30), times: 100 });

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 20, pollInterval: 100 } }),
		});

		expect(clock.sleeps).toEqual([5000, 5000, 5000, 5000]);
	});

	test('passing faults while polling are retried until the task finishes', async () => {
		serveTask(PE, '900');
		api()
			.get(PE.result)
			.query(true)
			.reply(503, 'Service Unavailable')
			.get(PE.result)
			.query(true)
			.reply(429, 'slow down', { 'Retry-After': '12' })
			.get(PE.result)
			.query(true)
			.reply(200, envelope('null', 1003, 'busy'))
			.get(PE.result)
			.query(true)
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
			.get(PE.result)
			.query(true)
			.reply(200, '{"code":0,"message":"ok","data":{"id":900,"sta')
			.get(PE.result)
			.query(true)
			.reply(200, taskResponse('900'));

		const { items, error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '900', status: 'Success' });
		expect(requestsTo(PE.create)).toHaveLength(1);
		expect(requestsTo(PE.result)).toHaveLength(6);
		// First wait 4 s; then backoff doubling from 4 s up to 30 s, Retry-After 12 s beating the 8 s step.
		expect(clock.sleeps).toEqual([4000, 4000, 12000, 16000, 30000, 30000]);
	});

	test('cancelling the execution stops the polling', async () => {
		serveTask(PE, '5', { status: 'Processing', times: 1000 });

		// Stop is pressed as the wait after the third status check begins.
		const { error, items } = await runStoppedInWait(
			{ node: 'photoEnhancer', parameters: enhance() },
			3,
		);

		expect(error?.message).toBe('Execution stopped while waiting for task 5 [item 0]');
		expect(error?.description).toContain('task ID 5');
		expect(items).toEqual([]);
		const polls = await quietAfterStop(() => requestsTo(PE.result).length);
		expect(polls).toBeGreaterThan(0);
		expect(polls).toBe(3);
	});
});

describe('options are checked before the create, and no option floods the service', () => {
	test.each([
		[
			'Timeout from a missing field (NaN)',
			{ timeout: '={{ $json.minutes * 60 }}' },
			/^'Timeout \(Seconds\)' .*\[item 0\]$/,
		],
		['Timeout 0', { timeout: 0 }, /^'Timeout \(Seconds\)' .*\[item 0\]$/],
		['Timeout below zero', { timeout: -5 }, /^'Timeout \(Seconds\)' .*\[item 0\]$/],
		[
			'Poll Interval from a missing field',
			{ pollInterval: '={{ $json.nothing * 1 }}' },
			/^'Poll Interval \(Seconds\)' .*\[item 0\]$/,
		],
		[
			'Max Requests per Second 0',
			{ maxRequestsPerSecond: 0 },
			/^'Max Requests per Second' .*\[item 0\]$/,
		],
		[
			'Max Requests per Second not a number',
			{ maxRequestsPerSecond: '={{ "many" }}' },
			/^'Max Requests per Second' .*\[item 0\]$/,
		],
	])('%s is a field error and nothing is sent', async (_name, options, message) => {
		const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance({ options }) });

		expect(error?.message).toMatch(message);
		expect(recorded).toHaveLength(0);
	});

	test('a Poll Interval below the floor polls every 3 s', async () => {
		serveTask(PE, '3', { status: 'Processing' }, DONE);

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { pollInterval: '={{ 0.01 }}' } }),
		});

		expect(error).toBeUndefined();
		// The first wait is the interval itself, raised to the floor; the next is aimed by the task's
		// progress, and never under the floor either.
		expect(clock.sleeps).toHaveLength(2);
		expect(clock.sleeps[0]).toBe(3000);
		expect(clock.sleeps[1]).toBeGreaterThanOrEqual(3000);
	});

	test('a status check told to come back in a day waits only until the Timeout', async () => {
		api()
			.post(PE.create)
			.reply(200, created('4'))
			.get(PE.result)
			.query(true)
			.times(2)
			.reply(429, 'Too Many Requests', { 'Retry-After': '86400' });

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 60 } }),
		});

		expect(error?.message).toMatch(/^Task 4 did not finish within 60 s/);
		expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
	});
});

describe('a status check told to wait is held no longer than a create would be', () => {
	const inADay = () => new Date(Date.now() + 86_400_000).toUTCString();

	test.each([
		['1e9 s', () => '1e9', 600],
		['120 s, with a Timeout of 90 s', () => '120', 90],
		['an HTTP date a day ahead', inADay, 600],
		['neither seconds nor an HTTP date', () => 'later, please', 600],
	])(
		'Retry-After: %s: the finished task is noticed 60 s after the throttle, not at the Timeout',
		async (_case, retryAfter, timeout) => {
			const checks: number[] = [];
			api()
				.post(PE.create)
				.reply(200, created('4'))
				.get(PE.result)
				.query({ taskId: '4' })
				.reply(() => {
					checks.push(clock.now);
					return [429, 'Too Many Requests', { 'Retry-After': retryAfter() }];
				})
				.get(PE.result)
				.query({ taskId: '4' })
				.reply(() => {
					checks.push(clock.now);
					return [200, taskResponse('4')];
				});
			const createdAt = clock.now;

			const { items, error } = await runNode({
				node: 'photoEnhancer',
				parameters: enhance({ options: { timeout } }),
			});

			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ id: '4', status: 'Success' });
			// The first check on the Poll Interval; the next one the cap (60 s) after its throttle.
			expect(checks.map((at) => at - createdAt)).toEqual([4000, 64_000]);
			expect(requestsTo(PE.result)).toHaveLength(2);
			// The account's pause ended with it: the same cap.
			expect(logLines).toContainEqual(expect.stringContaining('nothing is sent for 60 s'));
		},
	);
});

describe('a status the node does not know', () => {
	test.each(['Canceled', 'success'])(
		'an unknown status (%s) ends the wait after a short grace',
		async (status) => {
			serveTask(PE, '12', { status, times: 50 });

			const { error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

			expect(error?.message).toContain(`Task 12 has a status this node does not know: "${status}"`);
			expect(error?.description).toMatch(/Get Result/);
			expect(requestsTo(PE.result)).toHaveLength(3);
		},
	);
});

describe('what a task cost, and timeouts', () => {
	test('a timed-out item that fails still says which task was paid for', async () => {
		serveTask(PE, '69', { ...running(80), times: 10 });

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { timeout: 8 } }),
			onError: 'continueRegularOutput',
		});

		expect(items[0].json).toEqual({
			error: 'Task 69 did not finish within 8 s (last status Processing, 80%) [item 0]',
			details: {
				id: '69',
				creditsCharged: 10,
				description: expect.stringContaining('Get Result operation and task ID 69'),
			},
		});
	});

	test('\'On Timeout\' "Output the Last Status" emits the task as last seen, to finish later', async () => {
		serveTask(PE, '70', { ...running(80), times: 10 });

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
		refuseCreates(PE, 9051, 'coins not enough');

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			onError: 'continueRegularOutput',
		});

		expect(createdLines()).toEqual([]);
	});
});

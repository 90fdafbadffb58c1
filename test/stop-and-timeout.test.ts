/**
 * Stop and Timeout, as a user meets them: Stop ends the run at once whatever the node is doing (a
 * create or a status check the service has not answered, the backoff after a rate limit, a wait
 * for a request slot, a download), and every request has a time limit that the Timeout bounds.
 * Judged on the nodes' fake clock and by what the service saw and in which order, never by how
 * long the run took: a service that never answers on its own stands for "too long", Stop is
 * pressed at a chosen moment, and request time limits run out when the test says. Stop while
 * polling is in waiting.test.ts.
 */
import { runNode, type RunOptions } from './helpers/engine';
import { limits } from '../nodes/shared/core/limits';
import {
	API_KEY,
	allowLoopback,
	clock,
	created,
	stopDuringWait,
	swapRequestLimits,
	taskResponse,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { hold, sendJson, type LocalServer } from './helpers/local-server';
import { downloadResult, enhance } from './helpers/params';
import { settles, startRun } from './helpers/run';

const { server } = eachTestOnAFreshWire();

/** Photo Enhancer run against the local `service`. */
function enhanceOn(
	service: LocalServer,
	parameters: Record<string, unknown>,
	more: Partial<RunOptions> = {},
): RunOptions {
	return {
		node: 'photoEnhancer',
		parameters,
		credentials: { apiKey: API_KEY, baseUrl: service.url },
		...more,
	};
}

beforeEach(allowLoopback);

describe('Stop ends the wait at once, whatever the node is doing', () => {
	/**
	 * Runs the Photo Enhancer against a service that never answers the `request` (a create, or
	 * the status check after a create answered with task 5), Stop pressed as it arrives; returns
	 * once the run has ended and the unanswered request has been dropped.
	 */
	async function stopWhileUnanswered(request: 'create' | 'status check') {
		const service = await server((req, res) => {
			if (request === 'status check' && req.method === 'POST') return sendJson(res, created('5'));
			hold(res);
			run.stop();
		});
		const run = startRun(enhanceOn(service, enhance()));
		const { error } = await settles(
			run.result,
			`the run ends on Stop while its ${request} is unanswered`,
		);
		await settles(service.seen.at(-1)!.closed, `the unanswered ${request} is dropped`);
		return { error, service };
	}

	test('during a create that has not answered yet, and the request is really dropped', async () => {
		const { error, service } = await stopWhileUnanswered('create');

		expect(error?.message).toMatch(/stopped/i);
		expect(error?.description).toMatch(/may have been created/);
		expect(service.seen).toHaveLength(1);
		expect(service.seen[0].abandoned).toBe(true);
	});

	test('during a status check that has not answered yet', async () => {
		const { error, service } = await stopWhileUnanswered('status check');

		expect(error?.message).toBe('Execution stopped while waiting for task 5 [item 0]');
		expect(service.seen.map((request) => request.method)).toEqual(['POST', 'GET']);
		expect(service.seen[1].abandoned).toBe(true);
	});

	test('during the backoff after a rate-limited create', async () => {
		const service = await server((_req, res) => {
			res.writeHead(429, { 'Retry-After': '20' });
			res.end('slow down');
		});
		// The backoff is a wait on the fake clock that only Stop ends; Stop is pressed as it begins.
		stopDuringWait(0, () => run.stop());

		const run = startRun(enhanceOn(service, enhance()));
		const { error } = await settles(run.result, 'the run ends on Stop during the backoff');

		// The one wait is the backoff the Retry-After asked for, and it never ran its course.
		expect(clock.sleeps).toEqual([20_000]);
		expect(error?.message).toMatch(/stopped/i);
		expect(service.seen).toHaveLength(1);
	});

	test('while waiting for a request slot, with a proper error', async () => {
		const service = await server((_req, res) => sendJson(res, created('9')));
		stopDuringWait(0, () => run.stop());

		const run = startRun(
			enhanceOn(
				service,
				enhance({ waitForCompletion: false, options: { maxRequestsPerSecond: 0.1 } }),
				{ items: [{ json: {} }, { json: {} }] },
			),
		);
		const { error } = await settles(
			run.result,
			'the run ends on Stop while the second item waits for its slot',
		);

		// The second item's slot is 1 / 0.1 = 10 s after the first answer; Stop came first.
		expect(clock.sleeps).toEqual([10_000]);
		expect(error?.message).toMatch(/stopped/i);
		expect(error?.message).not.toMatch(/not an instance of Error/);
		expect(service.seen).toHaveLength(1);
	});
});

describe('Stop during a download', () => {
	test('ends the download at once', async () => {
		const service = await server((req, res) => {
			if (req.url?.startsWith('/files/')) {
				hold(res);
				run.stop();
			} else
				sendJson(
					res,
					taskResponse('61', {
						output: { resultUrl: `${service.url}/files/61.png`, width: 1, height: 1 },
					}),
				);
		});

		const run = startRun(enhanceOn(service, downloadResult('61')));
		const { error } = await settles(run.result, 'the run ends on Stop while the file is unsent');
		await settles(service.seen.at(-1)!.closed, 'the download is dropped');

		expect(error?.message).toBe(
			'Execution stopped while downloading the result of task 61 [item 0]',
		);
		expect(service.seen.at(-1)?.abandoned).toBe(true);
	});
});

describe('every request has a time limit, and Timeout bounds the whole wait', () => {
	test('a status check that never answers ends at the Timeout', async () => {
		const requestLimits = swapRequestLimits();
		// The status check is never answered; its time limit runs out once it has arrived.
		const service = await server((req, res) => {
			if (req.method === 'POST') return sendJson(res, created('5'));
			hold(res);
			requestLimits.runOut();
		});
		const started = clock.now;

		const { error } = await settles(
			runNode(enhanceOn(service, enhance({ options: { timeout: 2 } }))),
			'the run ends although its status check is never answered',
		);

		expect(error?.message).toMatch(/^Task 5 did not finish within 2 s/);
		// The first wait is cut to the 2 s Timeout; the check due at the deadline gets no more than
		// the last second the Timeout allows it (not the 30 s of an ordinary status check).
		expect(clock.sleeps).toEqual([2000]);
		expect(requestLimits.asked).toEqual([limits.createTimeoutMs, 1000]);
		expect(clock.now - started).toBe(3000);
		expect(service.seen.map((request) => request.method)).toEqual(['POST', 'GET']);
	});

	test('a create that never answers fails after the create time limit as "may have been created", never resent', async () => {
		const requestLimits = swapRequestLimits();
		const service = await server((_req, res) => {
			hold(res);
			requestLimits.runOut();
		});
		const started = clock.now;

		const { error } = await settles(
			runNode(enhanceOn(service, enhance())),
			'the run ends although its create is never answered',
		);

		expect(requestLimits.asked).toEqual([limits.createTimeoutMs]);
		expect(clock.now - started).toBe(limits.createTimeoutMs);
		expect(error?.description).toMatch(/may have been created/);
		expect(service.seen).toHaveLength(1);
	});
});

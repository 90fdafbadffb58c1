/**
 * One request budget per account: executions running at once on the same credential (four CRM
 * webhook calls, a staging node and an enhancer node in parallel branches) share Max Requests per
 * Second, counted by the local service as requests arrive, on the real clock.
 */
import type { RunningService } from '../../service/server.ts';
import { runNode } from '../helpers/engine';
import { enhance } from '../helpers/params';
import { credentialsFor, restoreClock, sampleUrl, startE2eService, waitUntil } from './helpers';

let service: RunningService;

beforeEach(async () => {
	restoreClock();
	service = await startE2eService({ accounts: { 'budget-key': 1000, 'other-key': 1000 } });
});
afterEach(async () => {
	await service.close();
});

/** Photo Enhancer on the service's sample photo, not waiting, at `rate` requests a second. */
function enhanceAt(rate: number) {
	return enhance({
		imageUrl: sampleUrl(service, 'living-room.png'),
		imageSize: '512',
		waitForCompletion: false,
		options: { maxRequestsPerSecond: rate },
	});
}

function stage(rate: number) {
	return {
		resource: 'virtualStaging',
		operation: 'create',
		imageUrl: sampleUrl(service, 'living-room.png'),
		waitForCompletion: false,
		options: { maxRequestsPerSecond: rate },
	};
}

const items = (count: number) => Array.from({ length: count }, () => ({ json: {} }));

test('two executions at once on one credential never send more than the rate in any second', async () => {
	const credentials = credentialsFor(service, 'budget-key');

	const runs = await Promise.all([
		runNode({ node: 'photoEnhancer', parameters: enhanceAt(4), items: items(8), credentials }),
		runNode({ node: 'idealHouse', parameters: stage(4), items: items(8), credentials }),
	]);

	for (const run of runs) {
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(8);
	}
	const stats = service.stats() as { requests: { peakPerSecond: number; total: number } };
	expect(stats.requests.total).toBe(16);
	expect(stats.requests.peakPerSecond).toBeLessThanOrEqual(4);
});

test('the lowest rate of the node runs using the account holds for all of them', async () => {
	const credentials = credentialsFor(service, 'budget-key');
	const tasks = () =>
		(service.stats() as { tasks: Array<{ kind: string; createdAt: number }> }).tasks;

	const slow = runNode({
		node: 'photoEnhancer',
		parameters: enhanceAt(2),
		items: items(4),
		credentials,
	});
	// The second run joins once the first is sending: while both run, they share its rate of 2.
	await waitUntil(() => tasks().length > 0, 'the first run to create its first task');
	const fast = runNode({ node: 'idealHouse', parameters: stage(50), items: items(2), credentials });
	await slow;
	const slowEnded = Date.now();
	await fast;

	const arrivals = tasks().map((task) => task.createdAt);
	expect(arrivals).toHaveLength(6);
	for (const at of arrivals.filter((time) => time < slowEnded)) {
		expect(arrivals.filter((other) => other > at - 1000 && other <= at).length).toBeLessThanOrEqual(
			2,
		);
	}
	// Alone, the second run would have sent at once; sharing the budget, it waited for a slot.
	const first = Math.min(...arrivals);
	const staged = tasks().filter((task) => task.kind === 'virtualStaging');
	expect(staged).toHaveLength(2);
	expect(Math.min(...staged.map((task) => task.createdAt))).toBeGreaterThanOrEqual(first + 1000);
});

test('another account keeps its own budget', async () => {
	await Promise.all([
		runNode({
			node: 'photoEnhancer',
			parameters: enhanceAt(4),
			items: items(4),
			credentials: credentialsFor(service, 'budget-key'),
		}),
		runNode({
			node: 'photoEnhancer',
			parameters: enhanceAt(4),
			items: items(4),
			credentials: credentialsFor(service, 'other-key'),
		}),
	]);

	// Four each, both at once: neither waited a second for the other's slots.
	const stats = service.stats() as { requests: { peakPerSecond: number; total: number } };
	expect(stats.requests.total).toBe(8);
	expect(stats.requests.peakPerSecond).toBe(8);
});

test('one account however its address is spelt: 127.0.0.1, localhost, upper case, a trailing slash', async () => {
	const { port } = new URL(service.baseUrl);
	const spellings = [
		`http://127.0.0.1:${port}`,
		`http://localhost:${port}/`,
		`HTTP://LOCALHOST:${port}`,
		` http://127.0.0.1:${port}// `,
	];

	const runs = await Promise.all(
		spellings.map((baseUrl) =>
			runNode({
				node: 'photoEnhancer',
				parameters: enhanceAt(2),
				items: items(2),
				credentials: { apiKey: 'budget-key', baseUrl },
			}),
		),
	);

	for (const run of runs) expect(run.error).toBeUndefined();
	// Eight creates at 2 per second: spread over four seconds, never more than 2 in one.
	const stats = service.stats() as { requests: { peakPerSecond: number; total: number } };
	expect(stats.requests.total).toBe(8);
	expect(stats.requests.peakPerSecond).toBeLessThanOrEqual(2);
});

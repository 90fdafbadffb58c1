// Fault injection: each kind, its counter, before/after the creation of a task, endpoint filters
// and reproducibility.
import type { FaultConfig } from '../../service/server.ts';
import { endpointSelected, pickFault } from '../../service/faults.ts';
import { mulberry32 } from '../../service/prng.ts';
import { call, idOf, start } from './helpers.ts';
import { useService } from './local-service.ts';

describe('fault injection', () => {
	const service = useService({ accounts: { key: 100 } });
	let body: Record<string, unknown>;

	beforeEach(() => {
		body = { imageUrl: service.sample('living-room.png'), prompt: 'brighter' };
	});

	const enhance = () => service.generate('photoEnhancer', body);
	const onCreate = (faults: FaultConfig) =>
		service.configure({ faults: { endpoints: ['photoEnhancer.generate'], ...faults } });

	it.each([
		['http500', 500],
		['http502', 502],
		['http503', 503],
	] as const)('%s answers HTTP %i with a 1003 envelope, or an HTML page', async (kind, status) => {
		onCreate({ [kind]: 1 });
		const response = await enhance();
		expect(response.status).toBe(status);
		expect(response.json).toEqual({ code: 1003, message: expect.any(String), data: null });
		service.configure({ faults: { serverErrorBody: 'html' } });
		const html = await enhance();
		expect(html.status).toBe(status);
		expect(html.headers.get('content-type')).toBe('text/html');
		expect(html.text).toMatch(new RegExp(`<h1>${status} `));
		expect(service.stats().faults.byKind).toEqual({ [kind]: 2 });
		expect(service.stats().requests.byEndpoint['photoEnhancer.generate'].byStatus).toEqual({
			[status]: 2,
		});
		expect(service.balance('key')).toBe(100);
	});

	it('code1003 answers HTTP 200 with code 1003', async () => {
		onCreate({ code1003: 1 });
		const response = await enhance();
		expect(response.status).toBe(200);
		expect(response.json).toMatchObject({ code: 1003, data: null });
		expect(service.stats().faults.byKind).toEqual({ code1003: 1 });
	});

	it('http429 answers 429 with Retry-After in seconds', async () => {
		onCreate({ http429: 1, retryAfterSeconds: 7 });
		const response = await enhance();
		expect(response.status).toBe(429);
		expect(response.headers.get('retry-after')).toBe('7');
		expect(service.stats().faults.byKind).toEqual({ http429: 1 });
	});

	it('reset destroys the connection without a response', async () => {
		onCreate({ reset: 1 });
		await expect(enhance()).rejects.toThrow(/fetch failed/);
		const stats = service.stats();
		expect(stats.faults.byKind).toEqual({ reset: 1 });
		expect(stats.requests.byEndpoint['photoEnhancer.generate'].byStatus).toEqual({ reset: 1 });
	});

	it('truncated and malformed send bodies that do not parse', async () => {
		onCreate({ truncated: 1 });
		const truncated = await enhance();
		expect(truncated.status).toBe(200);
		expect(truncated.json).toBeUndefined();
		expect(truncated.text.length).toBeGreaterThan(0);
		expect(
			'{"code":1003,"message":"internal error, please retry later","data":null}'.startsWith(
				truncated.text,
			),
		).toBe(true);
		onCreate({ truncated: 0, malformed: 1 });
		const malformed = await enhance();
		expect(malformed.json).toBeUndefined();
		expect(malformed.text).toMatch(/^\{code:/);
		expect(service.stats().faults.byKind).toEqual({ truncated: 1, malformed: 1 });
	});

	it('on a result request, truncated/malformed spoil the real task body', async () => {
		const id = idOf(await enhance());
		service.configure({ faults: { truncated: 1, endpoints: ['result'] } });
		const truncated = await service.result('photoEnhancer', id);
		expect(truncated.json).toBeUndefined();
		expect(truncated.text.startsWith(`{"code":0,"message":"success","data":{"id":${id}`)).toBe(
			true,
		);
		service.configure({ faults: { truncated: 0, malformed: 1 } });
		const malformed = await service.result('photoEnhancer', id);
		expect(malformed.json).toBeUndefined();
		expect(malformed.text).toContain(`"id":${id}`);
		expect(service.stats().faults.byPhase).toEqual({ request: 2 });
	});

	it('latency delays the answer by latencyMs', async () => {
		onCreate({ latency: 1, latencyMs: 150 });
		const started = Date.now();
		const response = await enhance();
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		expect(response.json.code).toBe(0);
		expect(service.stats().faults.byKind).toEqual({ latency: 1 });
	});

	it('faults before creation (the default phase) create and charge nothing', async () => {
		onCreate({ http503: 1 });
		expect((await enhance()).status).toBe(503);
		const stats = service.stats();
		expect(stats.tasksCreated.total).toBe(0);
		expect(stats.tasks).toHaveLength(0);
		expect(stats.balances.key).toBe(100);
		expect(stats.faults.byPhase).toEqual({ before: 1 });
	});

	it.each(['http502', 'reset', 'truncated'] as const)(
		'%s after creation: the client saw an error, but the task exists and was charged',
		async (kind) => {
			onCreate({ [kind]: 1, faultPhase: 'after' });
			const response = await enhance().catch((error: Error) => error);
			if (response instanceof Error) expect(kind).toBe('reset');
			else expect(response.json?.code).not.toBe(0);
			const stats = service.stats();
			expect(stats.tasksCreated).toEqual({
				total: 1,
				byKey: { key: 1 },
				byEndpoint: { 'photoEnhancer.generate': 1 },
			});
			expect(stats.tasks).toHaveLength(1);
			expect(stats.balances.key).toBe(90);
			expect(stats.requests.byCode).toEqual({ 0: 1 });
			expect(stats.faults).toMatchObject({
				total: 1,
				byKind: { [kind]: 1 },
				byPhase: { after: 1 },
			});
			// The task is real: its id can be polled.
			expect((await service.result('photoEnhancer', stats.tasks[0].id)).json.code).toBe(0);
		},
	);

	it('never injects 429 or 1003 after creation, and does not fault a create that failed', async () => {
		onCreate({ http429: 1, code1003: 1, faultPhase: 'after' });
		expect((await enhance()).json.code).toBe(0);
		onCreate({ http503: 1, faultPhase: 'after' });
		const rejected = await service.generate('photoEnhancer', { imageUrl: body.imageUrl });
		expect(rejected.json.code).toBe(1011);
		expect(service.stats().faults.total).toBe(0);
	});

	it("phase 'both' can fault before and after; each created task is charged once", async () => {
		onCreate({ http500: 0.5, faultPhase: 'both' });
		let ok = 0;
		for (let i = 0; i < 20; i++) if ((await enhance()).status === 200) ok++;
		const stats = service.stats();
		expect(stats.faults.byPhase.before).toBeGreaterThan(0);
		expect(stats.faults.byPhase.after).toBeGreaterThan(0);
		expect(stats.faults.total).toBe(20 - ok);
		expect(stats.tasksCreated.total).toBe(ok + stats.faults.byPhase.after);
		expect(stats.balances.key).toBe(100 - 10 * stats.tasksCreated.total);
	});

	it('limits faults to the listed endpoints', async () => {
		const id = idOf(await enhance());
		onCreate({ http503: 1 });
		expect((await service.result('photoEnhancer', id)).status).toBe(200);
		expect(
			(
				await service.generate('objectRemover', {
					imageUrl: body.imageUrl,
					emptyType: 'whole_house',
				})
			).status,
		).toBe(200);
		expect((await enhance()).status).toBe(503);
		service.configure({ faults: { endpoints: ['objectRemover'] } });
		expect((await enhance()).status).toBe(200);
		expect(endpointSelected({ endpoints: ['result'] }, 'objectRemover.result')).toBe(true);
		expect(endpointSelected({ endpoints: ['result'] }, 'objectRemover.generate')).toBe(false);
		expect(endpointSelected({}, 'photoEnhancer.generate')).toBe(true);
	});

	it('never faults admin, sample or result-image requests, nor counts them as API requests', async () => {
		service.configure({ taskDurationMs: 0 });
		const id = idOf(await enhance());
		const resultUrl = (await service.result('photoEnhancer', id)).json.data.output.resultUrl;
		service.configure({ faults: { reset: 1 } });
		expect((await fetch(`${service.baseUrl}/samples/kitchen.png`)).status).toBe(200);
		expect((await fetch(resultUrl)).status).toBe(200);
		expect((await fetch(`${service.baseUrl}/__admin/stats`)).status).toBe(200);
		const stats = service.stats();
		expect(stats.requests.total).toBe(2);
		expect(stats.faults.total).toBe(0);
		expect(stats.downloads.results).toBe(1);
	});

	it('draws rates per request, reproducibly for a seed', async () => {
		const run = async (seed: number) => {
			const other = await start({ seed, faults: { http503: 0.5, endpoints: ['result'] } });
			const statuses: number[] = [];
			for (let i = 0; i < 16; i++)
				statuses.push((await call(other, 'GET', '/api/v1/objectRemover/result?taskId=1')).status);
			const byKind = other.stats().faults.byKind;
			await other.close();
			return { statuses, byKind };
		};
		const first = await run(99);
		expect(await run(99)).toEqual(first);
		expect(first.statuses).toContain(503);
		expect(first.statuses).toContain(200);
		expect(first.byKind.http503).toBe(first.statuses.filter((status) => status === 503).length);

		const random = mulberry32(1);
		let hits = 0;
		for (let i = 0; i < 2000; i++)
			if (pickFault({ http500: 0.25 }, 'photoEnhancer.result', 'request', random)) hits++;
		expect(hits).toBeGreaterThan(400);
		expect(hits).toBeLessThan(600);
	});

	it('rejects unknown fault settings and out-of-range rates', () => {
		expect(() => service.configure({ faults: { http504: 1 } as FaultConfig })).toThrow(
			/unknown fault setting "http504"/,
		);
		expect(() => service.configure({ faults: { reset: 2 } })).toThrow(
			/faults.reset must be a number from 0 to 1/,
		);
		expect(() => service.configure({ faults: { faultPhase: 'later' as 'after' } })).toThrow(
			/faultPhase/,
		);
	});
});

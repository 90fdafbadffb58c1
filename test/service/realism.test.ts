// Settings that make the service behave like a loaded production one for benchmarks: results of
// real size, progress that does not move evenly, task times and finish detection visible in the
// stats. The API itself stays as the spec has it.
import type { ServiceStats } from '../../service/server.ts';
import { TaskQueue } from '../../service/queue.ts';
import { decodePng, download, idOf } from './helpers.ts';
import { useService } from './local-service.ts';

describe('stuck-then-jump progress', () => {
	it('shows 0 for the first 60 % of the run, then 90 until the task ends', () => {
		const queue = new TaskQueue(1);
		const slot = queue.schedule(0, 10_000);
		const at = (now: number) => queue.progress(slot, false, now, 'stuck-then-jump');
		expect([0, 3000, 5999].map((now) => at(now).percentage)).toEqual([0, 0, 0]);
		expect([6000, 9999].map((now) => at(now))).toEqual([
			{ status: 'Processing', waitNumber: 0, percentage: 90 },
			{ status: 'Processing', waitNumber: 0, percentage: 90 },
		]);
		expect(at(10_000)).toEqual({ status: 'Success', waitNumber: 0, percentage: 100 });
		expect(queue.progress(slot, false, 5000)).toMatchObject({ percentage: 50 });
	});
});

describe('service settings for realistic runs', () => {
	const service = useService({}, 'the test');

	const enhance = (imageSize = '1K') =>
		service.generate('photoEnhancer', {
			imageUrl: service.sample('living-room.png'),
			presetId: 'image-optimization-mls-photo-enhancement',
			imageSize,
		});

	it('serves the stuck-then-jump model through the result endpoint once configured', async () => {
		await service.start({ taskDurationMs: 10_000 });
		await fetch(`${service.baseUrl}/__admin/config`, {
			method: 'POST',
			body: JSON.stringify({ progressModel: 'stuck-then-jump' }),
		});
		const id = idOf(await enhance());
		service.clock.advance(5000);
		expect((await service.result('photoEnhancer', id)).json.data.percentage).toBe(0);
		service.clock.advance(2000);
		expect((await service.result('photoEnhancer', id)).json.data.percentage).toBe(90);
		expect(() => service.configure({ progressModel: 'sideways' as never })).toThrow(
			/progressModel must be one of linear, stuck-then-jump/,
		);
	});

	it('records when a result call first reported the end, so lateness can be measured', async () => {
		await service.start({ taskDurationMs: 10_000 });
		const id = idOf(await enhance());
		const createdAt = service.clock.time;
		service.clock.advance(9000);
		await service.result('photoEnhancer', id);
		expect(service.stats().tasks[0]).toMatchObject({ endAt: createdAt + 10_000, doneSeenAt: null });
		service.clock.advance(2500);
		expect((await service.result('photoEnhancer', id)).json.data.status).toBe('Success');
		service.clock.advance(4000);
		await service.result('photoEnhancer', id);
		expect(service.stats().tasks[0]).toMatchObject({
			endAt: createdAt + 10_000,
			doneSeenAt: createdAt + 11_500,
		});
	});

	it('leaves the task list out of /__admin/stats?tasks=false', async () => {
		await service.start();
		await enhance();
		const full = (await (await fetch(`${service.baseUrl}/__admin/stats`)).json()) as ServiceStats;
		const light = (await (
			await fetch(`${service.baseUrl}/__admin/stats?tasks=false`)
		).json()) as ServiceStats;
		expect(full.tasks).toHaveLength(1);
		expect(light.tasks).toEqual([]);
		expect(light.requests).toEqual(full.requests);
	});

	it('serves results of about resultBytes that do not compress, at the output size', async () => {
		await service.start({ taskDurationMs: 10, resultBytes: 4_000_000 });
		const id = idOf(await enhance('4K'));
		service.clock.advance(10);
		const task = (await service.result('photoEnhancer', id)).json.data;
		const png = await download(task.output.resultUrl);
		expect(png.length).toBeGreaterThan(3_900_000);
		expect(png.length).toBeLessThan(4_200_000);
		const decoded = decodePng(png);
		expect([decoded.width, decoded.height]).toEqual([task.output.width, task.output.height]);
		expect(decoded.width).toBe(4096);
	});

	it('queues tasks beyond the workers, so waitNumber is above 0', async () => {
		await service.start({ workers: 2, taskDurationMs: 5000 });
		const ids = [];
		for (let k = 0; k < 5; k++) ids.push(idOf(await enhance()));
		const last = (await service.result('photoEnhancer', ids[4])).json.data;
		expect(last).toMatchObject({ status: 'Unprocessed', waitNumber: 4 });
		expect(service.stats().tasks[4].endAt - service.stats().tasks[4].createdAt).toBe(15_000);
	});
});

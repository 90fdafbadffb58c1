/* eslint-disable @n8n/community-nodes/no-restricted-globals */
// Task lifecycle over HTTP with a fake clock: queue positions, progress, success, failure and the
// automatic refund of failed tasks.
import { expectEnvelopeError, generate, idOf, result, sample, start } from './helpers.ts';
import { useService } from './local-service.ts';

describe('task lifecycle', () => {
	const service = useService({ workers: 2, taskDurationMs: 1000, accounts: { key: 100 } });
	let room: string;

	beforeEach(() => {
		room = service.sample('living-room.png');
	});

	const enhance = async (imageUrl = room) =>
		idOf(
			await service.generate('photoEnhancer', {
				imageUrl,
				presetId: 'virtual-twilight-luxury-twilight',
			}),
		);
	const remove = async (imageUrl = room) =>
		idOf(await service.generate('objectRemover', { imageUrl, emptyType: 'whole_house' }));
	const state = async (id: string, kind: 'photoEnhancer' | 'objectRemover' = 'photoEnhancer') => {
		const { status, waitNumber, percentage, output } = (await service.result(kind, id)).json.data;
		return { status, waitNumber, percentage, output: output === null ? null : 'output' };
	};

	it('queues beyond the workers: Unprocessed with waitNumber, then Processing 0..99, then Success', async () => {
		const ids = [await enhance(), await enhance(), await enhance(), await enhance()];
		expect(await Promise.all(ids.map((id) => state(id)))).toEqual([
			{ status: 'Processing', waitNumber: 0, percentage: 0, output: null },
			{ status: 'Processing', waitNumber: 0, percentage: 0, output: null },
			{ status: 'Unprocessed', waitNumber: 2, percentage: 0, output: null },
			{ status: 'Unprocessed', waitNumber: 3, percentage: 0, output: null },
		]);
		service.clock.advance(420);
		expect(await state(ids[0])).toEqual({
			status: 'Processing',
			waitNumber: 0,
			percentage: 42,
			output: null,
		});
		service.clock.advance(579);
		expect((await state(ids[0])).percentage).toBe(99);
		service.clock.advance(1);
		expect(await state(ids[0])).toEqual({
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
			output: 'output',
		});
		expect(await state(ids[3])).toEqual({
			status: 'Processing',
			waitNumber: 0,
			percentage: 0,
			output: null,
		});
		service.clock.advance(1000);
		expect((await Promise.all(ids.map((id) => state(id)))).map((s) => s.status)).toEqual([
			'Success',
			'Success',
			'Success',
			'Success',
		]);
	});

	it('runs each interface on its own workers', async () => {
		await enhance();
		await enhance();
		const removal = await remove();
		expect(await state(removal, 'objectRemover')).toMatchObject({
			status: 'Processing',
			waitNumber: 0,
		});
	});

	it('object remover: a queued task is Unprocessed with waitNumber 1 or more; 0 only while processing', async () => {
		const ids = [await remove(), await remove(), await remove()];
		expect(await Promise.all(ids.map((id) => state(id, 'objectRemover')))).toEqual([
			{ status: 'Processing', waitNumber: 0, percentage: 0, output: null },
			{ status: 'Processing', waitNumber: 0, percentage: 0, output: null },
			{ status: 'Unprocessed', waitNumber: 2, percentage: 0, output: null },
		]);
		service.clock.advance(1000);
		expect(await state(ids[2], 'objectRemover')).toEqual({
			status: 'Processing',
			waitNumber: 0,
			percentage: 0,
			output: null,
		});
	});

	it('keeps Success and Failed once reached: later reads give the same task', async () => {
		const fine = await enhance();
		const failing = await remove(`${room}?fail=1`);
		service.clock.advance(1000);
		const first = [
			(await service.result('photoEnhancer', fine)).json.data,
			(await service.result('objectRemover', failing)).json.data,
		];
		expect(first.map((task) => task.status)).toEqual(['Success', 'Failed']);
		await enhance();
		await remove();
		service.clock.advance(60_000);
		expect((await service.result('photoEnhancer', fine)).json.data).toEqual(first[0]);
		expect((await service.result('objectRemover', failing)).json.data).toEqual(first[1]);
	});

	it('ends a task Failed (output null, percentage 0) when the image URL contains "fail", and refunds it', async () => {
		const failing = await enhance(`${room}?fail=1`);
		const fine = await enhance();
		expect(service.balance('key')).toBe(80);
		service.clock.advance(500);
		expect(await state(failing)).toMatchObject({ status: 'Processing', percentage: 50 });
		expect(service.balance('key')).toBe(80); // not refunded before it has failed
		service.clock.advance(500);
		expect(await state(failing)).toEqual({
			status: 'Failed',
			waitNumber: 0,
			percentage: 0,
			output: null,
		});
		expect(await state(fine)).toMatchObject({ status: 'Success' });
		expect(service.balance('key')).toBe(90);
		const stats = service.stats();
		expect(stats.credits).toEqual({
			charged: 20,
			refunded: 10,
			byKey: { key: { charged: 20, refunded: 10 } },
		});
		expect(stats.tasks.find((task) => task.id === failing)).toMatchObject({
			status: 'Failed',
			cost: 10,
			refunded: true,
			kind: 'photoEnhancer',
			apiKey: 'key',
		});
		expect(stats.tasks.find((task) => task.id === fine)).toMatchObject({
			status: 'Success',
			refunded: false,
		});
	});

	it('object remover: a Failed task has output null and percentage 0', async () => {
		const failing = await remove(`${room}?fail=1`);
		service.clock.advance(500);
		expect(await state(failing, 'objectRemover')).toEqual({
			status: 'Processing',
			waitNumber: 0,
			percentage: 50,
			output: null,
		});
		service.clock.advance(500);
		expect(await state(failing, 'objectRemover')).toEqual({
			status: 'Failed',
			waitNumber: 0,
			percentage: 0,
			output: null,
		});
		expect(service.balance('key')).toBe(100);
	});

	it("refunds the object remover's 1 credit too, without anyone polling", async () => {
		await remove(`${room}#FAIL`);
		expect(service.balance('key')).toBe(99);
		service.clock.advance(1000);
		expect(service.balance('key')).toBe(100);
	});

	it('makes refunded credits available to the next create', async () => {
		service.setAccount('key', 10);
		const failing = await enhance(`${room}?fail`);
		expectEnvelopeError(
			await service.generate('photoEnhancer', { imageUrl: room, prompt: 'x' }),
			9051,
		);
		service.clock.advance(1000);
		expect((await state(failing)).status).toBe('Failed');
		expect(
			(await service.generate('photoEnhancer', { imageUrl: room, prompt: 'x' })).json.code,
		).toBe(0);
	});

	it('fails the configured share of tasks (failureRate), reproducibly for a seed', async () => {
		service.configure({ failureRate: 1 });
		const id = await enhance();
		service.clock.advance(1000);
		expect((await state(id)).status).toBe('Failed');

		const outcomes = async (seed: number) => {
			const other = await start({
				seed,
				failureRate: 0.5,
				taskDurationMs: 0,
				now: service.clock.now,
			});
			const statuses: string[] = [];
			for (let i = 0; i < 12; i++) {
				const taskId = idOf(
					await generate(other, 'objectRemover', {
						imageUrl: sample(other, 'kitchen.png'),
						emptyType: 'whole_house',
					}),
				);
				statuses.push((await result(other, 'objectRemover', taskId)).json.data.status);
			}
			await other.close();
			return statuses;
		};
		const first = await outcomes(7);
		expect(await outcomes(7)).toEqual(first);
		expect(first).toContain('Failed');
		expect(first).toContain('Success');
	});

	it('varies durations by the jitter, within ± jitter', async () => {
		service.configure({ workers: 50, taskDurationMs: 1000, taskDurationJitterMs: 300 });
		for (let i = 0; i < 10; i++) await enhance();
		const durations = service.stats().tasks.map((task) => task.endAt - task.startAt);
		expect(Math.min(...durations)).toBeGreaterThanOrEqual(700);
		expect(Math.max(...durations)).toBeLessThanOrEqual(1300);
		expect(new Set(durations).size).toBeGreaterThan(1);
	});

	it('completes on the real clock when no clock is injected', async () => {
		const real = await start({ taskDurationMs: 30 });
		const id = idOf(
			await generate(real, 'objectRemover', {
				imageUrl: sample(real, 'kitchen.png'),
				emptyType: 'whole_house',
			}),
		);
		await new Promise((resolve) => setTimeout(resolve, 60));
		expect((await result(real, 'objectRemover', id)).json.data.status).toBe('Success');
		await real.close();
	});
});

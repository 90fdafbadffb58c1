import { TaskQueue } from '../../service/queue.ts';

describe('task queue (derived from the clock)', () => {
	it('starts as many tasks as there are workers and queues the rest in order', () => {
		const queue = new TaskQueue(2);
		const t0 = 1000;
		const slots = [0, 1, 2, 3].map(() => queue.schedule(t0, 1000));
		expect(slots.map((slot) => [slot.startAt, slot.endAt])).toEqual([
			[1000, 2000],
			[1000, 2000],
			[2000, 3000],
			[2000, 3000],
		]);
		expect(slots.map((slot) => queue.progress(slot, false, t0))).toEqual([
			{ status: 'Processing', waitNumber: 0, percentage: 0 },
			{ status: 'Processing', waitNumber: 0, percentage: 0 },
			{ status: 'Unprocessed', waitNumber: 2, percentage: 0 },
			{ status: 'Unprocessed', waitNumber: 3, percentage: 0 },
		]);
		expect(queue.progress(slots[0], false, 1500)).toEqual({
			status: 'Processing',
			waitNumber: 0,
			percentage: 50,
		});
		expect(queue.progress(slots[0], false, 1999).percentage).toBe(99);
		expect(queue.progress(slots[0], false, 2000)).toEqual({
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
		});
		expect(queue.progress(slots[3], false, 2250)).toEqual({
			status: 'Processing',
			waitNumber: 0,
			percentage: 25,
		});
		expect(queue.progress(slots[3], true, 3000)).toEqual({
			status: 'Failed',
			waitNumber: 0,
			percentage: 0,
		});
	});

	it('lets waitNumber fall as tasks ahead finish', () => {
		const queue = new TaskQueue(1);
		const slots = [0, 1, 2].map(() => queue.schedule(0, 100));
		expect(slots.map((slot) => queue.progress(slot, false, 0).waitNumber)).toEqual([0, 1, 2]);
		expect(queue.progress(slots[2], false, 150)).toMatchObject({
			status: 'Unprocessed',
			waitNumber: 1,
		});
		expect(queue.progress(slots[2], false, 200)).toMatchObject({
			status: 'Processing',
			waitNumber: 0,
		});
	});

	it('starts a task at once when a worker is idle, and uses added workers', () => {
		const queue = new TaskQueue(1);
		queue.schedule(0, 1000);
		expect(queue.schedule(0, 1000).startAt).toBe(1000);
		queue.setWorkers(3);
		expect(queue.workers).toBe(3);
		expect(queue.schedule(10, 1000).startAt).toBe(10);
		queue.setWorkers(1);
		// The busiest worker is kept: nothing already promised is overbooked.
		expect(queue.schedule(20, 1000).startAt).toBe(2000);
	});

	it('finishes zero-length tasks immediately', () => {
		const queue = new TaskQueue(1);
		const slot = queue.schedule(5, 0);
		expect(queue.progress(slot, false, 5)).toEqual({
			status: 'Success',
			waitNumber: 0,
			percentage: 100,
		});
	});
});

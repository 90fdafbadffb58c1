import { QueueObservations } from '../nodes/shared/waiting/queue-observations';

const T0 = 1_000_000;

/** Counts the record's change notices. */
function watched(record: QueueObservations): { changes: () => number } {
	let count = 0;
	record.onChange(() => count++);
	return { changes: () => count };
}

describe('queue record: how long the tasks run', () => {
	it('knows nothing before a task was seen running', () => {
		const record = new QueueObservations();
		expect(record.runTime).toBeUndefined();
		expect(record.queuedFinish(T0, 3)).toBeUndefined();
	});

	/** Readings of a task's run: its name, and the least and most it can have run. */
	type Reading = [task: string, lo: number, hi: number];
	test.each<[string, Reading[], { lo: number; hi: number } | undefined]>([
		[
			'keeps what every task’s progress allows',
			[
				['a', 9000, 10_000],
				['b', 9500, 10_500],
			],
			{ lo: 9500, hi: 10_000 },
		],
		[
			'leaves one odd task out when the others agree',
			[
				...Array.from({ length: 10 }, (_, k): Reading => [`t${k}`, 9800, 10_000]),
				['odd', 20_000, 21_000],
			],
			{ lo: 9800, hi: 10_000 },
		],
		[
			'a task’s later reading replaces its earlier one',
			[
				['a', 8000, 12_000],
				['a', 9900, 10_100],
			],
			{ lo: 9900, hi: 10_100 },
		],
		[
			'ignores windows that say nothing',
			[
				['zero', 0, 5000],
				['backwards', 6000, 5000],
			],
			undefined,
		],
	])('%s', (_name, readings, runTime) => {
		const record = new QueueObservations();
		for (const [task, lo, hi] of readings) record.recordRun(task, { lo, hi });
		expect(record.runTime).toEqual(runTime);
	});

	it('goes by one early reading only until a task shows more, or it ends', () => {
		const record = new QueueObservations();
		record.recordRun('early', { lo: 8000, hi: 12_000 }, true);
		expect(record.runTime).toEqual({ lo: 8000, hi: 12_000 });
		record.forgetTentative('early');
		expect(record.runTime).toBeUndefined();

		record.recordRun('early', { lo: 8000, hi: 12_000 }, true);
		record.recordRun('read twice', { lo: 9500, hi: 10_000 });
		expect(record.runTime).toEqual({ lo: 9500, hi: 10_000 });
	});

	it('pins the run time by the rhythm of a busy queue’s ends, where the progress allows it', () => {
		// One worker, busy for 100 s, ending a task every 10 s; progress alone allows 9–11 s.
		const record = new QueueObservations();
		record.recordRun('a', { lo: 9000, hi: 11_000 });
		record.recordQueued(1, T0);
		record.recordQueued(1, T0 + 100_000);
		for (let k = 1; k <= 10; k++) {
			record.recordEnd(`t${k}`, { lo: T0 + 10_000 * k, hi: T0 + 10_000 * k });
		}
		expect(record.runTime).toEqual({ lo: 10_000, hi: 10_000 });
	});
});

describe('queue record: the pace of the queue and the workers', () => {
	it('the pace is the tasks ahead that ended per ms, over every reading', () => {
		const record = new QueueObservations();
		record.recordPace(0, 4000);
		expect(record.pace).toBeUndefined();
		record.recordPace(10, 4000);
		expect(record.pace).toBe(10 / 8000);
	});

	it('no queued task reports fewer tasks ahead than there are workers', () => {
		const record = new QueueObservations();
		record.recordQueued(45, T0);
		record.recordQueued(40, T0 + 1000);
		record.recordQueued(41, T0 + 2000);
		record.recordQueued(0, T0 + 3000); // running: says nothing about the workers
		expect(record.workersAtMost).toBe(40);
	});
});

describe('queue record: a pace many readings agree on', () => {
	/** Readings far back in a queue of 40 workers ending 8 tasks a second: 130 in 16.25 s. */
	function readFarBack(record: QueueObservations, readings: number): void {
		for (let k = 0; k < readings; k++) record.recordPace(130, 16_250, 600);
	}

	it('a few readings give a pace, not yet settled enough to give a run time', () => {
		const record = new QueueObservations();
		record.recordQueued(40, T0);
		readFarBack(record, 10);
		expect(record.pace).toBe(0.008);
		expect(record.settledPace).toBeUndefined();
		expect(record.runTime).toBeUndefined();
	});

	it('many readings settle it; the workers over the pace give the run time, within two spreads', () => {
		const record = new QueueObservations();
		record.recordQueued(40, T0);
		const { changes } = watched(record);
		let readings = 0;
		while (record.settledPace === undefined) {
			readFarBack(record, 1);
			readings++;
		}
		// Each reading may be off by up to a burst of 40 either way: 79 of them leave 2 %.
		expect(readings).toBe(79);
		const spread = (40 * Math.sqrt(79 / 3)) / (79 * 130);
		expect(record.settledPace).toEqual({ pace: 0.008, spread });
		expect(record.runTime?.lo).toBeCloseTo(5000 / (1 + 2 * spread), 6);
		expect(record.runTime?.hi).toBeCloseTo(5000 / (1 - 2 * spread), 6);
		// Told once when the queue first moved, once when its pace settled; more of the same
		// readings tell nothing new.
		readFarBack(record, 20);
		expect(changes()).toBe(2);
	});

	it('readings of tasks near their turn do not settle it: they are read again only if the queue was slow', () => {
		const record = new QueueObservations();
		record.recordQueued(40, T0);
		for (let k = 0; k < 100; k++) record.recordPace(10, 4000, 60);
		expect(record.pace).toBe(10 / 4000);
		expect(record.settledPace).toBeUndefined();
	});

	it('a task’s own progress, once shown, goes before the run time the pace gives', () => {
		const record = new QueueObservations();
		record.recordQueued(40, T0);
		readFarBack(record, 100);
		record.recordRun('read twice', { lo: 4950, hi: 5050 });
		expect(record.runTime).toEqual({ lo: 4950, hi: 5050 });
	});
});

describe('queue record: when a queued task finishes', () => {
	it('one worker: one run time per task ahead, after the running one ends', () => {
		const record = new QueueObservations();
		record.recordRun('running', { lo: 10_000, hi: 10_000 });
		record.recordEnd('running', { lo: T0 + 10_000, hi: T0 + 10_000 });
		record.recordQueued(1, T0 + 4000);
		expect(record.queuedFinish(T0 + 4000, 1)).toEqual({ lo: T0 + 20_000, hi: T0 + 20_000 });
		expect(record.queuedFinish(T0 + 4000, 3)).toEqual({ lo: T0 + 40_000, hi: T0 + 40_000 });
	});

	it('carries the uncertainty of the run time over the rounds ahead', () => {
		const record = new QueueObservations();
		record.recordRun('running', { lo: 9900, hi: 10_000 });
		record.recordEnd('running', { lo: T0 + 9900, hi: T0 + 10_000 });
		record.recordQueued(1, T0 + 4000);
		// Three tasks ahead, then this one: four runs after the running one ends.
		const finish = record.queuedFinish(T0 + 4000, 4);
		expect(finish?.lo).toBe(T0 + 9900 + 4 * 9900);
		expect(finish?.hi).toBe(T0 + 10_000 + 4 * 10_000);
	});
});

describe('queue record: who is told when it changes', () => {
	it('tells the queued tasks when a run time first shows, and when it moves by more than 1 %', () => {
		const record = new QueueObservations();
		const { changes } = watched(record);
		record.recordRun('a', { lo: 9000, hi: 10_000 });
		expect(changes()).toBe(1);
		record.recordRun('b', { lo: 9050, hi: 10_000 }); // 0.6 % narrower: no new plans
		expect(changes()).toBe(1);
		record.recordRun('c', { lo: 9800, hi: 10_000 });
		expect(changes()).toBe(2);
	});

	it('tells them when the first tasks ahead end, and when fewer workers are shown', () => {
		const record = new QueueObservations();
		const { changes } = watched(record);
		record.recordPace(0, 4000); // nothing ended yet
		expect(changes()).toBe(0);
		record.recordPace(5, 4000);
		record.recordPace(5, 4000); // the same picture, a little sharper
		expect(changes()).toBe(1);
		record.recordQueued(40, T0);
		record.recordQueued(42, T0);
		expect(changes()).toBe(2);
	});

	it('tells them as each of the first round of workers’ ends is placed', () => {
		const record = new QueueObservations();
		record.recordQueued(2, T0);
		const { changes } = watched(record);
		record.recordEnd('a', { lo: T0 + 5000, hi: T0 + 5000 });
		record.recordEnd('b', { lo: T0 + 6000, hi: T0 + 6000 });
		record.recordEnd('c', { lo: T0 + 10_000, hi: T0 + 10_000 }); // a worker already placed
		record.recordEnd('a', { lo: T0 + 5100, hi: T0 + 5100 }); // an end moved: no new plans
		expect(changes()).toBe(2);
	});

	it('tells them when the rhythm of the ends pins the run time closer', () => {
		const record = new QueueObservations();
		record.recordRun('a', { lo: 9000, hi: 11_000 });
		record.recordQueued(1, T0);
		record.recordQueued(1, T0 + 100_000);
		record.recordEnd('t1', { lo: T0 + 10_000, hi: T0 + 10_000 });
		const { changes } = watched(record);
		for (let k = 2; k <= 10; k++) {
			record.recordEnd(`t${k}`, { lo: T0 + 10_000 * k, hi: T0 + 10_000 * k });
		}
		expect(record.runTime).toEqual({ lo: 10_000, hi: 10_000 });
		expect(changes()).toBeGreaterThan(0);
	});

	it('stops telling a listener once it is removed', () => {
		const record = new QueueObservations();
		let told = 0;
		const off = record.onChange(() => told++);
		off();
		record.recordRun('a', { lo: 9000, hi: 10_000 });
		expect(told).toBe(0);
	});
});

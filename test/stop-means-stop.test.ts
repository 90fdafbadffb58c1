/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Stop means stop: once the user presses Stop, nothing more is made or sent for that execution,
 * whatever its items are doing then and whenever n8n calls the node for the items left: n8n runs
 * the execution's finish notice at the press while the node goes on with its items (it starts
 * later batches, an item finishes storing a copy or reading a file). Judged by what reached the
 * service after the press, in n8n's engine, with the node's waits on the fake clock.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import type { Readable } from 'node:stream';

import type { RunOptions } from './helpers/engine';
import { executionStopSignal } from '../nodes/shared/core/cancellation';
import { clock } from '../nodes/shared/core/clock';
import { OR, PE, api, created, recorded, taskResponse, type ApiPaths } from './helpers/api';
import { filesForThisFile, type FileLocation } from './helpers/binary-store';
import { jpegImage } from './helpers/images';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance, fromFile } from './helpers/params';
import { settles, startRun, type StartedRun } from './helpers/run';

const files = filesForThisFile();
eachTestOnAFreshWire();

const REST = 'https://n8n.example.com/rest';
const JPEG = jpegImage(640, 480);
/** Where a Webhook or Form trigger stores a file before its execution exists. */
const TRIGGER_TEMP: FileLocation = { workflowId: 'wf-1', executionId: 'temp' };

const creates = () => recorded.filter((request) => request.method === 'POST');

async function photoItems(count: number, location?: FileLocation): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (let index = 0; index < count; index++) {
		const photo: IBinaryData = await files.store(JPEG, `room-${index}.jpg`, location);
		items.push({ json: {}, binary: { photo } });
	}
	return items;
}

/** The Object Remover on photo files, through n8n's own link, at a public n8n address. */
function removeFromFiles(items: INodeExecutionData[], options: IDataObject = {}): RunOptions {
	return {
		node: 'objectRemover',
		restApiUrl: REST,
		parameters: { ...fromFile('objectRemover'), options },
		items,
		onError: 'continueRegularOutput',
	};
}

/** n8n's Batching (the node's Settings): one item a batch, a second between batches (its default). */
const ONE_ITEM_A_BATCH = {
	requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 1000 } } },
};

/** Every create answered with the next task id; `onCreate` runs as each one arrives. */
function answerCreates(paths: ApiPaths, onCreate: (count: number) => void = () => undefined) {
	let count = 0;
	api()
		.post(paths.create)
		.times(10)
		.reply(200, () => {
			onCreate(++count);
			return created(String(500 + count));
		});
	api()
		.get(paths.result)
		.query(true)
		.times(50)
		.reply(200, taskResponse('501', { status: 'Processing', percentage: 10 }));
}

/** Runs until the end, and returns the run with the number of requests the service saw at Stop. */
async function runUntilEnd(run: StartedRun, atStop: () => number | undefined) {
	const result = await settles(run.result, 'the stopped run ends');
	// Anything an item set going after the run returned has had its chance to reach the wire.
	await new Promise((resolve) => setTimeout(resolve, 100));
	return { result, atStop: atStop() };
}

/** Every emitted item is an error that names Stop, and none names a task. */
function expectEveryItemStopped(items: INodeExecutionData[]) {
	for (const item of items) {
		expect(String(item.json.error)).toMatch(/^Execution stopped before this item sent anything/);
		expect(item.json.id).toBeUndefined();
	}
}

describe('Stop while the node is still preparing its items', () => {
	test("while n8n stores the copy of a trigger's file: no link, no create, for any item", async () => {
		const items = await photoItems(3, TRIGGER_TEMP);
		answerCreates(OR);
		let sentAtStop: number | undefined;
		// n8n's binary data service is storing the first copy when Stop is pressed.
		const service = files.service as unknown as { store: (...args: unknown[]) => Promise<unknown> };
		const store = service.store.bind(service);
		const spy = jest.spyOn(service, 'store').mockImplementation(async (...args) => {
			if (sentAtStop === undefined) {
				sentAtStop = recorded.length;
				run.stop();
			}
			return await store(...args);
		});

		const run = startRun(removeFromFiles(items, { timeout: 60 }));
		const { result, atStop } = await runUntilEnd(run, () => sentAtStop);
		spy.mockRestore();

		expect(atStop).toBe(0);
		expect(recorded).toHaveLength(0);
		expectEveryItemStopped(result.items);
	});

	test("while a photo file is streamed for its check: the check's item and the others send nothing", async () => {
		const items = await photoItems(3);
		answerCreates(OR);
		let sentAtStop: number | undefined;
		const service = files.service as unknown as {
			getAsStream: (id: string, chunkSize?: number) => Promise<Readable>;
		};
		const getAsStream = service.getAsStream.bind(service);
		const spy = jest.spyOn(service, 'getAsStream').mockImplementation(async (id, chunkSize) => {
			const stream = await getAsStream(id, chunkSize);
			stream.once('data', () => {
				if (sentAtStop !== undefined) return;
				sentAtStop = recorded.length;
				run.stop();
			});
			return stream;
		});

		const run = startRun(removeFromFiles(items));
		const { result, atStop } = await runUntilEnd(run, () => sentAtStop);
		spy.mockRestore();

		expect(atStop).toBe(0);
		expect(recorded).toHaveLength(0);
		expectEveryItemStopped(result.items);
	});
});

describe("Stop between n8n's batches", () => {
	/** Three items, one a batch; Stop is pressed as the first create reaches the service. */
	async function stopAtFirstCreate(parameters: ReturnType<typeof enhance>) {
		let sentAtStop: number | undefined;
		answerCreates(PE, (count) => {
			if (count !== 1) return;
			sentAtStop = recorded.length;
			run.stop();
		});
		const run = startRun({
			node: 'photoEnhancer',
			parameters: { ...parameters, ...ONE_ITEM_A_BATCH },
			items: [{ json: {} }, { json: {} }, { json: {} }],
			onError: 'continueRegularOutput',
		});
		return await runUntilEnd(run, () => sentAtStop);
	}

	test('the batches n8n starts after Stop send nothing: no create, no status check', async () => {
		const { result, atStop } = await stopAtFirstCreate(enhance());

		// The first create was on its way when Stop was pressed; nothing followed it.
		expect(atStop).toBe(1);
		expect(recorded.map((request) => request.method)).toEqual(['POST']);
		const [first, ...later] = result.items;
		expect(first.json.error).toMatch(/stopped while the task was being created/i);
		for (const item of later) {
			expect(item.json.error).toMatch(/^Execution stopped before this item sent anything/);
			expect((item.json.details as IDataObject).description).toMatch(/Nothing was sent/);
		}
	});

	test('a Credit Limit of one task: the count is not started again after Stop, and no second create goes out', async () => {
		const { result, atStop } = await stopAtFirstCreate(
			enhance({ waitForCompletion: false, options: { creditLimit: 10 } }),
		);

		expect(atStop).toBe(1);
		expect(creates()).toHaveLength(1);
		for (const item of result.items.slice(1)) {
			expect(item.json.error).toMatch(/^Execution stopped before this item sent anything/);
		}
	});
});

describe('how long an execution is remembered as stopped', () => {
	/** What the node sees of one execution of n8n: its id and its finish notice. */
	function execution(id: string) {
		const onFinish: Array<() => void> = [];
		const ctx = {
			getExecutionId: () => id,
			onExecutionFinish: (handler: () => void) => onFinish.push(handler),
			getExecutionCancelSignal: () => undefined,
		} as unknown as IExecuteSingleFunctions;
		return { ctx, stop: () => onFinish.splice(0).forEach((handler) => handler()) };
	}
	const HOUR = 60 * 60_000;
	let now = 1_000_000;
	beforeEach(() => jest.spyOn(clock, 'now').mockImplementation(() => now));
	afterEach(() => jest.restoreAllMocks());

	test('a call long after Stop still finds it stopped, as long as calls keep coming', () => {
		const run = execution('exec-late-calls');
		executionStopSignal(run.ctx);
		run.stop();
		for (let day = 0; day < 5; day++) {
			now += 20 * HOUR;
			expect(executionStopSignal(run.ctx).aborted).toBe(true);
		}
	});

	test('it is forgotten once nothing of it has called in for days', () => {
		const run = execution('exec-quiet');
		executionStopSignal(run.ctx);
		run.stop();
		now += 3 * 24 * HOUR;
		// Meanwhile other executions ran and ended.
		const other = execution('exec-other');
		executionStopSignal(other.ctx);
		other.stop();
		expect(executionStopSignal(run.ctx).aborted).toBe(false);
	});

	test('what it remembers is bounded: after many more executions end, the first is forgotten', () => {
		const first = execution('exec-first-of-many');
		executionStopSignal(first.ctx);
		first.stop();
		for (let index = 0; index < 20_000; index++) {
			const other = execution(`exec-many-${index}`);
			executionStopSignal(other.ctx);
			other.stop();
		}
		expect(executionStopSignal(first.ctx).aborted).toBe(false);
	});
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * nock on the wire: raw response texts (so 64-bit ids stay bare numbers, as the service sends
 * them) and a recorder of every request the nodes make.
 */
import nock from 'nock';
import { sleep } from 'n8n-workflow';

import { clock as nodeClock } from '../../nodes/shared/core/clock';
import { parseJsonKeepingLongs } from '../../nodes/shared/core/long-ids';
import { TEST_CREDENTIALS } from './engine';

// Importing nock patches Node's own http and https modules, which every test file that jest runs
// in the same process shares. Whichever file brings it in (even for a constant from here) gives
// the modules back when it ends, or the next files' requests go through nock's socket wrapper.
afterAll(() => nock.restore());

export const BASE = String(TEST_CREDENTIALS.baseUrl);
export const API_KEY = String(TEST_CREDENTIALS.apiKey);
export const BIG_ID = '1839201938475628544'; // > 2^53: JSON.parse would make it ...8500
/** Where an API's tasks are created and read. */
export interface ApiPaths {
	create: string;
	result: string;
}
export const pathsOf = (name: string): ApiPaths => ({
	create: `/api/v1/${name}/generate`,
	result: `/api/v1/${name}/result`,
});
export const PE = pathsOf('photoEnhancer');
export const OR = pathsOf('objectRemover');

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);

export function envelope(
	dataJson: string,
	code = 0,
	message = code === 0 ? 'success' : 'error',
): string {
	return `{"code":${code},"message":${JSON.stringify(message)},"data":${dataJson}}`;
}

export function created(id: string): string {
	return envelope(id);
}

export interface TaskFields {
	status?: string;
	waitNumber?: number;
	percentage?: number;
	input?: object;
	output?: object | null;
}

/** The output of a finished task when a test gives none: one 4096 × 3072 image. */
export function resultOf(id: string): { resultUrl: string; width: number; height: number } {
	return { resultUrl: `https://cdn.ideal.house/results/${id}.png`, width: 4096, height: 3072 };
}

/** A result envelope with the id written as a bare number, exactly like a Java service. */
export function taskResponse(id: string, fields: TaskFields = {}): string {
	const status = fields.status ?? 'Success';
	const output =
		fields.output !== undefined ? fields.output : status === 'Success' ? resultOf(id) : null;
	const task = {
		status,
		waitNumber: fields.waitNumber ?? 0,
		percentage:
			fields.percentage ?? (status === 'Success' ? 100 : status === 'Processing' ? 50 : 0),
		input: fields.input ?? {},
		output,
	};
	return envelope(`{"id":${id},${JSON.stringify(task).slice(1)}`);
}

/** A task waiting in the queue with `waitNumber` tasks before it. */
export const queued = (waitNumber: number): TaskFields => ({ status: 'Unprocessed', waitNumber });
/** A task running, `percentage` % done. */
export const running = (percentage: number): TaskFields => ({ status: 'Processing', percentage });
/** A task that finished, with its result. */
export const DONE: TaskFields = { status: 'Success' };

/**
 * One answer to a status check: the task in that state, `times` times over (once if not given),
 * or a raw answer text (an envelope without a task, a task of another id).
 */
export type StatusAnswer = (TaskFields & { times?: number }) | string;

/**
 * The service's side of one task: its create answered with `id`, then each status check of that
 * id answered with the next of `states` in turn. With no state, the create alone is answered.
 */
export function serveTask(paths: ApiPaths, id: string, ...states: StatusAnswer[]): nock.Scope {
	const scope = api().post(paths.create).reply(200, created(id));
	for (const state of states) {
		const { times = 1, ...fields } = typeof state === 'string' ? {} : state;
		const answer = typeof state === 'string' ? state : taskResponse(id, fields);
		scope.get(paths.result).query({ taskId: id }).times(times).reply(200, answer);
	}
	return scope;
}

/** The next `count` Photo Enhancer creates answered with ids 81, 82, … in the order they arrive. */
export function answerCreates(count: number): nock.Scope {
	let next = 81;
	return api()
		.post(PE.create)
		.times(count)
		.reply(200, () => created(String(next++)));
}

/** Every create of `paths` answered with the error `code` (and nothing else answered). */
export function refuseCreates(
	paths: ApiPaths,
	code: number,
	message: string,
	times = 1,
): nock.Scope {
	return api()
		.post(paths.create)
		.times(times)
		.reply(200, envelope('null', code, message));
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body?: unknown;
	/** The body as it went over the wire. */
	text?: string;
}

/** Every request that reached any nock scope, in order. */
export const recorded: RecordedRequest[] = [];

function record(
	req: { method: string; path: string; headers: Record<string, string | string[]> },
	body: string,
) {
	const url = new URL(req.path, 'http://x');
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers))
		headers[name.toLowerCase()] = String(value);
	let parsed: unknown = body || undefined;
	try {
		// Long integers as their digits: a body that sent one exactly is seen exactly.
		parsed = body ? parseJsonKeepingLongs(body) : undefined;
	} catch {
		// keep the text
	}
	recorded.push({
		method: req.method,
		path: url.pathname,
		query: Object.fromEntries(url.searchParams.entries()),
		headers,
		body: parsed,
		text: body,
	});
}

/** Counts `resetWire` calls: a scope records only in the test that made it. */
let generation = 0;

/**
 * A scope on the API's base URL whose requests are recorded. nock reports a request a few ticks
 * after it leaves, so a poll already on its way when a test ended can be reported during the next
 * one; it is dropped rather than taken for the next test's first request.
 */
export function api(base = BASE): nock.Scope {
	const scope = nock(base);
	const madeIn = generation;
	scope.on('request', (req, _interceptor, body) => {
		if (madeIn === generation) record(req, body);
	});
	return scope;
}

/** A fake clock for the poller: sleeping advances time at once, and is logged. */
export const clock = { now: 1_000_000, sleeps: [] as number[] };

export function resetWire(): void {
	generation++;
	restoreRequestLimits?.();
	restoreRequestLimits = undefined;
	held.clear();
	nock.cleanAll();
	nock.disableNetConnect();
	recorded.length = 0;
	clock.now = 1_000_000;
	clock.sleeps = [];
	nodeClock.now = () => clock.now;
	nodeClock.sleep = async (ms: number) => {
		clock.sleeps.push(ms);
		clock.now += ms;
	};
	// No jitter: polls land exactly on the interval.
	nodeClock.random = () => 0.5;
}

/** Creates (POST) and polls (GET …/result) recorded so far. */
export function requestsTo(path: string): RecordedRequest[] {
	return recorded.filter((request) => request.path === path);
}

/** Waits of the node that began on the clock of `stopDuringWait` and have not ended. */
const held = new Set<() => void>();

/**
 * The fake clock for a test of Stop: the first `waitsBefore` waits pass at once (the fake time
 * moves on), the next one presses Stop (`press`) and lasts until the node's stop signal ends it.
 * Any later wait is held, as if no time passed, until `quietAfterStop` ends it.
 */
export function stopDuringWait(waitsBefore: number, press: () => void): void {
	let begun = 0;
	nodeClock.sleep = async (ms: number, signal?: AbortSignal) => {
		clock.sleeps.push(ms);
		if (++begun <= waitsBefore) {
			clock.now += ms;
			return;
		}
		await new Promise<void>((resolve, reject) => {
			const release = () => {
				held.delete(release);
				clock.now += ms;
				resolve();
			};
			held.add(release);
			signal?.addEventListener(
				'abort',
				() => {
					held.delete(release);
					reject(signal.reason);
				},
				{ once: true },
			);
			if (begun === waitsBefore + 1) press();
		});
	};
}

/** Turns of the event loop in which anything already on its way (a request, its answer) goes on. */
export async function flushEventLoop(turns = 50): Promise<void> {
	for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Checks that nothing follows a Stop, on the clock of `stopDuringWait` rather than by sleeping:
 * every wait the node still holds is ended, as if all the time in the world had passed, and what
 * that sets going may send nothing more than `count` said when the run returned. A poll loop that
 * outlived the Stop would send its next status check here.
 */
export async function quietAfterStop(count: () => number): Promise<number> {
	const atReturn = count();
	await flushEventLoop();
	for (const release of [...held]) release();
	await flushEventLoop();
	expect(count()).toBe(atReturn);
	return atReturn;
}

/**
 * The time limits of requests on the fake clock: every `AbortSignal.timeout` the nodes ask for
 * is recorded, and runs out only when the test calls `runOut` (the fake time moves on by it).
 */
export function swapRequestLimits(): { asked: number[]; runOut(): void } {
	const pending: Array<{ ms: number; controller: AbortController }> = [];
	const asked: number[] = [];
	const spy = jest.spyOn(AbortSignal, 'timeout').mockImplementation((ms: number) => {
		const controller = new AbortController();
		pending.push({ ms, controller });
		asked.push(ms);
		return controller.signal;
	});
	restoreRequestLimits = () => spy.mockRestore();
	return {
		asked,
		/** The most recent limit runs out. */
		runOut() {
			const limit = pending.pop();
			if (!limit) throw new Error('No request time limit to run out');
			clock.now += limit.ms;
			limit.controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
		},
	};
}
let restoreRequestLimits: (() => void) | undefined;

/** Lets requests reach a local server on loopback (every other host stays nock's). */
export function allowLoopback(): void {
	nock.enableNetConnect(/127\.0\.0\.1/);
}

/**
 * Real time for a test against a local server, with the node's waits cut to 50 ms: for what
 * only a real socket shows (a transfer that stalls midway), never to judge how long anything took.
 */
export function realTime(): void {
	allowLoopback();
	nodeClock.now = () => Date.now();
	nodeClock.sleep = async (ms, signal) => await sleep(Math.min(ms, 50), signal);
}

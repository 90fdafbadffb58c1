/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console, @n8n/community-nodes/no-dangerous-functions */
/**
 * The bench's multi-process rows: several node processes on ONE account, as n8n's queue-mode
 * workers are, each running one execution of its share of the N items through n8n's engine, all
 * started at the same moment, against the local service limiting the account's requests a second.
 * Each process has its own request budget; nothing is shared between them but the account.
 *
 * Per row: the wall from the common start to the last item emitted, against the bound of the
 * whole N; the service's HTTP 429s as a share of all the requests it answered; tasks the service
 * created that no item emitted (lost) and items with more than one task (created twice), from the
 * service's task list and the ids the items emitted; items failed; status checks per task.
 *
 * With BENCH_RATE_LOG=1 each process prints, as they happen, the lines n8n's log gets when its
 * rate changes, with the seconds since the common start.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What one process of a row runs: items `from` … `from + count − 1` through `node`. */
export interface Part {
	baseUrl: string;
	apiKey: string;
	node: 'photoEnhancer' | 'idealHouse';
	parameters: Record<string, unknown>;
	from: number;
	count: number;
}

/** What a process reports once its execution ended. */
interface PartResult {
	startedAt: number;
	endedAt: number;
	emitted: Array<{ i: number; id?: string; status?: string }>;
	peakRssMb: number;
}

const READY = 'BENCH-PART-READY';
const RESULT = 'BENCH-PART-RESULT ';

/**
 * The child side: loads n8n's engine, says it is ready, waits for the go on stdin, runs its items
 * and reports what they emitted.
 */
export async function runPart(part: Part): Promise<void> {
	const { runNode, logLines } = await import('../test/helpers/engine');
	console.log(READY);
	await new Promise<void>((resolve) => {
		createInterface({ input: process.stdin }).once('line', () => resolve());
	});
	let peakRss = process.memoryUsage().rss;
	const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
	const startedAt = Date.now();
	let logged = 0;
	const rateLog = setInterval(() => {
		if (!process.env.BENCH_RATE_LOG) return;
		for (; logged < logLines.length; logged++) {
			if (logLines[logged].includes('requests a second')) {
				console.error(
					`${((Date.now() - startedAt) / 1000).toFixed(2)} [${part.from}] ${logLines[logged].slice(0, 160)}`,
				);
			}
		}
	}, 20);
	const { items, error } = await runNode({
		node: part.node,
		parameters: part.parameters,
		items: Array.from({ length: part.count }, (_, k) => ({ json: { i: part.from + k } })),
		credentials: { apiKey: part.apiKey, baseUrl: part.baseUrl },
		onError: 'continueRegularOutput',
	});
	const endedAt = Date.now();
	clearInterval(sampler);
	clearInterval(rateLog);
	if (error) throw new Error(error.message);
	const result: PartResult = {
		startedAt,
		endedAt,
		emitted: items.map((item, k) => {
			const paired = (item.pairedItem as { item?: number } | undefined)?.item ?? k;
			// A failed item that names its task still accounts for it (its error's details).
			const id = item.json.id ?? (item.json.details as { id?: unknown } | undefined)?.id;
			return {
				i: part.from + paired,
				id: typeof id === 'string' ? id : undefined,
				status: typeof item.json.status === 'string' ? item.json.status : undefined,
			};
		}),
		peakRssMb: peakRss / 2 ** 20,
	};
	console.log(`${RESULT}${JSON.stringify(result)}`);
}

interface Child {
	ready: Promise<void>;
	result: Promise<PartResult>;
	go(): void;
}

function startPart(script: string, part: Part): Child {
	const child = spawn(
		process.execPath,
		[...process.execArgv, script, '--part', JSON.stringify(part)],
		{
			stdio: ['pipe', 'pipe', 'inherit'],
			// A folder of its own, as each n8n process has: n8n writes its settings file there on
			// first start, and processes starting together on one folder read it half written.
			env: { ...process.env, N8N_USER_FOLDER: mkdtempSync(join(tmpdir(), 'ideal-house-n8n-')) },
		},
	);
	const lines = createInterface({ input: child.stdout });
	let result: PartResult | undefined;
	const ready = new Promise<void>((resolve, reject) => {
		lines.on('line', (line) => {
			if (line === READY) resolve();
			if (line.startsWith(RESULT)) result = JSON.parse(line.slice(RESULT.length)) as PartResult;
		});
		child.once('exit', () => reject(new Error('a bench process ended before it was ready')));
	});
	const done = new Promise<PartResult>((resolve, reject) => {
		child.once('exit', (code) =>
			result ? resolve(result) : reject(new Error(`a bench process ended with ${code}`)),
		);
	});
	return { ready, result: done, go: () => child.stdin.end('go\n') };
}

/** What the service says after a row. */
export interface ServiceView {
	requests: { total: number; byEndpoint: Record<string, { total: number }>; peakPerSecond: number };
	rateLimited?: { total: number };
	tasks: Array<{
		id: string;
		imageUrl: unknown;
		createdAt: number;
		endAt: number;
		doneSeenAt: number | null;
	}>;
}

export interface ProcessesOutcome {
	wallS: number;
	/** The slowest task's time at the service, from create to finish. */
	slowestS: number;
	requests: number;
	throttled: number;
	peakRps: number;
	resultChecks: number;
	failed: number;
	lost: number;
	createdTwice: number;
	peakRssMb: number;
}

/**
 * Runs one row: `processes` processes of `script` (this bench, with `--part`), each with its
 * share of `n` items, started together once all of them have loaded n8n.
 */
export async function runProcesses(
	script: string,
	processes: number,
	n: number,
	part: Omit<Part, 'from' | 'count'>,
	serviceView: () => Promise<ServiceView>,
	resultEndpoint: string,
): Promise<ProcessesOutcome> {
	const children = Array.from({ length: processes }, (_, k) => {
		const from = Math.round((k * n) / processes);
		const to = Math.round(((k + 1) * n) / processes);
		return startPart(script, { ...part, from, count: to - from });
	});
	await Promise.all(children.map((child) => child.ready));
	for (const child of children) child.go();
	const results = await Promise.all(children.map((child) => child.result));
	const view = await serviceView();

	if (process.env.BENCH_TIMELINE) printTimeline(view, Math.min(...results.map((r) => r.startedAt)));
	const emitted = results.flatMap((result) => result.emitted);
	const emittedIds = new Set(emitted.map((item) => item.id).filter(Boolean));
	const itemOf = (task: ServiceView['tasks'][number]) =>
		/[?&]item=(\d+)/.exec(String(task.imageUrl))?.[1] ?? `task ${task.id}`;
	const tasksPerItem = new Map<string, number>();
	for (const task of view.tasks) {
		tasksPerItem.set(itemOf(task), (tasksPerItem.get(itemOf(task)) ?? 0) + 1);
	}
	return {
		wallS:
			(Math.max(...results.map((r) => r.endedAt)) - Math.min(...results.map((r) => r.startedAt))) /
			1000,
		slowestS: Math.max(...view.tasks.map((task) => (task.endAt - task.createdAt) / 1000)),
		requests: view.requests.total,
		throttled: view.rateLimited?.total ?? 0,
		peakRps: view.requests.peakPerSecond,
		resultChecks: view.requests.byEndpoint[resultEndpoint]?.total ?? 0,
		failed: n - emitted.filter((item) => item.status === 'Success').length,
		lost: view.tasks.filter((task) => !emittedIds.has(task.id)).length,
		createdTwice: [...tasksPerItem.values()].filter((count) => count > 1).length,
		peakRssMb: Math.max(...results.map((result) => result.peakRssMb)),
	};
}

/**
 * With BENCH_TIMELINE=1: the account's accepted requests in each second from the common start,
 * as the service's task list shows them (creates, and the check that first saw each task done).
 */
function printTimeline(view: ServiceView, startedAt: number): void {
	const perSecond: Array<{ creates: number; checks: number }> = [];
	const count = (at: number | null, kind: 'creates' | 'checks') => {
		if (at === null) return;
		const second = Math.max(0, Math.floor((at - startedAt) / 1000));
		for (let s = perSecond.length; s <= second; s++) perSecond.push({ creates: 0, checks: 0 });
		perSecond[second][kind]++;
	};
	for (const task of view.tasks) {
		count(task.createdAt, 'creates');
		count(task.doneSeenAt, 'checks');
	}
	console.error(
		perSecond.map((s, k) => `${k}s ${s.creates}+${s.checks}=${s.creates + s.checks}`).join(' | '),
	);
}

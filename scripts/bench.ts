/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console */
/**
 * Bulk-run benchmark: the Photo Enhancer through n8n's engine against the local service, which
 * runs in its own process. Each row runs in a fresh process of its own, so that its peak RSS is
 * its own. Rows: N items for each task-time model; Virtual Staging's (Ideal House AI node) at
 * each N for the fixed model (`--api-models`), right after the Photo Enhancer's; a download run (N × full-size 4K results) in both
 * binary data modes; optionally serial runs; the photo-file rows (the same N photo files sent by
 * URL, and through n8n's own signed link). Writes bench/out/<out>.md and .json.
 *
 * Per row: wall; wall / bound (bound = the larger of N / requests-per-second + the slowest task's
 * time at the service, from create to finish, queueing included, and 2N / requests-per-second:
 * every task needs a create and at least one status check, all within the one budget); polls per
 * task; detection latency (when a
 * result call first reported the end, minus the end, both at the service: the item is emitted
 * right after that call); peak requests/s as the service counts them on arrival; peak RSS of the process running n8n;
 * credits the service charged (net of refunds) against what `price()` says the items cost; for
 * an API other than the Photo Enhancer, its wall as a ratio of the Photo Enhancer's row with the
 * same tasks and N in the same run; for the photo-file rows, when the service created the first,
 * median and last task, and the CPU time of the process running n8n.
 *
 *   npm run bench                                   # everything (about 24 minutes)
 *   npm run bench -- --models fixed --n 1,50         # a subset
 *   npm run bench -- --models serial                 # 20 AI 3D tasks waiting their turn
 *   npm run bench -- --downloads 0                   # no download run
 *   npm run bench -- --apis photoEnhancer            # only the Photo Enhancer's rows
 *   npm run bench -- --api-models fixed,queue        # Virtual Staging rows for more task models
 *   npm run bench -- --models none --downloads 200   # only the download run
 *   npm run bench -- --models none --downloads 0 --photo-files 50   # only the photo-file rows
 *   npm run bench -- --processes 2,4 --models fixed --n 1000   # 2 and 4 processes on one account, limited to 50/s
 *   npm run bench -- --render bench/out/before.json,bench/out/after.json   # before/after table + chart
 */
import './n8n-env';

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';

import { sleep, type IBinaryData } from 'n8n-workflow';

import { freePort } from '../test/helpers/ports';
import { startSignedLinkStandIn, type SignedLinkStandIn } from '../test/helpers/n8n-signed-links';
import { runPart, runProcesses, type Part, type ServiceView } from './bench-processes';
import { APIS, type IdealHouseApi } from '../nodes/shared/catalog/apis';
import { price } from '../nodes/shared/catalog/credits';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
	const index = args.indexOf(`--${name}`);
	return index >= 0 ? args[index + 1] : fallback;
};
const list = (name: string, fallback: string) =>
	option(name, fallback)
		.split(',')
		.filter((value) => value && value !== 'none');

const RATE = 50; // the node's default Max Requests per Second
const outName = option('out', 'results');
const outDir = join(__dirname, '..', 'bench', 'out');

/** The APIs a row can run, each through its node with the parameters it sends. */
type BenchApi = 'photoEnhancer' | 'virtualStaging' | 'ai3d';

interface ApiRun {
	label: string;
	api: IdealHouseApi;
	node: 'photoEnhancer' | 'idealHouse';
	parameters: (imageUrl: string, download: boolean) => Record<string, unknown>;
	/** The body one item's create sends, as far as its price depends on it. */
	sent: Record<string, string>;
}

const API_RUNS: Record<BenchApi, ApiRun> = {
	photoEnhancer: {
		label: 'Photo Enhancer',
		api: APIS.photoEnhancer,
		node: 'photoEnhancer',
		parameters: (imageUrl, download) => ({
			operation: 'enhance',
			imageUrl,
			presetId: 'image-optimization-mls-photo-enhancement',
			imageSize: download ? '4K' : '1K',
		}),
		sent: { presetId: 'image-optimization-mls-photo-enhancement' },
	},
	virtualStaging: {
		label: 'Virtual Staging',
		api: APIS.virtualStaging,
		node: 'idealHouse',
		parameters: (imageUrl) => ({
			resource: 'virtualStaging',
			operation: 'create',
			imageUrl,
			indoorTypeId: 'Interior Design_Interior Scene_Living Room',
		}),
		sent: {},
	},
	ai3d: {
		label: 'AI 3D',
		api: APIS.ai3d,
		node: 'idealHouse',
		parameters: () => ({
			resource: 'ai3d',
			operation: 'create',
			prompt: 'A two-storey brick house with a gabled roof',
		}),
		sent: {},
	},
};

/** How the service's tasks behave. Durations in ms; `workers` below N makes tasks queue. */
interface Model {
	name: string;
	label: string;
	taskDurationMs: number;
	taskDurationJitterMs: number;
	workers: number;
	progressModel: 'linear' | 'stuck-then-jump';
	/** Rows of this model run only through this API, whatever --apis says. */
	api?: BenchApi;
	/** Its own item counts, whatever --n says. */
	sizes?: number[];
}

const MODELS: Record<string, Model> = {
	fixed: {
		name: 'fixed',
		label: '10 s, linear',
		taskDurationMs: 10_000,
		taskDurationJitterMs: 0,
		workers: 1000,
		progressModel: 'linear',
	},
	uniform: {
		name: 'uniform',
		label: 'uniform 5–30 s, linear',
		taskDurationMs: 17_500,
		taskDurationJitterMs: 12_500,
		workers: 1000,
		progressModel: 'linear',
	},
	queue: {
		name: 'queue',
		label: '5 s on 40 workers (queued), linear',
		taskDurationMs: 5_000,
		taskDurationJitterMs: 0,
		workers: 40,
		progressModel: 'linear',
	},
	stuck: {
		name: 'stuck',
		label: '10 s, stuck then jump',
		taskDurationMs: 10_000,
		taskDurationJitterMs: 0,
		workers: 1000,
		progressModel: 'stuck-then-jump',
	},
	// AI 3D runs one task at a time per account, whatever `workers` says: each waits its turn.
	serial: {
		name: 'serial',
		label: '20 s, one at a time (AI 3D queue), linear',
		taskDurationMs: 20_000,
		taskDurationJitterMs: 0,
		workers: 4,
		progressModel: 'linear',
		api: 'ai3d',
		sizes: [20],
	},
};

interface RowSpec {
	/** Photo Enhancer when not given (rows of earlier runs). */
	api?: BenchApi;
	/**
	 * Photo-file rows: every item carries a photo file (stored in the row's binary data mode);
	 * `url` sends the sample's URL anyway (the baseline), `n8n` gives the service n8n's own signed
	 * link to it (Image Source = Binary File), served by the signed-link stand-in.
	 */
	photos?: 'url' | 'n8n';
	model: Model;
	n: number;
	mode: 'concurrent' | 'serial';
	/** Download each result as binary data, in this binary data mode. */
	download?: 'default' | 'filesystem';
	/** Binary data mode of a run without downloads (the download runs' baseline). */
	binaryMode?: 'default' | 'filesystem';
	resultBytes: number;
	/**
	 * Node processes on the one account, each running one execution of N / processes items at
	 * the same moment (the multi-process rows; 1 when not given).
	 */
	processes?: number;
	/** The service's limit per key, requests a second (0: none). */
	rateLimit?: number;
}

interface Row {
	/** Photo Enhancer when not given (rows of earlier runs). */
	api?: BenchApi;
	model: string;
	label: string;
	mode: string;
	n: number;
	binary: string;
	wallS: number;
	boundS: number;
	pollsPerTask: number;
	meanLatencyS: number;
	p95LatencyS: number;
	peakRps: number;
	peakRssMb: number;
	failed: number;
	/** Charged by the service, net of refunds. */
	credits?: number;
	/** What `price()` says the successful items cost. */
	expectedCredits?: number;
	/** Multi-process rows: see `RowSpec`. */
	processes?: number;
	rateLimit?: number;
	/** Requests the service answered, and how many of them it refused with HTTP 429. */
	requests?: number;
	throttled?: number;
	/** Tasks the service created that no item emitted, and items with more than one task. */
	lost?: number;
	createdTwice?: number;
	/** Photo-file rows through n8n's link: the files the signed-link stand-in sent whole. */
	linkFetches?: number;
	/**
	 * When the service created the first, the median and the last task, from the row's start (what
	 * a photo file delays: its check, then the service's download of it).
	 */
	createS?: { first: number; median: number; last: number };
	/** CPU time of the process running n8n during the row, user and system. */
	cpuS?: number;
}

interface Service {
	baseUrl: string;
	apiKey: string;
	process?: ChildProcess;
}

/** Bytes of each photo file: realistic for a listing photo, and incompressible. */
const PHOTO_FILE_BYTES = 3_000_000;

/** What each photo-file row says it sent (as earlier runs wrote them). */
const PHOTO_ROWS: Record<NonNullable<RowSpec['photos']>, string> = {
	url: 'photos from URLs, items holding the same files',
	n8n: "photos from 3 MB files via n8n's signed link",
};

interface TaskStat {
	createdAt: number;
	endAt: number;
	doneSeenAt: number | null;
}

interface Stats {
	credits: { charged: number; refunded: number };
	requests: { total: number; byEndpoint: Record<string, { total: number }>; peakPerSecond: number };
	tasks: TaskStat[];
}

async function stats(service: Service, withTasks: boolean): Promise<Stats> {
	const query = withTasks ? '' : '?tasks=false';
	return (await (await fetch(`${service.baseUrl}/__admin/stats${query}`)).json()) as Stats;
}

async function admin(service: Service, path: string, body: object): Promise<void> {
	const send = async () =>
		await fetch(`${service.baseUrl}/__admin/${path}`, {
			method: 'POST',
			body: JSON.stringify(body),
		});
	// A kept-alive connection idle through a whole row may have been closed by the service.
	const response = await send().catch(async () => await send());
	if (!response.ok) throw new Error(`${path}: ${await response.text()}`);
}

async function startServiceProcess(): Promise<Service> {
	const port = await freePort();
	const apiKey = 'bench-key';
	const child = spawn(
		process.execPath,
		[
			join(__dirname, '..', 'service', 'main.ts'),
			'--port',
			String(port),
			'--key',
			`${apiKey}=1000000000`,
		],
		{ stdio: 'ignore' },
	);
	const service = { baseUrl: `http://127.0.0.1:${port}`, apiKey, process: child };
	for (let attempt = 0; attempt < 100; attempt++) {
		try {
			await stats(service, false);
			return service;
		} catch {
			await sleep(100);
		}
	}
	child.kill();
	throw new Error('the local service did not start');
}

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** N distinct photo files (the living-room sample, then incompressible bytes), stored one at a time. */
async function storePhotoFiles(
	service: Service,
	binaryData: { store: (...args: never[]) => Promise<unknown> },
	n: number,
): Promise<IBinaryData[]> {
	const sample = Buffer.from(
		await (await fetch(`${service.baseUrl}/samples/living-room.png`)).arrayBuffer(),
	);
	const store = binaryData.store as unknown as (
		location: object,
		bytes: Buffer,
		data: IBinaryData,
	) => Promise<IBinaryData>;
	const files: IBinaryData[] = [];
	for (let k = 0; k < n; k++) {
		// Bytes after a PNG's end are ignored by readers; they make each file distinct and realistic in size.
		const bytes = Buffer.concat([sample, randomBytes(PHOTO_FILE_BYTES - sample.length)]);
		files.push(
			await store.call(
				binaryData,
				{ type: 'execution', workflowId: 'bench', executionId: `photos-${k}` },
				bytes,
				{ data: '', mimeType: 'image/png', fileName: `photo-${k}.png` },
			),
		);
	}
	return files;
}

/** When the service created the tasks, in seconds from `started`: the first, median and last. */
function createTimes(tasks: TaskStat[], started: number): Row['createS'] {
	const times = tasks.map((task) => (task.createdAt - started) / 1000).sort((a, b) => a - b);
	return { first: times[0], median: percentile(times, 50), last: times[times.length - 1] };
}

/**
 * The least wall a run could take: the last create goes out after N / rate seconds and its task
 * still has to run; and every task needs a create and a status check, 2N requests at the rate.
 */
function bound(n: number, slowestS: number): number {
	return Math.max(n / RATE + slowestS, (2 * n) / RATE);
}

/** Runs one row in this process (started by the parent with --row). */
/** What a row says of what it ran: the API, the task model, the wait mode and N. */
function rowOf(spec: RowSpec): Pick<Row, 'api' | 'model' | 'label' | 'mode' | 'n'> {
	return {
		api: spec.api ?? 'photoEnhancer',
		model: spec.model.name,
		label: spec.model.label,
		mode: spec.mode,
		n: spec.n,
	};
}

async function runRow(service: Service, spec: RowSpec): Promise<Row> {
	const binaryMode = spec.download ?? spec.binaryMode ?? 'default';
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = binaryMode;
	const storage = mkdtempSync(join(tmpdir(), 'ideal-house-bench-binary-'));
	process.env.N8N_BINARY_DATA_STORAGE_PATH = storage;
	// n8n loads these only now, after the binary data mode is set; n8n's own start-up inits the
	// binary data service the same way.
	const coreDir = dirname(require.resolve('n8n-core/package.json'));
	// The copy of the DI container n8n-core itself uses.
	const { Container } = (await import(
		require.resolve('@n8n/di', { paths: [coreDir] })
	)) as typeof import('@n8n/di');
	const { BinaryDataService } = await import('n8n-core');
	const binaryData = Container.get(BinaryDataService);
	await binaryData.init();
	const { runNode } = await import('../test/helpers/engine');

	const apiRun = API_RUNS[spec.api ?? 'photoEnhancer'];
	const parameters = {
		...apiRun.parameters(
			`={{ "${service.baseUrl}/samples/living-room.png?item=" + $json.i }}`,
			spec.download !== undefined,
		),
		...(spec.download ? { options: { downloadResult: true } } : {}),
		...(spec.photos === 'n8n' ? { imageSource: 'binary', imageBinaryProperty: 'data' } : {}),
	};
	// The photo-file rows hold the same files, made before the clock and the memory sampler start.
	const photoFiles = spec.photos ? await storePhotoFiles(service, binaryData, spec.n) : [];
	// n8n's signed links are served by the process that runs the node, as n8n's main process does.
	const signedLinks: SignedLinkStandIn | undefined =
		spec.photos === 'n8n'
			? await startSignedLinkStandIn(
					binaryData as unknown as Parameters<typeof startSignedLinkStandIn>[0],
				)
			: undefined;
	const run = async (from: number, count: number): Promise<number> => {
		const { items, error } = await runNode({
			node: apiRun.node,
			...(signedLinks ? { restApiUrl: signedLinks.restApiUrl } : {}),
			parameters,
			items: Array.from({ length: count }, (_, k) => ({
				json: { i: from + k },
				...(photoFiles[from + k] ? { binary: { data: photoFiles[from + k] } } : {}),
			})),
			credentials: { apiKey: service.apiKey, baseUrl: service.baseUrl },
			onError: 'continueRegularOutput',
		});
		if (error) throw new Error(error.message);
		// A download run's item counts as failed without its image, or, in filesystem mode, when
		// the image was kept in memory rather than stored on disk.
		const missing = (item: (typeof items)[number]) =>
			spec.download !== undefined &&
			(!item.binary?.data || (spec.download === 'filesystem' && !item.binary.data.id));
		return items.filter((item) => item.json.status !== 'Success' || missing(item)).length;
	};

	let peakRss = process.memoryUsage().rss;
	let running = true;
	const sampler = (async () => {
		while (running) {
			peakRss = Math.max(peakRss, process.memoryUsage().rss);
			await sleep(50);
		}
	})();
	const started = Date.now();
	const cpuAtStart = process.cpuUsage();
	let failed = 0;
	if (spec.mode === 'serial') {
		for (let k = 0; k < spec.n; k++) failed += await run(k, 1);
	} else {
		failed = await run(0, spec.n);
	}
	const wallS = (Date.now() - started) / 1000;
	const cpu = process.cpuUsage(cpuAtStart);
	running = false;
	await sampler;
	await signedLinks?.close();
	for (const cut of signedLinks?.answered.cut ?? []) {
		console.error(`The signed-link stand-in's answer was cut short: ${cut}`);
	}
	rmSync(storage, { recursive: true, force: true });

	const after = await stats(service, true);
	// Counted by the service as requests arrive: samples taken from this busy process would be
	// stamped late, and a late stamp stretches a window past one second.
	const peakRps = after.requests.peakPerSecond;
	const latencies = after.tasks
		.filter((task) => task.doneSeenAt !== null)
		.map((task) => ((task.doneSeenAt as number) - task.endAt) / 1000)
		.sort((a, b) => a - b);
	const slowestS = Math.max(...after.tasks.map((task) => (task.endAt - task.createdAt) / 1000));
	const unitPrice = price(apiRun.api, apiRun.sent) ?? Number.NaN;
	return {
		...rowOf(spec),
		binary: spec.photos
			? `${PHOTO_ROWS[spec.photos]}, ${binaryMode}`
			: spec.download
				? `download, ${binaryMode}`
				: binaryMode === 'default'
					? ''
					: `no download, ${binaryMode}`,
		wallS,
		boundS: spec.mode === 'serial' ? Number.NaN : bound(spec.n, slowestS),
		pollsPerTask: (after.requests.byEndpoint[`${apiRun.api.name}.result`]?.total ?? 0) / spec.n,
		meanLatencyS: latencies.reduce((sum, value) => sum + value, 0) / latencies.length,
		p95LatencyS: percentile(latencies, 95),
		peakRps,
		peakRssMb: peakRss / 2 ** 20,
		failed,
		credits: after.credits.charged - after.credits.refunded,
		expectedCredits: unitPrice * (spec.n - failed),
		...(signedLinks ? { linkFetches: signedLinks.answered.ok } : {}),
		createS: createTimes(after.tasks, started),
		cpuS: (cpu.user + cpu.system) / 1e6,
	};
}

/** Starts a fresh process for one row (several for a multi-process row), after resetting and configuring the service for it. */
async function childRow(service: Service, spec: RowSpec): Promise<Row> {
	await admin(service, 'reset', {});
	await admin(service, 'config', {
		taskDurationMs: spec.model.taskDurationMs,
		taskDurationJitterMs: spec.model.taskDurationJitterMs,
		workers: spec.model.workers,
		progressModel: spec.model.progressModel,
		resultBytes: spec.resultBytes,
		rateLimit: spec.rateLimit ?? 0,
	});
	if (spec.processes !== undefined) return await processesRow(service, spec);
	const output = execFileSync(
		process.execPath,
		[
			...process.execArgv,
			__filename,
			'--row',
			JSON.stringify({ spec, service: { ...service, process: undefined } }),
		],
		{ encoding: 'utf8', maxBuffer: 16 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	const lines = output.trim().split('\n');
	return JSON.parse(lines[lines.length - 1]) as Row;
}

/** A multi-process row: `spec.processes` node processes on the one account, started together. */
async function processesRow(service: Service, spec: RowSpec): Promise<Row> {
	const apiRun = API_RUNS[spec.api ?? 'photoEnhancer'];
	const part: Omit<Part, 'from' | 'count'> = {
		baseUrl: service.baseUrl,
		apiKey: service.apiKey,
		node: apiRun.node,
		parameters: apiRun.parameters(
			`={{ "${service.baseUrl}/samples/living-room.png?item=" + $json.i }}`,
			false,
		),
	};
	const outcome = await runProcesses(
		__filename,
		spec.processes ?? 1,
		spec.n,
		part,
		async () => (await stats(service, true)) as unknown as ServiceView,
		`${apiRun.api.name}.result`,
	);
	return {
		...rowOf(spec),
		binary: '',
		wallS: outcome.wallS,
		boundS: bound(spec.n, outcome.slowestS),
		pollsPerTask: outcome.resultChecks / spec.n,
		meanLatencyS: Number.NaN,
		p95LatencyS: Number.NaN,
		peakRps: outcome.peakRps,
		peakRssMb: outcome.peakRssMb,
		failed: outcome.failed,
		processes: spec.processes,
		rateLimit: spec.rateLimit ?? 0,
		requests: outcome.requests,
		throttled: outcome.throttled,
		lost: outcome.lost,
		createdTwice: outcome.createdTwice,
	};
}

const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const createText = ({ createS }: Row) =>
	createS ? `${f(createS.first, 2)}, ${f(createS.median, 2)}, ${f(createS.last, 2)} s` : '–';

const apiOf = (row: Row): BenchApi => row.api ?? 'photoEnhancer';

/** The row's tasks, mode and binary data, without its API. */
const tasksOf = (row: Row) =>
	[row.label, row.mode === 'serial' ? 'serial' : '', row.binary].filter(Boolean).join('; ');

const key = (row: Row) =>
	`${apiOf(row)}|${row.model}|${row.mode}|${row.n}|${row.binary}|${row.processes ?? ''}|${row.rateLimit ?? ''}`;

/** A Markdown table: its header line, its alignment line, a line a row. */
function markdownTable(header: string, alignment: string, lines: string[]): string {
	return [header, alignment, ...lines].join('\n');
}

const percent = (row: Row) =>
	row.requests ? `${f((100 * (row.throttled ?? 0)) / row.requests, 1)} %` : '–';

/** The multi-process rows: processes on one account against the service's limit per key. */
function processTable(rows: Row[]): string {
	return markdownTable(
		'| processes | tasks | N | limit (requests/s per key) | bound (s) | wall (s) | wall / bound | 429s / requests | tasks lost | created twice | items failed | checks per task | peak requests/s | peak RSS per process (MB) |',
		'|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		rows.map(
			(row) =>
				`| ${row.processes} | ${row.label} | ${row.n} | ${row.rateLimit || 'none'} | ${f(row.boundS)} | ${f(row.wallS)} | ${f(row.wallS / row.boundS, 2)} | ${row.throttled} / ${row.requests} (${percent(row)}) | ${row.lost} | ${row.createdTwice} | ${row.failed} | ${f(row.pollsPerTask, 2)} | ${row.peakRps} | ${f(row.peakRssMb, 0)} |`,
		),
	);
}

/** The multi-process rows before and after, each cell "before → after". */
function processComparison(before: Row[], after: Row[]): string {
	return markdownTable(
		'| processes | tasks | N | limit (requests/s per key) | bound (s) | wall (s) | wall / bound | 429s / requests | tasks lost | created twice | items failed | checks per task |',
		'|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		after.map((a) => {
			const b = before.find((row) => key(row) === key(a));
			const pair = (text: (row: Row) => string) => (b ? `${text(b)} → ${text(a)}` : text(a));
			return `| ${a.processes} | ${a.label} | ${a.n} | ${a.rateLimit || 'none'} | ${f(a.boundS)} | ${pair((r) => f(r.wallS))} | ${pair((r) => f(r.wallS / r.boundS, 2))} | ${pair((r) => `${r.throttled} / ${r.requests} (${percent(r)})`)} | ${pair((r) => String(r.lost))} | ${pair((r) => String(r.createdTwice))} | ${pair((r) => String(r.failed))} | ${pair((r) => f(r.pollsPerTask, 2))} |`;
		}),
	);
}

/** Both kinds of rows: the ordinary table, then the multi-process one. */
function tables(rows: Row[], before?: Row[]): string {
	const single = rows.filter((row) => row.processes === undefined);
	const multi = rows.filter((row) => row.processes !== undefined);
	const parts = [];
	if (single.length > 0) {
		parts.push(
			before
				? comparison(
						before.filter((row) => row.processes === undefined),
						single,
					)
				: table(single),
		);
	}
	if (multi.length > 0) {
		parts.push(
			before
				? processComparison(
						before.filter((row) => row.processes !== undefined),
						multi,
					)
				: processTable(multi),
		);
	}
	return parts.join('\n\n');
}

/** The Photo Enhancer's row with the same tasks, mode and N as this one, in the same rows. */
function photoEnhancerTwin(row: Row, rows: Row[]): Row | undefined {
	const same = (other: Row) =>
		`${other.model}|${other.mode}|${other.n}|${other.binary}` ===
		`${row.model}|${row.mode}|${row.n}|${row.binary}`;
	return rows.find((other) => apiOf(other) === 'photoEnhancer' && same(other));
}

/** An API's wall as a ratio of the Photo Enhancer's in the same run: "1.02×"; "–" for its own rows. */
function wallRatio(row: Row, rows: Row[]): string {
	const twin = apiOf(row) === 'photoEnhancer' ? undefined : photoEnhancerTwin(row, rows);
	return twin ? `${f(row.wallS / twin.wallS, 2)}×` : '–';
}

const creditsText = (row: Row) =>
	row.credits === undefined ? '–' : `${row.credits} / ${f(row.expectedCredits ?? Number.NaN, 0)}`;

function table(rows: Row[]): string {
	return markdownTable(
		"| API | tasks | N | wall (s) | bound (s) | wall / bound | wall / Photo Enhancer's | polls per task | detection latency mean / p95 (s) | peak requests/s | peak RSS (MB) | credits charged / by price() | failed |",
		'|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		rows.map(
			(row) =>
				`| ${API_RUNS[apiOf(row)].label} | ${tasksOf(row)} | ${row.n} | ${f(row.wallS)} | ${f(row.boundS)} | ${f(row.wallS / row.boundS, 2)} | ${wallRatio(row, rows)} | ${f(row.pollsPerTask, 2)} | ${f(row.meanLatencyS, 2)} / ${f(row.p95LatencyS, 2)} | ${row.peakRps} | ${f(row.peakRssMb, 0)} | ${creditsText(row)} | ${row.failed} |`,
		),
	);
}

/** Before and after side by side: each cell is "before → after". */
function comparison(before: Row[], after: Row[]): string {
	return markdownTable(
		'| tasks | N | bound (s) | wall (s) | wall / bound | polls per task | mean latency (s) | p95 latency (s) | peak requests/s | peak RSS (MB) |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		after.map((a) => {
			const b = before.find((row) => key(row) === key(a));
			const pair = (get: (row: Row) => number, digits = 1) =>
				b ? `${f(get(b), digits)} → ${f(get(a), digits)}` : f(get(a), digits);
			const what = [apiOf(a) === 'photoEnhancer' ? '' : API_RUNS[apiOf(a)].label, tasksOf(a)]
				.filter(Boolean)
				.join(': ');
			return `| ${what} | ${a.n} | ${f(a.boundS)} | ${pair((r) => r.wallS)} | ${pair((r) => r.wallS / r.boundS, 2)} | ${pair((r) => r.pollsPerTask, 2)} | ${pair((r) => r.meanLatencyS, 2)} | ${pair((r) => r.p95LatencyS, 2)} | ${pair((r) => r.peakRps, 0)} | ${pair((r) => r.peakRssMb, 0)} |`;
		}),
	);
}

const COLORS: Record<string, string> = {
	fixed: '#1f77b4',
	uniform: '#2ca02c',
	queue: '#d62728',
	stuck: '#ff7f0e',
};

/** wall / bound against N, one line per task-time model; `before` dashed when given. */
function chartSvg(series: Array<{ rows: Row[]; dashed: boolean; suffix: string }>): string {
	const width = 760;
	const height = 440;
	const pad = { left: 70, right: 20, top: 40, bottom: 50 };
	const all = series
		.flatMap((s) => s.rows)
		.filter(
			(row) =>
				apiOf(row) === 'photoEnhancer' &&
				row.mode === 'concurrent' &&
				!row.binary &&
				row.processes === undefined,
		);
	const ns = [...new Set(all.map((row) => row.n))].sort((a, b) => a - b);
	const maxRatio = Math.max(1.2, ...all.map((row) => row.wallS / row.boundS)) * 1.1;
	// N on a log scale: 1 to 1,000 would otherwise crowd the small runs into one corner.
	const logMax = Math.log10(Math.max(...ns, 10));
	const x = (n: number) => pad.left + (Math.log10(n) / logMax) * (width - pad.left - pad.right);
	const y = (r: number) => height - pad.bottom - (r / maxRatio) * (height - pad.top - pad.bottom);
	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
		`<rect width="100%" height="100%" fill="white"/>`,
		`<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">Wall time / bound against items per run (bound = max(N / ${RATE} per s + slowest task, 2N / ${RATE} per s))</text>`,
		`<line x1="${pad.left}" y1="${y(0)}" x2="${width - pad.right}" y2="${y(0)}" stroke="black"/>`,
		`<line x1="${pad.left}" y1="${y(0)}" x2="${pad.left}" y2="${pad.top}" stroke="black"/>`,
		`<line x1="${pad.left}" y1="${y(1)}" x2="${width - pad.right}" y2="${y(1)}" stroke="#999" stroke-dasharray="2 3"/>`,
		`<text x="${width / 2}" y="${height - 12}" text-anchor="middle">items (N, log scale)</text>`,
		`<text x="18" y="${height / 2}" text-anchor="middle" transform="rotate(-90 18 ${height / 2})">wall / bound</text>`,
	];
	for (let tick = 0; tick <= 5; tick++) {
		const r = (maxRatio / 5) * tick;
		parts.push(
			`<text x="${pad.left - 8}" y="${y(r) + 4}" text-anchor="end">${r.toFixed(2)}</text>`,
		);
	}
	for (const n of ns)
		parts.push(`<text x="${x(n)}" y="${y(0) + 18}" text-anchor="middle">${n}</text>`);
	let legendY = pad.top + 10;
	for (const { rows, dashed, suffix } of series) {
		for (const [model, color] of Object.entries(COLORS)) {
			const points = rows
				.filter(
					(row) =>
						apiOf(row) === 'photoEnhancer' &&
						row.model === model &&
						row.mode === 'concurrent' &&
						!row.binary &&
						row.processes === undefined,
				)
				.sort((a, b) => a.n - b.n)
				.map((row) => `${x(row.n).toFixed(1)},${y(row.wallS / row.boundS).toFixed(1)}`);
			if (points.length === 0) continue;
			const dash = dashed ? ' stroke-dasharray="6 4"' : '';
			parts.push(
				`<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${points.join(' ')}"/>`,
			);
			for (const point of points) {
				const [px, py] = point.split(',');
				parts.push(`<circle cx="${px}" cy="${py}" r="3" fill="${color}"/>`);
			}
			parts.push(
				`<line x1="${pad.left + 12}" y1="${legendY - 3}" x2="${pad.left + 32}" y2="${legendY - 3}" stroke="${color}" stroke-width="2"${dash}/>`,
			);
			parts.push(
				`<text x="${pad.left + 38}" y="${legendY + 1}">${MODELS[model].label}${suffix}</text>`,
			);
			legendY += 18;
		}
	}
	parts.push('</svg>');
	return parts.join('\n');
}

function writeChart(svg: string, name: string) {
	const svgPath = join(outDir, `${name}.svg`);
	writeFileSync(svgPath, svg);
	try {
		execFileSync('rsvg-convert', [svgPath, '-o', join(outDir, `${name}.png`)]);
		console.log(`Chart: ${join(outDir, `${name}.png`)}`);
	} catch {
		console.log(
			`Chart: ${svgPath} (install librsvg2-bin for the PNG: apt-get install librsvg2-bin)`,
		);
	}
}

async function main() {
	const partArg = option('part', '');
	if (partArg) {
		await runPart(JSON.parse(partArg) as Part);
		return;
	}
	const rowArg = option('row', '');
	if (rowArg) {
		const { spec, service } = JSON.parse(rowArg) as { spec: RowSpec; service: Service };
		console.log(JSON.stringify(await runRow(service, spec)));
		return;
	}
	mkdirSync(outDir, { recursive: true });
	const render = option('render', '');
	if (render) {
		const [beforeFile, afterFile] = render.split(',');
		const before = JSON.parse(readFileSync(beforeFile, 'utf8')) as Row[];
		const after = afterFile ? (JSON.parse(readFileSync(afterFile, 'utf8')) as Row[]) : undefined;
		const markdown = after ? tables(after, before) : tables(before);
		console.log(`\n${markdown}`);
		writeFileSync(join(outDir, `${outName}.md`), `${markdown}\n`);
		writeChart(
			chartSvg(
				after
					? [
							{ rows: before, dashed: true, suffix: ' (before)' },
							{ rows: after, dashed: false, suffix: ' (after)' },
						]
					: [{ rows: before, dashed: false, suffix: '' }],
			),
			`${outName}-chart`,
		);
		return;
	}

	const models = list('models', 'fixed,uniform,queue,stuck,serial').map((name) => {
		if (!MODELS[name])
			throw new Error(`unknown model ${name} (known: ${Object.keys(MODELS).join(', ')})`);
		return MODELS[name];
	});
	const sizes = list('n', '1,50,200,1000').map(Number);
	// Multi-process rows: this many node processes on one account, against this limit per key.
	// Asked for, they run alone unless other rows are named too.
	const processCounts = list('processes', '').map(Number);
	const onlyProcesses = processCounts.length > 0;
	const rateLimit = Number(option('rate-limit', onlyProcesses ? String(RATE) : '0'));
	const apis = list('apis', onlyProcesses ? 'none' : 'photoEnhancer,virtualStaging').map((name) => {
		if (!(name in API_RUNS))
			throw new Error(`unknown API ${name} (known: ${Object.keys(API_RUNS).join(', ')})`);
		return name as BenchApi;
	});
	const downloads = Number(option('downloads', onlyProcesses ? '0' : '200'));
	const serial = list('serial', '').map(Number);
	const resultBytes = Number(option('result-bytes', String(4_000_000)));
	const photoFiles = Number(option('photo-files', onlyProcesses ? '0' : '50'));

	// The task models of the other APIs' rows (of those in --models): by default the fixed one.
	const apiModels = new Set(list('api-models', 'fixed'));

	const specs: RowSpec[] = [];
	// Each API's rows in the same layout, the Photo Enhancer's first: the others are read
	// against them.
	for (const api of apis) {
		for (const model of models) {
			if (model.api || (api !== 'photoEnhancer' && !apiModels.has(model.name))) continue;
			for (const n of sizes) specs.push({ api, model, n, mode: 'concurrent', resultBytes: 0 });
		}
	}
	for (const processes of processCounts) {
		for (const model of models) {
			if (model.api) continue;
			for (const n of sizes) {
				specs.push({ model, n, mode: 'concurrent', resultBytes: 0, processes, rateLimit });
			}
		}
	}
	for (const model of models) {
		if (!model.api) continue;
		for (const n of model.sizes ?? sizes) {
			specs.push({ api: model.api, model, n, mode: 'concurrent', resultBytes: 0 });
		}
	}
	for (const n of serial) specs.push({ model: MODELS.fixed, n, mode: 'serial', resultBytes: 0 });
	if (downloads > 0) {
		// The baseline without downloads, then the same run bringing each 4K result along.
		specs.push({
			model: MODELS.fixed,
			n: downloads,
			mode: 'concurrent',
			binaryMode: 'filesystem',
			resultBytes,
		});
		specs.push({
			model: MODELS.fixed,
			n: downloads,
			mode: 'concurrent',
			download: 'filesystem',
			resultBytes,
		});
		specs.push({
			model: MODELS.fixed,
			n: downloads,
			mode: 'concurrent',
			download: 'default',
			resultBytes,
		});
	}

	if (photoFiles > 0) {
		// The same photos from URLs, then from files through n8n's own link, in the same run
		// against the same service, each row in the same layout.
		for (const photos of ['url', 'n8n'] as const) {
			specs.push({
				model: MODELS.fixed,
				n: photoFiles,
				mode: 'concurrent',
				binaryMode: 'filesystem',
				photos,
				resultBytes: 0,
			});
		}
	}

	const service = await startServiceProcess();
	const rows: Row[] = [];
	const started = Date.now();
	try {
		console.log(
			`Bench: ${specs.length} rows; machine: ${process.arch}, load average ${(
				await import('node:os')
			)
				.loadavg()
				.map((l) => l.toFixed(1))
				.join(' ')}`,
		);
		for (const spec of specs) {
			const row = await childRow(service, spec);
			rows.push(row);
			if (row.processes !== undefined) {
				console.log(
					`${row.processes} processes on one account, ${row.label} N=${row.n}, limit ${row.rateLimit || 'none'}/s: ${row.wallS.toFixed(1)} s (bound ${row.boundS.toFixed(1)} s, ${f(row.wallS / row.boundS, 2)}×), 429s ${row.throttled} of ${row.requests} requests (${percent(row)}), lost ${row.lost}, created twice ${row.createdTwice}, failed ${row.failed}, ${row.pollsPerTask.toFixed(2)} checks/task`,
				);
				continue;
			}
			console.log(
				`${API_RUNS[apiOf(row)].label}, ${row.label}${row.binary ? `; ${row.binary}` : ''} ${row.mode} N=${row.n}: ${row.wallS.toFixed(1)} s (bound ${row.boundS.toFixed(1)} s; ${wallRatio(row, rows)} the Photo Enhancer's), ${row.pollsPerTask.toFixed(2)} polls/task, latency ${row.meanLatencyS.toFixed(2)} s, credits ${creditsText(row)}`,
			);
		}
	} finally {
		service.process?.kill();
	}
	const photoRow = (photos: keyof typeof PHOTO_ROWS) =>
		rows.find((row) => row.binary.startsWith(PHOTO_ROWS[photos]));
	const fromUrls = photoRow('url');
	const throughN8n = photoRow('n8n');
	if (fromUrls && throughN8n) {
		console.log(
			`Photos from files through n8n's link / from URLs, N=${throughN8n.n}: wall ${f(throughN8n.wallS / fromUrls.wallS, 2)}× (${f(throughN8n.wallS)} s / ${f(fromUrls.wallS)} s), tasks created at ${createText(throughN8n)} / ${createText(fromUrls)} (first, median, last), CPU of n8n's process ${f(throughN8n.cpuS ?? Number.NaN, 2)} s / ${f(fromUrls.cpuS ?? Number.NaN, 2)} s, peak RSS ${f(throughN8n.peakRssMb, 0)} MB / ${f(fromUrls.peakRssMb, 0)} MB, ${throughN8n.linkFetches ?? 0} files sent whole by the signed-link stand-in`,
		);
	}
	const markdown = tables(rows);
	console.log(`\n${markdown}\n\nTotal ${((Date.now() - started) / 60_000).toFixed(1)} min`);
	writeFileSync(join(outDir, `${outName}.md`), `${markdown}\n`);
	writeFileSync(join(outDir, `${outName}.json`), JSON.stringify(rows, null, 2));
	writeChart(chartSvg([{ rows, dashed: false, suffix: '' }]), `${outName}-chart`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

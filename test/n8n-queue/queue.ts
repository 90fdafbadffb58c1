/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * The nodes in n8n's queue mode. run.sh (`npm run test:n8n-queue`) has installed n8n and this
 * package, and started a Redis and a PostgreSQL of its own. This script:
 *
 *  1. starts the local service, imports the credential and the workflows of
 *     test/n8n-queue/workflows into the PostgreSQL database;
 *  2. starts one n8n main (`n8n start`) and two workers (`n8n worker`) on that Redis and database,
 *     sets up the owner, activates the workflows and creates the data table for task ids (REST);
 *  3. calls the production webhook of the listing workflow (20 jobs: 20 Photo Enhancer tasks and
 *     20 Object Remover tasks, 40 task items) several times at once: the main enqueues the
 *     executions, the workers run them. Checks every item, that each task was created exactly once,
 *     the credits, and which worker ran which execution (the workers' log lines);
 *  4. runs the same workflow once with `n8n execute` in regular mode and compares its items with
 *     the queue's;
 *  5. kills workers with SIGKILL mid-run: one while the Photo Enhancer waits inside the node
 *     (Wait for Completion on), one while the recovery workflow (create without waiting, task ids
 *     into a data table, wait, Get Result) waits. Reports what n8n does with the killed executions
 *     and their records, checks that nothing was run or charged twice, reads the task ids back
 *     (the first run's from the killed worker's log, the second's from the data table) and
 *     finishes them all with Get Result on a fresh worker.
 *
 * Prints one summary; exits 1 if any check failed. Logs of every n8n process stay in QUEUE_WORK.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { type RunningService, startService } from '../../service/server.ts';
import {
	type CommandResult,
	freePort,
	logFile,
	type N8nProcess,
	n8nEnv,
	parseLogLines,
	type RestSession,
	runN8nCommand,
	setUpOwner,
	startN8nProcess,
	untilReady,
} from '../n8n-app/n8n-process.ts';
import { importCredential, importWorkflows } from '../n8n-app/imports.ts';
import {
	n8nVersion,
	Report,
	requiredEnv,
	runMain,
	runSettings,
	sleep,
	localCredential,
	SAMPLE_BASE_URL,
} from '../n8n-app/report.ts';

// ---------------------------------------------------------------------------------------------
// Settings

const RUNNER = 'test/n8n-queue/run.sh';
const {
	repo: REPO,
	work: WORK,
	userFolder: USER_FOLDER,
	n8nApp: N8N_APP,
	n8nBin: N8N_BIN,
} = runSettings('QUEUE', RUNNER);
const PIDS_FILE = requiredEnv('QUEUE_PIDS_FILE', RUNNER);
const HERE = join(REPO, 'test', 'n8n-queue');
const RUN_START_MS = Number(requiredEnv('QUEUE_RUN_START', RUNNER)) * 1000;

const CREDENTIAL = localCredential('IdealHouseLocal1');
const API_KEY = 'n8n-queue-key';
const START_CREDITS = 100_000;
/** Short tasks for the runs that must finish; long ones while workers are killed. */
const TASK_MS = 1500;
const KILL_TASK_MS = 20_000;
/** How many times the listing webhook is called at once. */
const LISTING_RUNS = Number(process.env.QUEUE_LISTING_RUNS ?? 2);
const WORKFLOWS = {
	listing: { id: 'ihQueueListing', file: 'listing.json', path: 'ideal-house-queue-listing' },
	recover: { id: 'ihQueueRecover', file: 'recover.json', path: 'ideal-house-queue-recover' },
	finish: { id: 'ihQueueFinish', file: 'finish.json', path: 'ideal-house-queue-finish' },
} as const;
/**
 * Bull's lock on a running job (default 60 s, renewed every 10 s) and how often the workers look
 * for jobs whose lock has expired (default 30 s), shortened so that a killed worker is noticed
 * within a test run. n8n itself sets maxStalledCount to 0.
 */
/** Where the recovery workflow keeps the ids of the tasks it created. */
const DATA_TABLE = 'ideal_house_tasks';
const LOCK = { duration: 15_000, renew: 5_000, stalledInterval: 5_000 };
const COMMAND_TIMEOUT_MS = 240_000;
const TWO_POW_53 = BigInt(2) ** BigInt(53);
const PHOTO_SIZES: Record<string, number> = { '512': 512, '1K': 1024, '2K': 2048, '4K': 4096 };
const SOURCES: Record<string, [number, number]> = {
	'living-room.png': [1600, 1200],
	'kitchen.png': [1280, 960],
	'exterior.png': [1920, 1280],
};
const KIND = {
	photoEnhancer: { credits: 10 },
	objectRemover: { credits: 1 },
} as const;
type Kind = keyof typeof KIND;

const flatted = createRequire(join(N8N_APP, 'node_modules', 'n8n', 'package.json'))('flatted') as {
	parse: (text: string) => unknown;
};

// ---------------------------------------------------------------------------------------------
// Checks and the summary

const report = new Report();
const check = report.check.bind(report);
const equal = report.equal.bind(report);
const timed = report.timed.bind(report);
const figures: string[] = [];
const findings: string[] = [];

async function until<T>(
	what: string,
	timeoutMs: number,
	probe: () => Promise<T | undefined> | T | undefined,
	intervalMs = 500,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(intervalMs);
	}
}

// ---------------------------------------------------------------------------------------------
// n8n processes

let baseEnv: Record<string, string> = {};

interface Instance {
	name: string;
	role: 'main' | 'worker';
	proc: N8nProcess;
	/** The HTTP port: the editor/webhooks for the main, the health server for a worker. */
	port: number;
	killedAt?: number;
}

const instances: Instance[] = [];

function rememberPid(pid: number | undefined): void {
	if (pid) appendFileSync(PIDS_FILE, `${pid}\n`);
}

async function startInstance(
	name: string,
	role: 'main' | 'worker',
	userFolder = USER_FOLDER,
): Promise<Instance> {
	const port = await freePort();
	const extra: Record<string, string> = { ...baseEnv };
	if (role === 'worker') {
		Object.assign(extra, {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(port),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		});
	}
	const env = n8nEnv(
		userFolder,
		{ broker: await freePort(), http: role === 'main' ? port : await freePort() },
		extra,
	);
	const proc = startN8nProcess(N8N_BIN, role === 'main' ? ['start'] : ['worker'], {
		env,
		cwd: WORK,
	});
	rememberPid(proc.child.pid);
	const instance: Instance = { name, role, proc, port };
	instances.push(instance);
	return instance;
}

async function ready(instance: Instance): Promise<boolean> {
	return await untilReady(
		`http://127.0.0.1:${instance.port}/healthz/readiness`,
		instance.proc.child,
		150_000,
	);
}

/** Child processes of a process (n8n's task runners), so that a killed worker leaves none. */
function childPids(pid: number): number[] {
	try {
		return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
			.trim()
			.split(/\s+/)
			.filter(Boolean)
			.map(Number);
	} catch {
		return [];
	}
}

function sigkill(instance: Instance): void {
	const pid = instance.proc.child.pid!;
	const children = childPids(pid);
	instance.proc.child.kill('SIGKILL');
	instance.killedAt = Date.now();
	for (const child of children) {
		try {
			process.kill(child, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}

function saveLogs(): void {
	for (const instance of instances)
		writeFileSync(logFile(WORK, instance.name), instance.proc.output());
}

/** The execution ids a worker's log says it started ("Worker started execution <id> (job <n>)"). */
function startedBy(instance: Instance): string[] {
	return parseLogLines(instance.proc.output())
		.map((line) => /^Worker started execution (\S+) \(job /.exec(line.message)?.[1])
		.filter((id): id is string => !!id);
}

function logMessages(instance: Instance, pattern: RegExp): string[] {
	return parseLogLines(instance.proc.output())
		.map((line) => line.message)
		.filter((message) => pattern.test(message));
}

interface LoggedTask {
	taskId: string;
	kind: Kind;
	node: string;
	itemIndex: number;
}

/** The tasks a process's log says our nodes created for one execution (one line per create). */
function createdInLog(instance: Instance, executionId: string): LoggedTask[] {
	return parseLogLines(instance.proc.output())
		.filter(
			(line) =>
				/^Ideal House (Photo Enhancer|Object Remover) task \d+ created /.test(line.message) &&
				line.metadata?.executionId === executionId,
		)
		.map((line) => line.metadata as unknown as LoggedTask);
}

/**
 * Warnings and errors of all processes, for the summary; ours fail the run, except the stalled
 * jobs the worker kills cause on purpose.
 */
function checkLogs(group: string, name: string, text: string): void {
	report.checkPackageLog(group, text, {
		n8nAppDir: N8N_APP,
		label: name,
		expected: /Problem with execution|stalled/i,
	});
}

// ---------------------------------------------------------------------------------------------
// Workflows, executions and items

interface Job {
	job: number;
	photoUrl: string;
	presetId: string;
	imageSize: string;
	roomUrl: string;
}

interface WorkflowJson {
	id: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
}

function workflowText(file: string, base: string): string {
	return readFileSync(join(HERE, 'workflows', file), 'utf8')
		.split(SAMPLE_BASE_URL)
		.join(base);
}

function jobsOf(text: string): Job[] {
	const workflow = JSON.parse(text) as WorkflowJson;
	const listing = workflow.nodes.find((node) => node.name === 'Listing');
	return (JSON.parse(String(listing?.parameters.jsonOutput)) as { jobs: Job[] }).jobs;
}

interface Item {
	json: Record<string, unknown> & {
		id?: unknown;
		status?: unknown;
		input?: Record<string, unknown>;
		output?: { resultUrl?: string; width?: number; height?: number } | null;
		creditsCharged?: unknown;
	};
	pairedItem?: unknown;
}

interface NodeRun {
	executionStatus?: string;
	error?: { message?: string };
	data?: { main?: Item[][] };
}

interface RunData {
	resultData: {
		error?: { message?: string };
		runData: Record<string, NodeRun[]>;
		lastNodeExecuted?: string;
	};
}

interface ExecutionRecord {
	id: string;
	status: string;
	mode: string;
	finished: boolean;
	startedAt?: string;
	stoppedAt?: string;
	data?: RunData;
}

let session: RestSession;
let projectId = '';
let dataTableId = '';

interface TaskRow {
	executionId: string;
	job: number;
	kind: Kind;
	taskId: string;
}

/** The rows of the task-id data table (REST, as the editor reads them). */
async function taskRows(): Promise<TaskRow[]> {
	const { status, json } = await session.rest(
		`/rest/projects/${projectId}/data-tables/${dataTableId}/rows?take=500`,
	);
	if (status !== 200)
		throw new Error(`GET data table rows: HTTP ${status} ${JSON.stringify(json).slice(0, 300)}`);
	return ((json.data as { data?: TaskRow[] } | undefined)?.data ?? []).map((row) => ({
		...row,
		executionId: String(row.executionId),
		taskId: String(row.taskId),
	}));
}

async function executionsOf(workflowId: string): Promise<ExecutionRecord[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { status, json } = await session.rest(`/rest/executions?filter=${filter}&limit=100`);
	if (status !== 200)
		throw new Error(`GET /rest/executions: HTTP ${status} ${JSON.stringify(json).slice(0, 300)}`);
	return ((json.data as { results?: ExecutionRecord[] } | undefined)?.results ?? []).map(
		(record) => ({
			...record,
			id: String(record.id),
		}),
	);
}

/** One execution with its run data (stored by n8n in the "flatted" format). */
async function execution(id: string): Promise<ExecutionRecord> {
	const { status, json } = await session.rest(`/rest/executions/${id}`);
	if (status !== 200 || !json.data) throw new Error(`GET /rest/executions/${id}: HTTP ${status}`);
	const record = json.data as unknown as ExecutionRecord & { data?: unknown };
	const data =
		typeof record.data === 'string'
			? (flatted.parse(record.data) as RunData)
			: (record.data as RunData);
	return { ...record, id: String(record.id), data };
}

const TERMINAL = ['success', 'error', 'crashed', 'canceled'];

async function callWebhook(path: string, body: unknown): Promise<{ status: number; text: string }> {
	const response = await fetch(`${mainBase}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, text: await response.text() };
}

/** Calls a production webhook and returns the id of the execution it started. */
async function startExecution(
	workflow: { id: string; path: string },
	body: unknown,
): Promise<string> {
	const known = new Set((await executionsOf(workflow.id)).map((record) => record.id));
	const answer = await callWebhook(workflow.path, body);
	if (answer.status !== 200)
		throw new Error(`webhook ${workflow.path}: HTTP ${answer.status} ${answer.text}`);
	return await until(
		`the execution of ${workflow.id}`,
		30_000,
		async () => (await executionsOf(workflow.id)).find((record) => !known.has(record.id))?.id,
	);
}

function nodeItems(run: RunData | undefined, node: string): Item[] | undefined {
	return run?.resultData.runData[node]?.[0]?.data?.main?.[0];
}

function savedTaskIds(run: RunData | undefined, node: string): string[] {
	return (nodeItems(run, node) ?? []).map((item) => String(item.json.id));
}

/** What must be the same in queue and regular mode for one item (the task id itself differs). */
function signature(base: string, node: string, index: number, item: Item): string {
	const { json } = item;
	const input = json.input ?? {};
	return JSON.stringify({
		node,
		index,
		pairedItem: item.pairedItem,
		keys: Object.keys(json).sort(),
		status: json.status,
		creditsCharged: json.creditsCharged,
		imageUrls: input.imageUrls ?? input.imageUrl,
		presetId: input.presetId,
		imageSize: input.imageSize,
		emptyType: input.emptyType,
		size: [json.output?.width, json.output?.height],
		ownResultUrl: json.output?.resultUrl === `${base}/results/${String(json.id)}.png`,
	});
}

function expectedSize(kind: Kind, url: string, imageSize?: string): [number, number] {
	const [w, h] = SOURCES[url.split('/').pop() ?? ''] ?? [0, 0];
	if (kind === 'objectRemover') return [w, h];
	const edge = PHOTO_SIZES[imageSize ?? '4K'];
	return w >= h ? [edge, Math.round((h * edge) / w)] : [Math.round((w * edge) / h), edge];
}

/** Both nodes' items of one listing run: the task ids they emitted, with their kind. */
function checkListingItems(
	group: string,
	base: string,
	run: RunData | undefined,
	jobs: Job[],
	signatures: string[],
): Array<{ id: string; kind: Kind }> {
	const nodes: Array<[string, Kind]> = [
		['Enhance photos', 'photoEnhancer'],
		['Empty rooms', 'objectRemover'],
	];
	return nodes.flatMap(([node, kind]) =>
		checkNodeItems(group, base, run, node, kind, jobs, signatures).map((id) => ({ id, kind })),
	);
}

/** Checks the items of one node against the jobs; returns the task ids it emitted. */
function checkNodeItems(
	group: string,
	base: string,
	run: RunData | undefined,
	node: string,
	kind: Kind,
	jobs: Job[],
	signatures: string[],
): string[] {
	const nodeRun = run?.resultData.runData[node]?.[0];
	if (!check(group, `${node}: ran`, !!nodeRun, 'no run data')) return [];
	check(
		group,
		`${node}: succeeded`,
		nodeRun!.executionStatus === 'success' && !nodeRun!.error,
		`${nodeRun!.executionStatus}: ${nodeRun!.error?.message ?? ''}`,
	);
	const items = nodeItems(run, node) ?? [];
	equal(group, `${node}: ${jobs.length} items`, items.length, jobs.length);
	const problems: string[] = [];
	const ids: string[] = [];
	for (const [index, item] of items.entries()) {
		const job = jobs[index];
		const { json } = item;
		const input = json.input ?? {};
		const id = json.id;
		const url = kind === 'photoEnhancer' ? job.photoUrl : job.roomUrl;
		const want: Record<string, unknown> = {
			id: 'digits above 2^53',
			status: 'Success',
			pairedItem: { item: index },
			creditsCharged: KIND[kind].credits,
			sent:
				kind === 'photoEnhancer'
					? [[url], job.presetId, job.imageSize]
					: [url, 'whole_house', undefined],
			size: expectedSize(kind, url, job.imageSize),
			resultUrl: `${base}/results/${String(id)}.png`,
		};
		const got: Record<string, unknown> = {
			id:
				typeof id === 'string' && /^\d+$/.test(id) && BigInt(id) > TWO_POW_53
					? 'digits above 2^53'
					: id,
			status: json.status,
			pairedItem: item.pairedItem,
			creditsCharged: json.creditsCharged,
			sent:
				kind === 'photoEnhancer'
					? [input.imageUrls, input.presetId, input.imageSize]
					: [input.imageUrl, input.emptyType, input.maskUrl],
			size: [json.output?.width, json.output?.height],
			resultUrl: json.output?.resultUrl,
		};
		for (const key of Object.keys(want)) {
			if (JSON.stringify(want[key]) !== JSON.stringify(got[key]))
				problems.push(
					`[${index}] ${key}: expected ${JSON.stringify(want[key])}, got ${JSON.stringify(got[key])}`,
				);
		}
		if (typeof id === 'string') ids.push(id);
		signatures.push(signature(base, node, index, item));
	}
	check(
		group,
		`${node}: every item Success, linked to its input, with the job's image, preset, size, credits and result`,
		problems.length === 0,
		problems.slice(0, 12).join('\n'),
	);
	return ids;
}

// ---------------------------------------------------------------------------------------------
// The service's record

interface ServiceTask {
	id: string;
	kind: string;
	status: string;
	refunded: boolean;
	createdAt: number;
}

function serviceTasks(service: RunningService): ServiceTask[] {
	return service.stats().tasks as unknown as ServiceTask[];
}

function resultPolls(service: RunningService, kind: Kind): number {
	return service.stats().requests.byEndpoint[`${kind}.result`]?.total ?? 0;
}

/** The service created exactly the tasks the nodes reported, each once, and charged for them. */
function checkServiceRecord(
	group: string,
	service: RunningService,
	before: { ids: Set<string>; balance: number },
	emitted: Array<{ id: string; kind: Kind }>,
	statuses: string[] = ['Success'],
): ServiceTask[] {
	const created = serviceTasks(service).filter((task) => !before.ids.has(task.id));
	const emittedIds = emitted.map((task) => task.id);
	equal(group, 'no task id emitted twice', emittedIds.length, new Set(emittedIds).size);
	equal(
		group,
		`the ${created.length} tasks the service created = the ${emitted.length} task ids the nodes emitted (none lost, none twice)`,
		created.map((task) => task.id).sort(),
		[...emittedIds].sort(),
	);
	equal(
		group,
		'task kinds match',
		created.map((task) => `${task.id}:${task.kind}`).sort(),
		emitted.map((task) => `${task.id}:${task.kind}`).sort(),
	);
	check(
		group,
		`every task ${statuses.join(' or ')}, none refunded`,
		created.every((task) => statuses.includes(task.status) && !task.refunded),
		JSON.stringify(created.filter((task) => !statuses.includes(task.status) || task.refunded)),
	);
	const credits = emitted.reduce((sum, task) => sum + KIND[task.kind].credits, 0);
	equal(
		group,
		`credits spent = 10 × ${emitted.filter((task) => task.kind === 'photoEnhancer').length} + 1 × ${emitted.filter((task) => task.kind === 'objectRemover').length}`,
		before.balance - service.balance(API_KEY),
		credits,
	);
	return created;
}

function snapshot(service: RunningService): { ids: Set<string>; balance: number } {
	return {
		ids: new Set(serviceTasks(service).map((task) => task.id)),
		balance: service.balance(API_KEY),
	};
}

// ---------------------------------------------------------------------------------------------
// Main

let mainBase = '';

async function main(): Promise<number> {
	mkdirSync(join(WORK, 'logs'), { recursive: true });
	const encryptionKey = `queue-e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
	baseEnv = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: requiredEnv('QUEUE_REDIS_PORT', RUNNER),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: requiredEnv('QUEUE_PG_PORT', RUNNER),
		DB_POSTGRESDB_DATABASE: 'n8n',
		DB_POSTGRESDB_USER: 'n8n',
		DB_POSTGRESDB_PASSWORD: requiredEnv('QUEUE_PG_PASSWORD', RUNNER),
		N8N_ENCRYPTION_KEY: encryptionKey,
		EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'true',
		QUEUE_WORKER_LOCK_DURATION: String(LOCK.duration),
		QUEUE_WORKER_LOCK_RENEW_TIME: String(LOCK.renew),
		QUEUE_WORKER_STALLED_INTERVAL: String(LOCK.stalledInterval),
	};
	const service = await startService({
		port: 0,
		host: '127.0.0.1',
		accounts: { [API_KEY]: START_CREDITS },
		taskDurationMs: TASK_MS,
		workers: 100,
		seed: 20261122,
	});
	const base = service.baseUrl;
	console.log(`Local service on ${base} (tasks ${TASK_MS} ms)`);
	const cli = async (
		step: string,
		args: string[],
		extra: Record<string, string> = {},
	): Promise<CommandResult> =>
		await runN8nCommand(N8N_BIN, args, {
			env: n8nEnv(
				USER_FOLDER,
				{ broker: await freePort(), http: await freePort() },
				{ ...baseEnv, ...extra },
			),
			cwd: WORK,
			logFile: logFile(WORK, step),
			timeoutMs: COMMAND_TIMEOUT_MS,
		});

	const listingText = workflowText(WORKFLOWS.listing.file, base);
	const jobs = jobsOf(listingText);
	const recoverJobs = jobsOf(workflowText(WORKFLOWS.recover.file, base));
	const queueSignatures: string[][] = [];
	try {
		// --- Import into PostgreSQL ------------------------------------------------------------
		{
			const imports = { report, group: 'import into PostgreSQL (CLI)', work: WORK, n8n: cli };
			await importCredential(imports, CREDENTIAL, { apiKey: API_KEY, baseUrl: base });
			await importWorkflows(
				imports,
				Object.values(WORKFLOWS).map(({ file }) => ({
					file,
					text: readFileSync(join(HERE, 'workflows', file), 'utf8'),
				})),
				base,
			);
		}

		// --- One main, two workers ---------------------------------------------------------------
		const group = 'queue mode: main + 2 workers';
		const [mainInstance, worker1, worker2] = await timed(
			'start main + 2 workers (until ready)',
			async () => {
				const all = [
					await startInstance('main', 'main'),
					await startInstance('worker-1', 'worker'),
					await startInstance('worker-2', 'worker'),
				];
				const readiness = await Promise.all(all.map(ready));
				for (const [index, instance] of all.entries())
					check(
						group,
						`${instance.name} ready (/healthz/readiness)`,
						readiness[index],
						instance.proc.output().slice(-1500),
					);
				return all;
			},
		);
		mainBase = `http://127.0.0.1:${mainInstance.port}`;
		if (!instances.every((instance) => instance.proc.child.exitCode === null))
			throw new Error('an n8n process exited during start-up');
		session = await setUpOwner(mainBase);
		// Activation (publishing) registers the production webhooks on the main.
		for (const workflow of Object.values(WORKFLOWS)) {
			const stored = await session.rest(`/rest/workflows/${workflow.id}`);
			const versionId = stored.json.data?.versionId;
			const activated = await session.rest(`/rest/workflows/${workflow.id}/activate`, {
				versionId,
			});
			check(
				group,
				`${workflow.id} activated over REST (its production webhook registered)`,
				activated.status === 200 && typeof activated.json.data?.activeVersionId === 'string',
				`HTTP ${activated.status} ${JSON.stringify(activated.json).slice(0, 300)}`,
			);
		}
		for (const worker of [worker1, worker2])
			check(
				group,
				`${worker.name}: "n8n worker is now ready"`,
				logMessages(worker, /n8n worker is now ready/).length === 1,
				worker.proc.output().slice(-1500),
			);

		// The data table the recovery workflow writes the created task ids to.
		{
			const personal = await session.rest('/rest/projects/personal');
			projectId = String(personal.json.data?.id ?? '');
			const created = await session.rest(`/rest/projects/${projectId}/data-tables`, {
				name: DATA_TABLE,
				columns: [
					{ name: 'executionId', type: 'string' },
					{ name: 'job', type: 'number' },
					{ name: 'kind', type: 'string' },
					{ name: 'taskId', type: 'string' },
				],
			});
			dataTableId = String(created.json.data?.id ?? '');
			check(
				group,
				`data table "${DATA_TABLE}" created over REST`,
				created.status === 200 && !!dataTableId,
				`HTTP ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`,
			);
		}

		// --- The listing workflow through the queue ----------------------------------------------
		const emitted: Array<{ id: string; kind: Kind }> = [];
		const queueRuns: Array<{ id: string; worker?: string; seconds: number }> = [];
		{
			const runGroup = `listing workflow through the queue (${LISTING_RUNS} webhook calls at once)`;
			const before = snapshot(service);
			const known = new Set((await executionsOf(WORKFLOWS.listing.id)).map((record) => record.id));
			const t0 = Date.now();
			const answers = await Promise.all(
				Array.from(
					{ length: LISTING_RUNS },
					async (_, run) => await callWebhook(WORKFLOWS.listing.path, { run }),
				),
			);
			if (
				!check(
					runGroup,
					'every webhook call answered 200 "Workflow was started"',
					answers.every((answer) => answer.status === 200 && /started/i.test(answer.text)),
					JSON.stringify(answers).slice(0, 600),
				)
			)
				throw new Error('the listing webhook did not start the workflow');
			const finished = await timed(
				`listing workflow × ${LISTING_RUNS} in the queue (until all finished)`,
				async () =>
					await until('the listing executions to finish', 180_000, async () => {
						const fresh = (await executionsOf(WORKFLOWS.listing.id)).filter(
							(record) => !known.has(record.id),
						);
						return fresh.length >= LISTING_RUNS &&
							fresh.every((record) => TERMINAL.includes(record.status))
							? fresh
							: undefined;
					}),
			);
			const wallSeconds = (Date.now() - t0) / 1000;
			equal(runGroup, 'executions started', finished.length, LISTING_RUNS);
			const workers = [worker1, worker2];
			for (const record of finished) {
				const full = await execution(record.id);
				const execGroup = `${runGroup}: execution ${record.id}`;
				check(
					execGroup,
					'status success, mode webhook',
					full.status === 'success' && full.mode === 'webhook' && !full.data?.resultData.error,
					`${full.status} ${full.mode} ${full.data?.resultData.error?.message ?? ''}`,
				);
				const signatures: string[] = [];
				emitted.push(...checkListingItems(execGroup, base, full.data, jobs, signatures));
				queueSignatures.push(signatures);
				const ranOn = workers.filter((worker) => startedBy(worker).includes(record.id));
				check(
					execGroup,
					'ran on exactly one worker (its log: "Worker started execution")',
					ranOn.length === 1,
					`workers naming it: ${ranOn.map((worker) => worker.name).join(', ') || 'none'}`,
				);
				check(
					execGroup,
					'enqueued by the main (its log: "Enqueued execution"), so not run there',
					logMessages(mainInstance, new RegExp(`^Enqueued execution ${record.id} `)).length === 1,
					'no "Enqueued execution" line in the main log',
				);
				const seconds =
					full.startedAt && full.stoppedAt
						? (Date.parse(full.stoppedAt) - Date.parse(full.startedAt)) / 1000
						: Number.NaN;
				queueRuns.push({ id: record.id, worker: ranOn[0]?.name, seconds });
			}
			checkServiceRecord(`${runGroup}: service record`, service, before, emitted);
			const used = new Set(queueRuns.map((run) => run.worker).filter(Boolean));
			check(
				runGroup,
				`the ${LISTING_RUNS} executions were spread over both workers`,
				used.size === Math.min(2, LISTING_RUNS),
				queueRuns.map((run) => `${run.id} → ${run.worker ?? '?'}`).join(', '),
			);
			const tasks = emitted.length;
			figures.push(
				`listing workflow through the queue: ${LISTING_RUNS} executions × ${jobs.length} jobs = ${tasks} task items ` +
					`(${emitted.filter((task) => task.kind === 'photoEnhancer').length} Photo Enhancer + ` +
					`${emitted.filter((task) => task.kind === 'objectRemover').length} Object Remover), ` +
					`${service.stats().credits.charged} credits; wall time ${wallSeconds.toFixed(1)} s from the webhook calls to the last execution finished (tasks of ${TASK_MS / 1000} s, poll interval 3 s)`,
			);
			figures.push(`workers used: ${used.size} of 2`);
			for (const worker of workers) {
				const mine = queueRuns.filter((run) => run.worker === worker.name);
				figures.push(
					`  ${worker.name}: ${mine.length} execution(s), ${mine.length * jobs.length * 2} task items` +
						(mine.length
							? ` (${mine.map((run) => `execution ${run.id}: ${run.seconds.toFixed(1)} s`).join(', ')})`
							: ''),
				);
			}
		}

		// --- The same workflow in regular mode -------------------------------------------------
		{
			const runGroup = 'the same workflow in regular mode (n8n execute)';
			const before = snapshot(service);
			const result = await timed(
				'n8n execute (regular mode)',
				async () =>
					await cli('execute-regular', ['execute', `--id=${WORKFLOWS.listing.id}`, '--rawOutput'], {
						EXECUTIONS_MODE: 'regular',
					}),
			);
			check(
				runGroup,
				'exit code 0',
				result.code === 0,
				`exit ${result.code}; see logs/execute-regular.log`,
			);
			let run: RunData | undefined;
			for (const line of result.lines) {
				if (!line.message.startsWith('{')) continue;
				try {
					const parsed = JSON.parse(line.message) as { data?: RunData };
					if (parsed.data?.resultData?.runData) run = parsed.data;
				} catch {
					// another message
				}
			}
			if (check(runGroup, 'run data printed', !!run, 'no run data in the output')) {
				const signatures: string[] = [];
				const regularEmitted = checkListingItems(runGroup, base, run, jobs, signatures);
				checkServiceRecord(`${runGroup}: service record`, service, before, regularEmitted);
				for (const [index, queued] of queueSignatures.entries()) {
					const differences = signatures
						.map((line, item) =>
							line === queued[item] ? undefined : `regular ${line}\n   queue ${queued[item]}`,
						)
						.filter(Boolean);
					check(
						runGroup,
						`queue execution ${index + 1}: every item the same as in regular mode (fields, status, credits, size, pairedItem order)`,
						signatures.length === queued.length && differences.length === 0,
						`${signatures.length} vs ${queued.length} items\n${differences.slice(0, 4).join('\n')}`,
					);
				}
			}
		}

		// --- Workers killed mid-run --------------------------------------------------------------
		await timed('workers killed mid-run, recovery', async () => {
			await killAndRecover(service, base, mainInstance, [worker1, worker2], jobs, recoverJobs);
		});
	} catch (error) {
		check('run', 'the run went through', false, (error as Error).stack ?? String(error));
	} finally {
		await Promise.all(instances.map(async (instance) => await instance.proc.stop(20_000)));
		saveLogs();
		for (const instance of instances)
			checkLogs('process logs', instance.name, instance.proc.output());
		await service.close();
	}

	return report.print({
		title: 'n8n queue mode summary',
		header: [
			`n8n ${n8nVersion(N8N_APP)} on Node ${process.version}; package ${process.env.QUEUE_TARBALL ?? ''}`,
			`work folder: ${WORK}`,
		],
		shellSteps: process.env.QUEUE_SHELL_STEPS,
		startedAt: RUN_START_MS / 1000,
		sections: [
			['Figures:', figures],
			['Worker killed mid-run: what n8n did', findings],
		],
	});
}

// ---------------------------------------------------------------------------------------------
// Workers killed mid-run

async function killAndRecover(
	service: RunningService,
	base: string,
	mainInstance: Instance,
	workers: Instance[],
	jobs: Job[],
	recoverJobs: Job[],
): Promise<void> {
	const group = 'worker killed mid-run';
	service.configure({ taskDurationMs: KILL_TASK_MS });
	const holderOf = (executionId: string) =>
		workers.find((worker) => startedBy(worker).includes(executionId));

	// (a) The listing workflow, killed while the Photo Enhancer waits inside the node.
	const beforeA = snapshot(service);
	const pollsBefore = resultPolls(service, 'photoEnhancer');
	const executionA = await startExecution(WORKFLOWS.listing, { run: 'killed while waiting' });
	await until('the Photo Enhancer tasks of the first run to be created and polled', 60_000, () =>
		serviceTasks(service).filter((task) => !beforeA.ids.has(task.id)).length >= jobs.length &&
		resultPolls(service, 'photoEnhancer') >= pollsBefore + jobs.length
			? true
			: undefined,
	);
	const holderA = await until(`the worker of execution ${executionA}`, 10_000, () =>
		holderOf(executionA),
	);
	sigkill(holderA);
	const createdA = serviceTasks(service).filter((task) => !beforeA.ids.has(task.id));
	const recordAtKillA = await execution(executionA);
	const loggedA = createdInLog(holderA, executionA);
	findings.push(
		`(a) listing workflow (Wait for Completion on), execution ${executionA}: SIGKILL to ${holderA.name} while its ` +
			`Photo Enhancer polled ${createdA.length} created tasks (${createdA.length * 10} credits); record at the kill: status ` +
			`${recordAtKillA.status}, nodes saved: ${Object.keys(recordAtKillA.data?.resultData.runData ?? {}).join(', ') || 'none'}`,
	);

	// (b) The recovery workflow: tasks created without waiting, their ids written to a data table
	// (and saved with the execution's progress), then a Wait node before Get Result.
	const survivor = workers.find((worker) => worker !== holderA)!;
	const beforeB = snapshot(service);
	const executionB = await startExecution(WORKFLOWS.recover, { run: 'killed while waiting' });
	await until('the created task ids to be saved with the execution progress', 60_000, async () => {
		const record = await execution(executionB);
		return nodeItems(record.data, 'Save room task ids')?.length ? record : undefined;
	});
	const holderB = await until(`the worker of execution ${executionB}`, 10_000, () =>
		holderOf(executionB),
	);
	check(
		group,
		`(b) execution ${executionB} ran on the surviving worker`,
		holderB === survivor,
		holderB.name,
	);
	sigkill(holderB);
	const createdB = serviceTasks(service).filter((task) => !beforeB.ids.has(task.id));
	const recordAtKillB = await execution(executionB);
	const idsAtKillB = [
		...savedTaskIds(recordAtKillB.data, 'Create photo tasks'),
		...savedTaskIds(recordAtKillB.data, 'Create room tasks'),
	];
	findings.push(
		`(b) recovery workflow (create without waiting, ids to a data table), execution ${executionB}: SIGKILL to ${holderB.name} ` +
			`during "Wait for the tasks"; ${createdB.length} tasks created; record at the kill: status ${recordAtKillB.status}, ` +
			`${idsAtKillB.length} task ids saved with the progress (nodes: ${Object.keys(recordAtKillB.data?.resultData.runData ?? {}).join(', ')})`,
	);
	check(
		group,
		`(b) while stalled, the execution record holds the ${createdB.length} created ids (saved progress)`,
		JSON.stringify([...idsAtKillB].sort()) ===
			JSON.stringify(createdB.map((task) => task.id).sort()),
		`${idsAtKillB.length} ids in the record, ${createdB.length} created`,
	);
	const tasksAtKills = serviceTasks(service).length;

	// A fresh worker: Bull's check for stalled jobs runs in the workers. With
	// QUEUE_FRESH_WORKER_FOLDER=1 it gets a user folder of its own (a copy of the package install),
	// as a worker on another host would, instead of the shared one.
	let worker3Folder = USER_FOLDER;
	if (process.env.QUEUE_FRESH_WORKER_FOLDER === '1') {
		worker3Folder = join(WORK, 'user-worker-3');
		cpSync(join(USER_FOLDER, '.n8n', 'nodes'), join(worker3Folder, '.n8n', 'nodes'), {
			recursive: true,
		});
	}
	findings.push(
		`worker-3 (started after the kills) uses ${worker3Folder === USER_FOLDER ? 'the shared user folder' : 'a user folder of its own'}`,
	);
	const worker3 = await startInstance('worker-3', 'worker', worker3Folder);
	check(
		group,
		'worker-3 started after the kills is ready',
		await ready(worker3),
		worker3.proc.output().slice(-1500),
	);
	const killedAt = Math.max(holderA.killedAt ?? 0, holderB.killedAt ?? 0);
	// The main ends a stalled job's execution after a grace period: wait for its log line.
	const problem = (id: string) =>
		logMessages(mainInstance, new RegExp(`^Problem with execution ${id}:`));
	// How the records' statuses change, seconds after the last kill.
	const transitions: string[] = [];
	const lastStatus = new Map<string, string>();
	await until(
		'the main to end the two killed executions',
		240_000,
		async () => {
			for (const id of [executionA, executionB]) {
				const { status } = await execution(id);
				if (lastStatus.get(id) !== status) {
					lastStatus.set(id, status);
					transitions.push(
						`${id}: "${status}" at +${((Date.now() - killedAt) / 1000).toFixed(0)} s`,
					);
				}
			}
			return problem(executionA).length && problem(executionB).length ? true : undefined;
		},
		1000,
	);
	const finalRecords = await until(
		'the killed executions to have a final status',
		60_000,
		async () => {
			const records = await Promise.all(
				[executionA, executionB].map(async (id) => await execution(id)),
			);
			return records.every((record) => TERMINAL.includes(record.status)) ? records : undefined;
		},
	);
	const endedAfter = (Date.now() - killedAt) / 1000;
	const [finalA, finalB] = finalRecords;
	for (const record of finalRecords)
		if (lastStatus.get(record.id) !== record.status)
			transitions.push(`${record.id}: "${record.status}" at +${endedAfter.toFixed(0)} s`);
	findings.push(`statuses of the killed executions after the last kill: ${transitions.join('; ')}`);
	for (const line of parseLogLines(worker3.proc.output()).filter((entry) =>
		/Found unfinished executions|\[Recovery\]/.test(entry.message),
	)) {
		const id = line.metadata?.executionId;
		findings.push(
			`worker-3 at start-up: ${line.message.split('\n')[0].slice(0, 200)}${id ? ` (execution ${String(id)})` : ''}`,
		);
	}
	for (const id of [executionA, executionB])
		for (const message of [
			...problem(id),
			...logMessages(mainInstance, new RegExp(`stalled.*\\(execution ${id}\\)`)),
		])
			findings.push(`main log: ${message.split('\n')[0].slice(0, 220)}`);
	for (const record of finalRecords) {
		findings.push(
			`execution ${record.id}: ended about ${endedAfter.toFixed(0)} s after the last kill with status "${record.status}" ` +
				`(finished ${String(record.finished)}); nodes left in its record: ${Object.keys(record.data?.resultData.runData ?? {}).join(', ') || 'none'}; ` +
				`error: ${record.data?.resultData.error?.message?.slice(0, 120) ?? 'none'}`,
		);
	}
	check(
		group,
		'n8n ended both killed executions as failed (not success, not left running)',
		finalRecords.every((record) => ['error', 'crashed'].includes(record.status)),
		finalRecords.map((record) => `${record.id}: ${record.status}`).join(', '),
	);
	// Anything re-run would show as a worker starting the execution again, or as new tasks.
	await sleep(LOCK.stalledInterval + 2000);
	const starts = [executionA, executionB].map(
		(id) =>
			[worker3, ...workers].flatMap((worker) =>
				startedBy(worker).filter((started) => started === id),
			).length,
	);
	equal(
		group,
		'neither killed execution was run again (each started once, on one worker)',
		starts,
		[1, 1],
	);
	equal(
		group,
		'no task was created after the kills (nothing re-delivered, nothing charged twice)',
		serviceTasks(service).length,
		tasksAtKills,
	);
	check(
		group,
		`(a) the ${jobs.length} Photo Enhancer tasks of execution ${executionA} were created once each`,
		createdA.length === jobs.length && createdA.every((task) => task.kind === 'photoEnhancer'),
		`${createdA.length} tasks: ${createdA.map((task) => task.kind).join(', ')}`,
	);

	// (a): with Wait for Completion on, the created ids exist only inside the waiting node, and in
	// the log line the node writes for each task it creates.
	const idsInRecordA =
		savedTaskIds(recordAtKillA.data, 'Enhance photos').length +
		savedTaskIds(finalA.data, 'Enhance photos').length;
	findings.push(
		`(a) task ids of execution ${executionA} in its execution record: ${idsInRecordA} of ${createdA.length} ` +
			`(the node was killed before it output anything); in the killed worker's log: ${loggedA.length} of ${createdA.length}`,
	);
	equal(
		group,
		`(a) the killed worker's log names each of the ${createdA.length} tasks execution ${executionA} created, once, with its node`,
		loggedA.map((entry) => `${entry.taskId}:${entry.kind}:${entry.node}`).sort(),
		createdA.map((task) => `${task.id}:${task.kind}:Enhance photos`).sort(),
	);
	equal(
		group,
		`(a) one log line per item, items 0 to ${jobs.length - 1}`,
		loggedA.map((entry) => entry.itemIndex).sort((x, y) => x - y),
		jobs.map((_job, index) => index),
	);
	const idsInFinalB =
		savedTaskIds(finalB.data, 'Create photo tasks').length +
		savedTaskIds(finalB.data, 'Create room tasks').length;
	findings.push(
		`(b) task ids in the record of execution ${executionB}: ${idsAtKillB.length} while it was stalled, ${idsInFinalB} after n8n ended it`,
	);

	// (a): what an operator does with the log: the ids go to the data table the finish workflow
	// reads (the Split Out keeps the listing's order, so item i is job i).
	const inserted = await session.rest(
		`/rest/projects/${projectId}/data-tables/${dataTableId}/insert`,
		{
			data: loggedA.map((entry) => ({
				executionId: executionA,
				job: jobs[entry.itemIndex].job,
				kind: entry.kind,
				taskId: entry.taskId,
			})),
		},
	);
	check(
		group,
		`(a) the ${loggedA.length} logged ids written to the data table (REST)`,
		inserted.status === 200,
		`HTTP ${inserted.status} ${JSON.stringify(inserted.json).slice(0, 300)}`,
	);

	// (b): the ids read back from the data table the workflow itself wrote.
	const rowsB = (await taskRows()).filter((row) => row.executionId === executionB);
	equal(
		group,
		`(b) the data table rows of execution ${executionB} = the ${createdB.length} tasks the service created for it, each once`,
		rowsB.map((row) => `${row.taskId}:${row.kind}`).sort(),
		createdB.map((task) => `${task.id}:${task.kind}`).sort(),
	);
	equal(
		group,
		`(b) one photo and one room task per job (${recoverJobs.length} jobs)`,
		(['photoEnhancer', 'objectRemover'] as Kind[]).map((kind) =>
			rowsB
				.filter((row) => row.kind === kind)
				.map((row) => row.job)
				.sort((x, y) => x - y),
		),
		[recoverJobs.map((job) => job.job), recoverJobs.map((job) => job.job)],
	);

	// Both finished with Get Result, through the queue, on the fresh worker, once their time is up.
	const recoveredIds = new Set([...createdA, ...createdB].map((task) => task.id));
	await until('the recovered tasks to end', 60_000, () =>
		serviceTasks(service).every(
			(task) => !recoveredIds.has(task.id) || ['Success', 'Failed'].includes(task.status),
		)
			? true
			: undefined,
	);
	let recovered = 0;
	for (const [label, killed] of [
		['(a)', executionA],
		['(b)', executionB],
	]) {
		const rows = (await taskRows()).filter((row) => row.executionId === killed);
		recovered += await finishWithGetResult(`${label} execution ${killed}`, killed, rows);
	}
	equal(
		group,
		'every task created by the killed executions was finished with Get Result',
		recovered,
		createdA.length + createdB.length,
	);

	async function finishWithGetResult(
		label: string,
		killed: string,
		rows: TaskRow[],
	): Promise<number> {
		const beforeFinish = snapshot(service);
		const executionF = await startExecution(WORKFLOWS.finish, { executionId: killed });
		const finishRecord = await until('the Get Result execution to finish', 120_000, async () => {
			const record = await execution(executionF);
			return TERMINAL.includes(record.status) ? record : undefined;
		});
		check(
			group,
			`${label}: Get Result execution ${executionF}: status success, on worker-3`,
			finishRecord.status === 'success' && startedBy(worker3).includes(executionF),
			`${finishRecord.status} ${finishRecord.data?.resultData.error?.message ?? ''}; on worker-3: ${startedBy(worker3).includes(executionF)}`,
		);
		const byJob = (kind: Kind) =>
			rows
				.filter((row) => row.kind === kind)
				.sort((x, y) => x.job - y.job)
				.map((row) => row.taskId);
		const photos = nodeItems(finishRecord.data, 'Get photo results') ?? [];
		const rooms = nodeItems(finishRecord.data, 'Get room results') ?? [];
		equal(
			group,
			`${label}: Get Result output the recovered task ids, in job order`,
			[photos.map((item) => item.json.id), rooms.map((item) => item.json.id)],
			[byJob('photoEnhancer'), byJob('objectRemover')],
		);
		const finishedOk = (item: Item, credits: number) =>
			item.json.status === 'Success' &&
			item.json.creditsCharged === credits &&
			item.json.output?.resultUrl === `${base}/results/${String(item.json.id)}.png`;
		check(
			group,
			`${label}: every recovered task Success, with its result URL and the credits it cost`,
			photos.length + rooms.length === rows.length &&
				photos.every((item) => finishedOk(item, 10)) &&
				rooms.every((item) => finishedOk(item, 1)),
			JSON.stringify(
				[...photos, ...rooms]
					.map((item) => [item.json.id, item.json.status, item.json.creditsCharged])
					.slice(0, 6),
			),
		);
		equal(
			group,
			`${label}: Get Result created no task and spent no credit`,
			[serviceTasks(service).length, service.balance(API_KEY)],
			[beforeFinish.ids.size, beforeFinish.balance],
		);
		return photos.length + rooms.length;
	}
	figures.push(
		`worker kill: ${createdA.length + createdB.length} tasks created in the two killed executions, all recovered and finished with Get Result: ` +
			`${loggedA.length} from the killed worker's log (Wait for Completion on), ${rowsB.length} from the data table the workflow wrote; ` +
			`the main ended the killed executions about ${endedAfter.toFixed(0)} s after the last kill ` +
			`(Bull lock ${LOCK.duration / 1000} s, stalled-job check every ${LOCK.stalledInterval / 1000} s)`,
	);
}

runMain('n8n queue mode test', main, saveLogs);

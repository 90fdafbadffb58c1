/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The settings of the queue-mode run: what run.sh passes in the environment, the local service's
 * account and task durations, the binary data mode, the workflows and the jobs of their Listing
 * node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FORM_UPLOAD_EXAMPLE } from '../n8n-app/form-upload.ts';
import { localCredential, requiredEnv, runFolders, SAMPLE_BASE_URL } from '../n8n-app/report.ts';

export const RUNNER = 'test/n8n-queue/run.sh';
export const { REPO, WORK, USER_FOLDER, N8N_APP, N8N_BIN } = runFolders('QUEUE', RUNNER);
export const PIDS_FILE = requiredEnv('QUEUE_PIDS_FILE', RUNNER);
export const HERE = join(REPO, 'test', 'n8n-queue');
export const RUN_START_MS = Number(requiredEnv('QUEUE_RUN_START', RUNNER)) * 1000;
/** The n8n line under test (run.sh's `--n8n`): `2.41` or `1.123`. */
export const N8N_LINE = requiredEnv('QUEUE_N8N_LINE', RUNNER);
/** run.sh's PostgreSQL cluster and n8n's database in it; psql (Debian's) reads n8n's own tables. */
export const DATABASE = {
	port: Number(requiredEnv('QUEUE_PG_PORT', RUNNER)),
	password: requiredEnv('QUEUE_PG_PASSWORD', RUNNER),
	name: 'n8n',
	user: 'n8n',
	psql: requiredEnv('QUEUE_PSQL', RUNNER),
};

export const CREDENTIAL = localCredential('IdealHouseLocal1');
/** The same key on a second local service, one that enforces a rate limit per key. */
export const THROTTLED_CREDENTIAL = {
	id: 'IdealHouseThrottled1',
	name: 'Ideal House (rate-limited local service)',
	type: 'idealHouseApi',
};
export const API_KEY = 'n8n-queue-key';
export const START_CREDITS = 100_000;
/** Short tasks for the runs that must finish; long ones while workers are killed. */
export const TASK_MS = 1500;
export const KILL_TASK_MS = 20_000;
/** How many times the listing webhook is called at once. */
export const LISTING_RUNS = Number(process.env.QUEUE_LISTING_RUNS ?? 2);
export const WORKFLOWS = {
	listing: { id: 'ihQueueListing', file: 'listing.json', path: 'ideal-house-queue-listing' },
	recover: { id: 'ihQueueRecover', file: 'recover.json', path: 'ideal-house-queue-recover' },
	finish: { id: 'ihQueueFinish', file: 'finish.json', path: 'ideal-house-queue-finish' },
	throttled: {
		id: 'ihQueueThrottled',
		file: 'throttled.json',
		path: 'ideal-house-queue-throttled',
	},
} as const;
/** The form upload run on a worker: the example, its photo on n8n's own link. */
export const FORM_UPLOADS = [FORM_UPLOAD_EXAMPLE];

/**
 * Two workers, each running one execution of `photosPerExecution` photos on one account, against
 * a service that answers HTTP 429 beyond `rateLimit` requests a second per key.
 * `QUEUE_SKIP_THROTTLED=1` leaves this part out (for quicker runs while working on another part).
 */
export const THROTTLED = {
	photosPerExecution: Number(process.env.QUEUE_THROTTLED_PHOTOS ?? 100),
	executions: 2,
	rateLimit: 50,
	skip: process.env.QUEUE_SKIP_THROTTLED === '1',
};

// ---------------------------------------------------------------------------------------------
// Binary data

export type BinaryMode = 'database' | 'filesystem' | 'default';

/**
 * Where n8n keeps binary data (uploaded files, downloaded results) in this run. n8n 2.x picks
 * `database` by itself in queue mode: N8N_DEFAULT_BINARY_DATA_MODE is left unset, as users leave
 * it. n8n 1.x keeps binary data in memory and in the execution's own record by default
 * (`default`); its `filesystem` mode works in queue mode only when the main and
 * every worker see one folder, which the processes here do (one disk, as a shared volume gives).
 * (2.41 still has `default` when it is set, deprecated.)
 * `QUEUE_BINARY_DATA_MODE` picks another mode of the line: 1.123 also has `default` and
 * `database` (the latter once listed in N8N_AVAILABLE_BINARY_DATA_MODES).
 */
export const BINARY_MODE: BinaryMode =
	(process.env.QUEUE_BINARY_DATA_MODE as BinaryMode | undefined) ??
	(N8N_LINE.startsWith('1.') ? 'filesystem' : 'database');
/** The folder filesystem mode keeps the files in, shared by the main and the workers. */
export const BINARY_FOLDER = join(WORK, 'binary-data');

/** The environment every n8n process and command gets for BINARY_MODE. */
export function binaryDataEnv(): Record<string, string> {
	if (BINARY_MODE === 'filesystem')
		return {
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			N8N_BINARY_DATA_STORAGE_PATH: BINARY_FOLDER,
		};
	if (BINARY_MODE === 'default') return { N8N_DEFAULT_BINARY_DATA_MODE: 'default' };
	// n8n 2.x: its default in queue mode. n8n 1.x: only once the mode is made available.
	return N8N_LINE.startsWith('1.')
		? {
				N8N_AVAILABLE_BINARY_DATA_MODES: 'filesystem,database',
				N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			}
		: {};
}
/** Where the recovery workflow keeps the ids of the tasks it created. */
export const DATA_TABLE = 'ideal_house_tasks';
/**
 * Bull's lock on a running job (default 60 s, renewed every 10 s) and how often the workers look
 * for jobs whose lock has expired (default 30 s), shortened so that a killed worker is noticed
 * within a test run.
 */
export const LOCK = { duration: 15_000, renew: 5_000, stalledInterval: 5_000 };
/**
 * How many times Bull hands a job whose worker died to another worker. n8n 2.x fixes it at 0. n8n
 * 1.x reads QUEUE_WORKER_MAX_STALLED_COUNT, default 1: the execution then runs again from its
 * start on another worker, and every task its nodes had created is created and paid for again.
 * The test sets 0 on 1.x, the setting users of the nodes need there; `QUEUE_MAX_STALLED_COUNT=1`
 * shows n8n 1.x's default (with QUEUE_FRESH_WORKER_FOLDER=1, the run is repeated).
 */
export const MAX_STALLED_COUNT = N8N_LINE.startsWith('1.')
	? Number(process.env.QUEUE_MAX_STALLED_COUNT ?? 0)
	: 0;
export const COMMAND_TIMEOUT_MS = 240_000;
export const KIND = {
	photoEnhancer: { credits: 10 },
	objectRemover: { credits: 1 },
} as const;
export type Kind = keyof typeof KIND;

// ---------------------------------------------------------------------------------------------
// The workflows

export interface Job {
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

export function workflowText(file: string, base: string): string {
	return readFileSync(join(HERE, 'workflows', file), 'utf8')
		.split(SAMPLE_BASE_URL)
		.join(base);
}

export function jobsOf(text: string): Job[] {
	const workflow = JSON.parse(text) as WorkflowJson;
	const listing = workflow.nodes.find((node) => node.name === 'Listing');
	return (JSON.parse(String(listing?.parameters.jsonOutput)) as { jobs: Job[] }).jobs;
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The settings of the queue-mode run: what run.sh passes in the environment, the local service's
 * account and task durations, the three workflows and the jobs of their Listing node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { localCredential, requiredEnv, runSettings, SAMPLE_BASE_URL } from '../n8n-app/report.ts';

export const RUNNER = 'test/n8n-queue/run.sh';
export const {
	repo: REPO,
	work: WORK,
	userFolder: USER_FOLDER,
	n8nApp: N8N_APP,
	n8nBin: N8N_BIN,
} = runSettings('QUEUE', RUNNER);
export const PIDS_FILE = requiredEnv('QUEUE_PIDS_FILE', RUNNER);
export const HERE = join(REPO, 'test', 'n8n-queue');
export const RUN_START_MS = Number(requiredEnv('QUEUE_RUN_START', RUNNER)) * 1000;

export const CREDENTIAL = localCredential('IdealHouseLocal1');
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
} as const;
/** Where the recovery workflow keeps the ids of the tasks it created. */
export const DATA_TABLE = 'ideal_house_tasks';
/**
 * Bull's lock on a running job (default 60 s, renewed every 10 s) and how often the workers look
 * for jobs whose lock has expired (default 30 s), shortened so that a killed worker is noticed
 * within a test run. n8n itself sets maxStalledCount to 0.
 */
export const LOCK = { duration: 15_000, renew: 5_000, stalledInterval: 5_000 };
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

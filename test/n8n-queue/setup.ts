/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * Setting up the run: the local services (one without and one with a rate limit per key), the S3
 * server, the credentials and workflows in PostgreSQL, one main and two workers, the workflows
 * published and the data table for task ids.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type RunningService, type ServiceOptions, startService } from '../../service/server.ts';
import { exampleFile, importCredentials, importWorkflows } from '../n8n-app/imports.ts';
import { type Instance, logMessages, n8nCommand, ready, startInstance } from './processes.ts';
import { activate, rest, useTaskTable } from './rest.ts';
import {
	API_KEY,
	CREDENTIAL,
	DATA_TABLE,
	FORM_UPLOADS,
	HERE,
	N8N_LINE,
	REPO,
	START_CREDITS,
	TASK_MS,
	THROTTLED,
	THROTTLED_CREDENTIAL,
	WORK,
	WORKFLOWS,
} from './settings.ts';
import { check, report, timed } from './summary.ts';

const GROUP = 'queue mode: main + 2 workers';

export async function startLocalService(): Promise<RunningService> {
	const service = await startService({
		port: 0,
		host: '127.0.0.1',
		accounts: { [API_KEY]: START_CREDITS },
		taskDurationMs: TASK_MS,
		workers: 100,
		seed: 20261122,
	});
	console.log(`Local service on ${service.baseUrl} (tasks ${TASK_MS} ms)`);
	return service;
}

/** The rate-limited service, or, where the service has no such option, the reason. */
export interface ThrottledService {
	service: RunningService;
	/** Why the limit is not in force: the service refused the option. */
	limitRefused?: string;
}

/**
 * The same account on a second service that answers HTTP 429 beyond THROTTLED.rateLimit requests a
 * second per key, and runs every task at once (the limit, not its task slots, is what is tested).
 * A service without the option refuses it: it then runs without a limit, and the part says so.
 */
export async function startThrottledService(): Promise<ThrottledService> {
	const options: ServiceOptions = {
		port: 0,
		host: '127.0.0.1',
		accounts: { [API_KEY]: START_CREDITS },
		taskDurationMs: TASK_MS,
		workers: THROTTLED.executions * THROTTLED.photosPerExecution,
		seed: 20261126,
	};
	// `rateLimit` (requests per second per key, 0 = off) is the service's option for the limit.
	const limit = { rateLimit: THROTTLED.rateLimit };
	const limited = await startService({ ...options, ...limit }).then(
		(service) => ({ service, error: undefined }),
		(error: Error) => ({ service: undefined, error }),
	);
	if (limited.service) {
		console.log(
			`Rate-limited local service on ${limited.service.baseUrl} (${THROTTLED.rateLimit} requests/s per key)`,
		);
		return { service: limited.service };
	}
	if (!/rateLimit/.test(limited.error.message)) throw limited.error;
	const service = await startService(options);
	console.log(`Local service on ${service.baseUrl} WITHOUT a rate limit: ${limited.error.message}`);
	return { service, limitRefused: limited.error.message };
}

/**
 * The credentials (the service, the rate-limited service) and the workflows with the local
 * service's address, through n8n's CLI: the queue's own, and the form upload example.
 */
export async function importIntoDatabase(base: string, throttledBase: string): Promise<void> {
	const imports = { report, group: 'import into PostgreSQL (CLI)', work: WORK, n8n: n8nCommand };
	await importCredentials(imports, [
		{ credential: CREDENTIAL, data: { apiKey: API_KEY, baseUrl: base } },
		{ credential: THROTTLED_CREDENTIAL, data: { apiKey: API_KEY, baseUrl: throttledBase } },
	]);
	await importWorkflows(
		imports,
		[
			...Object.values(WORKFLOWS).map(({ file }) => ({
				file,
				text: readFileSync(join(HERE, 'workflows', file), 'utf8'),
			})),
			...FORM_UPLOADS.map(({ file, folder }) =>
				folder === 'examples'
					? exampleFile(REPO, file, { service: base, credentials: { idealHouseApi: CREDENTIAL } })
					: { file, text: readFileSync(join(REPO, 'test', 'n8n-app', 'workflows', file), 'utf8') },
			),
		],
		base,
	);
}

export async function startMainAndWorkers(): Promise<{
	mainInstance: Instance;
	workers: Instance[];
}> {
	const all = await timed('start main + 2 workers (until ready)', async () => {
		const started = [
			await startInstance('main', 'main'),
			await startInstance('worker-1', 'worker'),
			await startInstance('worker-2', 'worker'),
		];
		const readiness = await Promise.all(started.map(ready));
		for (const [index, instance] of started.entries())
			check(
				GROUP,
				`${instance.name} ready (/healthz/readiness)`,
				readiness[index],
				instance.proc.output().slice(-1500),
			);
		return started;
	});
	if (!all.every((instance) => instance.proc.child.exitCode === null))
		throw new Error('an n8n process exited during start-up');
	const [mainInstance, ...workers] = all;
	return { mainInstance, workers };
}

/**
 * Activation (publishing) registers the production webhooks on the main. The form uploads are
 * published by their own step.
 */
export async function activateWorkflows(): Promise<void> {
	for (const workflow of Object.values(WORKFLOWS)) {
		const activated = await activate(workflow.id);
		check(
			GROUP,
			`${workflow.id} activated over REST (its production webhook registered)`,
			activated.active,
			activated.detail,
		);
	}
}

export function checkWorkersSaidReady(workers: Instance[]): void {
	for (const worker of workers)
		check(
			GROUP,
			`${worker.name}: "n8n worker is now ready"`,
			logMessages(worker, /n8n worker is now ready/).length === 1,
			worker.proc.output().slice(-1500),
		);
}

/** The data table the recovery workflow writes the created task ids to. */
export async function createTaskTable(): Promise<void> {
	const personal = await rest('/rest/projects/personal');
	const projectId = String(personal.json.data?.id ?? '');
	const created = await rest(`/rest/projects/${projectId}/data-tables`, {
		name: DATA_TABLE,
		columns: [
			{ name: 'executionId', type: 'string' },
			{ name: 'job', type: 'number' },
			{ name: 'kind', type: 'string' },
			{ name: 'taskId', type: 'string' },
		],
	});
	const dataTableId = String(created.json.data?.id ?? '');
	useTaskTable(projectId, dataTableId);
	check(
		GROUP,
		`data table "${DATA_TABLE}" created over REST`,
		created.status === 200 && !!dataTableId,
		`HTTP ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`,
	);
	if (N8N_LINE.startsWith('1.')) await pointDataTableNodesAt(dataTableId);
}

/**
 * n8n 1.x's Data table node finds its table by id only (finding it by name came with 2.x): the
 * workflows that use the table are saved with its id, as a user picks it from the list, before
 * they are activated.
 */
async function pointDataTableNodesAt(dataTableId: string): Promise<void> {
	for (const workflow of [WORKFLOWS.recover, WORKFLOWS.finish]) {
		const stored = (await rest(`/rest/workflows/${workflow.id}`)).json.data ?? {};
		const nodes = (
			stored.nodes as Array<{ type: string; parameters: Record<string, unknown> }>
		).map((node) =>
			node.type === 'n8n-nodes-base.dataTable'
				? {
						...node,
						parameters: {
							...node.parameters,
							dataTableId: { __rl: true, mode: 'id', value: dataTableId },
						},
					}
				: node,
		);
		const saved = await rest(
			`/rest/workflows/${workflow.id}`,
			{ nodes, versionId: stored.versionId },
			'PATCH',
		);
		check(
			GROUP,
			`${workflow.id}: its Data table nodes saved with the table's id (n8n 1.x finds a table by id only)`,
			saved.status === 200,
			`HTTP ${saved.status} ${JSON.stringify(saved.json).slice(0, 300)}`,
		);
	}
}

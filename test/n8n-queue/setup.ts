/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * Setting up the run: the local service, the credential and workflows in PostgreSQL, one main and
 * two workers, the workflows published and the data table for task ids.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { type RunningService, startService } from '../../service/server.ts';
import { importCredential, importWorkflows } from '../n8n-app/imports.ts';
import { type Instance, logMessages, n8nCommand, ready, startInstance } from './processes.ts';
import { rest, useTaskTable } from './rest.ts';
import {
	API_KEY,
	CREDENTIAL,
	DATA_TABLE,
	HERE,
	START_CREDITS,
	TASK_MS,
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

/** The credential and the workflows with the local service's address, through n8n's CLI. */
export async function importIntoDatabase(base: string): Promise<void> {
	const imports = { report, group: 'import into PostgreSQL (CLI)', work: WORK, n8n: n8nCommand };
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

/** Activation (publishing) registers the production webhooks on the main. */
export async function activateWorkflows(): Promise<void> {
	for (const workflow of Object.values(WORKFLOWS)) {
		const stored = await rest(`/rest/workflows/${workflow.id}`);
		const versionId = stored.json.data?.versionId;
		const activated = await rest(`/rest/workflows/${workflow.id}/activate`, { versionId });
		check(
			GROUP,
			`${workflow.id} activated over REST (its production webhook registered)`,
			activated.status === 200 && typeof activated.json.data?.activeVersionId === 'string',
			`HTTP ${activated.status} ${JSON.stringify(activated.json).slice(0, 300)}`,
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
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Setting up the automation test: the local Ideal House service, the MLS feed and CRM stand-ins,
 * the examples and credentials imported with n8n's CLI into PostgreSQL, one `n8n start`, its
 * owner login; and the REST and SQL reads the checks use.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { type RunningCrmStub, startCrmStub } from '../../service/crm/crm.ts';
import { type RunningMlsFeed, startMlsFeed } from '../../service/mls/feed.ts';
import { type RunningService, startService } from '../../service/server.ts';
import { exampleFile, importWorkflows } from '../n8n-app/imports.ts';
import {
	logFile,
	type N8nProcess,
	readExecution,
	type RestSession,
	setUpOwner,
} from '../n8n-app/n8n-process.ts';
import { n8nCli, n8nOnFreePorts, startN8nApp } from '../n8n-app/n8n-setup.ts';
import { localCredential, Report, requiredEnv, runSettings, until } from '../n8n-app/report.ts';

export { until };

export const RUNNER = 'test/n8n-automation/run.sh';
export const settings = runSettings('AUTOMATION', RUNNER);
const PIDS_FILE = requiredEnv('AUTOMATION_PIDS_FILE', RUNNER);

export const LOCAL_ACCOUNT = 'n8n-automation-key';
export const START_CREDITS = 10_000;
/** Task duration in the local service: short, so that each scheduled run takes a few seconds. */
const TASK_MS = 1500;
/** The feed caps its pages at two listings, so that every run follows @odata.nextLink. */
export const FEED_PAGE_SIZE = 2;
const ENHANCER_TYPE = 'n8n-nodes-ideal-house.photoEnhancer';
const SHIPPED_CREDIT_LIMIT = 1000;
/** Five photos a run: the first run's feed has seven, so two wait for the next run. */
export const TEST_CREDIT_LIMIT = 50;

export const WORKFLOWS = {
	scheduled: { id: 'ihScheduledMls', file: 'scheduled-mls-enhance.json' },
	crm: { id: 'ihCrmWebhook', file: 'crm-webhook-enhance.json', path: 'crm-listing-ready' },
} as const;

const CREDENTIALS = {
	idealHouse: localCredential('IdealHouseLocal1'),
	feed: { id: 'MlsFeedLocal1', name: 'MLS feed (local stand-in)', type: 'httpBearerAuth' },
	crm: { id: 'CrmLocal1', name: 'CRM (local stand-in)', type: 'httpBearerAuth' },
	database: { id: 'BrokerageDbLocal1', name: 'Brokerage database', type: 'postgres' },
};

export interface Item {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }> | number;
}

export interface RunData {
	resultData: {
		error?: { message?: string };
		runData: Record<
			string,
			Array<{ executionStatus?: string; error?: unknown; data?: { main?: Item[][] } }>
		>;
	};
}

export interface ExecutionRecord {
	id: string;
	status: string;
	mode: string;
	startedAt?: string;
	stoppedAt?: string;
	data?: RunData;
}

export interface Context {
	report: Report;
	service: RunningService;
	feed: RunningMlsFeed;
	crm: RunningCrmStub;
	n8n: N8nProcess;
	/** n8n's address, e.g. http://127.0.0.1:5678 */
	n8nBase: string;
	session: RestSession;
	/** Lines for the summary's figures section. */
	figures: string[];
}

/** The stand-ins the workflows talk to, all on loopback ports of their own. */
export async function startStandIns(): Promise<{
	service: RunningService;
	feed: RunningMlsFeed;
	crm: RunningCrmStub;
}> {
	const service = await startService({
		port: 0,
		host: '127.0.0.1',
		accounts: { [LOCAL_ACCOUNT]: START_CREDITS },
		taskDurationMs: TASK_MS,
		workers: 50,
		seed: 20261123,
	});
	const feed = await startMlsFeed({ token: 'automation-mls-token', maxPageSize: FEED_PAGE_SIZE });
	const crm = await startCrmStub({ token: 'automation-crm-token' });
	return { service, feed, crm };
}

/**
 * An example as the test runs it: rewritten for the local set-up (test/helpers/local-examples.ts), the
 * placeholder feed and CRM addresses and the credentials swapped for the stand-ins' own.
 */
export function exampleText(
	file: string,
	stands: { service: RunningService; feed: RunningMlsFeed; crm: RunningCrmStub },
): string {
	const bearer = file === WORKFLOWS.crm.file ? CREDENTIALS.crm : CREDENTIALS.feed;
	return exampleFile(settings.repo, file, {
		service: stands.service.baseUrl,
		mlsFeed: stands.feed.baseUrl,
		crm: stands.crm.baseUrl,
		credentials: {
			idealHouseApi: CREDENTIALS.idealHouse,
			httpBearerAuth: bearer,
			postgres: CREDENTIALS.database,
		},
	}).text;
}

/** What PostgreSQL settings n8n gets: its own database `n8n` on the cluster run.sh started. */
function databaseEnv(): Record<string, string> {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: requiredEnv('AUTOMATION_PG_PORT', RUNNER),
		DB_POSTGRESDB_DATABASE: 'n8n',
		DB_POSTGRESDB_USER: 'n8n',
		DB_POSTGRESDB_PASSWORD: requiredEnv('AUTOMATION_PG_PASSWORD', RUNNER),
		N8N_ENCRYPTION_KEY: `automation-${Date.now().toString(36)}`,
		GENERIC_TIMEZONE: 'UTC',
	};
}

/**
 * The credentials and both examples into n8n's database with its CLI; `scheduledText` is the
 * scheduled example as the test runs it (a seconds interval).
 */
export async function importAll(
	report: Report,
	stands: { service: RunningService; feed: RunningMlsFeed; crm: RunningCrmStub },
	workflows: Array<{ file: string; text: string }>,
	env: Record<string, string>,
): Promise<void> {
	const group = 'import into n8n (CLI, PostgreSQL)';
	// A fresh environment (fresh ports) for every command.
	const freshEnv = async () => (await n8nOnFreePorts(settings.userFolder, env)).env;
	const cli = n8nCli(settings.n8nBin, settings.work, freshEnv, 240_000);
	const imports = { report, group, work: settings.work, n8n: cli };
	// All four credentials in one CLI call (each call starts n8n: 10-20 s).
	const file = join(settings.work, 'credentials.json');
	writeFileSync(
		file,
		JSON.stringify([
			{
				...CREDENTIALS.idealHouse,
				data: { apiKey: LOCAL_ACCOUNT, baseUrl: stands.service.baseUrl },
			},
			{ ...CREDENTIALS.feed, data: { token: stands.feed.token } },
			{ ...CREDENTIALS.crm, data: { token: stands.crm.token } },
			{
				...CREDENTIALS.database,
				data: {
					host: '127.0.0.1',
					port: Number(requiredEnv('AUTOMATION_PG_PORT', RUNNER)),
					database: 'brokerage',
					user: 'n8n',
					password: requiredEnv('AUTOMATION_PG_PASSWORD', RUNNER),
					ssl: 'disable',
				},
			},
		]),
	);
	const result = await report.timed(
		'n8n import:credentials',
		async () => await cli('import-credentials', ['import:credentials', `--input=${file}`]),
	);
	report.check(
		group,
		'import:credentials: exit 0, the Ideal House, feed, CRM and database credentials imported',
		result.code === 0 && /imported 4 credentials\./i.test(result.stdout),
		`exit ${result.code}; see ${logFile(settings.work, 'import-credentials')}`,
	);
	await importWorkflows(imports, workflows, stands.service.baseUrl);
}

/** `n8n start` on PostgreSQL, ready, with a logged-in owner. */
export async function startN8n(
	report: Report,
	env: Record<string, string>,
): Promise<{ n8n: N8nProcess; n8nBase: string; session: RestSession }> {
	const started = await n8nOnFreePorts(settings.userFolder, env);
	const { app: n8n, ready: untilAppReady } = startN8nApp(
		settings.n8nBin,
		settings.work,
		started.env,
	);
	if (n8n.child.pid) appendFileSync(PIDS_FILE, `${n8n.child.pid}\n`);
	const n8nBase = started.base;
	const ready = await report.timed(
		'n8n start (until ready)',
		async () => await untilAppReady(150_000),
	);
	if (!report.check('n8n start', 'ready (/healthz/readiness)', ready, n8n.output().slice(-2000)))
		throw new Error('n8n did not become ready');
	return { n8n, n8nBase, session: await setUpOwner(n8nBase) };
}

export async function setUp(
	report: Report,
	scheduledInterval: number,
): Promise<Omit<Context, 'figures'>> {
	const stands = await startStandIns();
	const env = databaseEnv();
	const scheduled = JSON.parse(exampleText(WORKFLOWS.scheduled.file, stands)) as {
		nodes: Array<{ type: string; parameters: Record<string, unknown> }>;
	};
	const trigger = scheduled.nodes.find((node) => node.type === 'n8n-nodes-base.scheduleTrigger');
	report.equal(
		'examples as shipped',
		`${WORKFLOWS.scheduled.file}: nightly rule (the test swaps in every ${scheduledInterval} s)`,
		trigger?.parameters.rule,
		{ interval: [{ field: 'days', triggerAtHour: 2 }] },
	);
	if (trigger)
		trigger.parameters.rule = {
			interval: [{ field: 'seconds', secondsInterval: scheduledInterval }],
		};
	const enhancer = scheduled.nodes.find((node) => node.type === ENHANCER_TYPE);
	const options = (enhancer?.parameters.options ?? {}) as Record<string, unknown>;
	report.equal(
		'examples as shipped',
		`${WORKFLOWS.scheduled.file}: a Credit Limit of ${SHIPPED_CREDIT_LIMIT} (the test sets ${TEST_CREDIT_LIMIT}, fewer photos than the feed has)`,
		options.creditLimit,
		SHIPPED_CREDIT_LIMIT,
	);
	options.creditLimit = TEST_CREDIT_LIMIT;
	await importAll(
		report,
		stands,
		[
			{ file: WORKFLOWS.scheduled.file, text: JSON.stringify(scheduled, null, '\t') },
			{
				file: WORKFLOWS.crm.file,
				text: exampleText(WORKFLOWS.crm.file, stands),
			},
		],
		env,
	);
	return { report, ...stands, ...(await startN8n(report, env)) };
}

/**
 * Deactivates (n8n 2.x: unpublishes) a workflow: n8n 2.x has an endpoint for it, 1.x takes the
 * `active` flag on the workflow. (Activation: `activateWorkflow` of n8n-process.ts.)
 */
export async function deactivateWorkflow(
	session: RestSession,
	workflowId: string,
): Promise<{ status: number; body: string }> {
	const stored = await session.rest(`/rest/workflows/${workflowId}`);
	const versionId = stored.json.data?.versionId;
	let answer = await session.rest(`/rest/workflows/${workflowId}/deactivate`, { versionId });
	if (answer.status === 404)
		answer = await session.rest(
			`/rest/workflows/${workflowId}`,
			{ versionId, active: false },
			'PATCH',
		);
	return { status: answer.status, body: JSON.stringify(answer.json).slice(0, 400) };
}

export async function executionsOf(
	session: RestSession,
	workflowId: string,
): Promise<ExecutionRecord[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { status, json } = await session.rest(`/rest/executions?filter=${filter}&limit=100`);
	if (status !== 200)
		throw new Error(`GET /rest/executions: HTTP ${status} ${JSON.stringify(json).slice(0, 300)}`);
	return ((json.data as { results?: ExecutionRecord[] } | undefined)?.results ?? [])
		.map((record) => ({ ...record, id: String(record.id) }))
		.sort((a, b) => Number(a.id) - Number(b.id));
}

/** One execution with its run data. */
export async function execution(session: RestSession, id: string): Promise<ExecutionRecord> {
	return await readExecution<ExecutionRecord>(session, settings.n8nApp, id);
}

/** The items a node emitted on one output in an execution (first run of the node). */
export function nodeOutput(record: ExecutionRecord, node: string, output = 0): Item[] | undefined {
	return record.data?.resultData.runData[node]?.[0]?.data?.main?.[output] ?? undefined;
}

export const TERMINAL = ['success', 'error', 'crashed', 'canceled'];

const run = promisify(execFile);

/** Rows of a query on the brokerage database, through Debian's psql as JSON. */
export async function queryBrokerage<T>(sql: string): Promise<T[]> {
	const { stdout } = await run(
		requiredEnv('AUTOMATION_PSQL', RUNNER),
		[
			'-h',
			'127.0.0.1',
			'-p',
			requiredEnv('AUTOMATION_PG_PORT', RUNNER),
			'-U',
			'n8n',
			'-d',
			'brokerage',
			'-At',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			`SELECT coalesce(json_agg(t), '[]') FROM (${sql}) t`,
		],
		{ env: { ...process.env, PGPASSWORD: requiredEnv('AUTOMATION_PG_PASSWORD', RUNNER) } },
	);
	return JSON.parse(stdout) as T[];
}

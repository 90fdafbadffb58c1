/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The n8n processes of the run (a main, workers) and its CLI commands, all in queue mode on
 * run.sh's Redis and PostgreSQL; what their logs say.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

import {
	type CommandResult,
	freePort,
	logFile,
	type N8nProcess,
	n8nEnv,
	parseLogLines,
	runN8nCommand,
	startN8nProcess,
	untilReady,
} from '../n8n-app/n8n-process.ts';
import { requiredEnv, sleep } from '../n8n-app/report.ts';
import {
	binaryDataEnv,
	COMMAND_TIMEOUT_MS,
	DATABASE,
	LOCK,
	MAX_STALLED_COUNT,
	N8N_APP,
	N8N_BIN,
	PIDS_FILE,
	RUNNER,
	USER_FOLDER,
	WORK,
} from './settings.ts';
import { report } from './summary.ts';

let queueEnv: Record<string, string> = {};

/**
 * Puts every process and command started from here on into queue mode on run.sh's Redis and
 * PostgreSQL, with the run's binary data mode. They share one encryption key, or a worker could
 * not read the credential the CLI imported. `webhookUrl` is the main's public address
 * (WEBHOOK_URL), the same on every process: a worker builds n8n's links to files from its own
 * setting, and only the main serves them.
 */
export function useQueueMode(webhookUrl: string): void {
	const encryptionKey = `queue-e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
	queueEnv = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: requiredEnv('QUEUE_REDIS_PORT', RUNNER),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(DATABASE.port),
		DB_POSTGRESDB_DATABASE: DATABASE.name,
		DB_POSTGRESDB_USER: DATABASE.user,
		DB_POSTGRESDB_PASSWORD: DATABASE.password,
		N8N_ENCRYPTION_KEY: encryptionKey,
		EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'true',
		QUEUE_WORKER_LOCK_DURATION: String(LOCK.duration),
		QUEUE_WORKER_LOCK_RENEW_TIME: String(LOCK.renew),
		QUEUE_WORKER_STALLED_INTERVAL: String(LOCK.stalledInterval),
		// n8n 2.x ignores it (always 0).
		QUEUE_WORKER_MAX_STALLED_COUNT: String(MAX_STALLED_COUNT),
		WEBHOOK_URL: webhookUrl,
		...binaryDataEnv(),
	};
}

/** Runs one n8n CLI command against the same Redis and database, `extra` added to its environment. */
export async function n8nCommand(
	step: string,
	args: string[],
	extra: Record<string, string> = {},
): Promise<CommandResult> {
	return await runN8nCommand(N8N_BIN, args, {
		env: n8nEnv(
			USER_FOLDER,
			{ broker: await freePort(), http: await freePort() },
			{ ...queueEnv, ...extra },
		),
		cwd: WORK,
		logFile: logFile(WORK, step),
		timeoutMs: COMMAND_TIMEOUT_MS,
	});
}

// ---------------------------------------------------------------------------------------------
// Main and workers

export interface Instance {
	name: string;
	role: 'main' | 'worker';
	proc: N8nProcess;
	/** The HTTP port: the editor/webhooks for the main, the health server for a worker. */
	port: number;
	killedAt?: number;
}

const instances: Instance[] = [];

/** run.sh's trap kills what the driver could not stop itself (it was killed or crashed). */
function rememberPid(pid: number | undefined): void {
	if (pid) appendFileSync(PIDS_FILE, `${pid}\n`);
}

export async function startInstance(
	name: string,
	role: 'main' | 'worker',
	userFolder = USER_FOLDER,
): Promise<Instance> {
	const port = await freePort();
	const extra: Record<string, string> = { ...queueEnv };
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

export async function ready(instance: Instance): Promise<boolean> {
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

/**
 * SIGKILL to a process and its task runners; resolves once it has exited and a moment more. Until
 * the kernel has closed its sockets, Redis may still hand a newly queued job to the dead worker's
 * waiting connection: that job would sit in Bull's active list with no lock, and be failed as
 * stalled without ever running.
 */
export async function sigkill(instance: Instance): Promise<void> {
	const { child } = instance.proc;
	const children = childPids(child.pid!);
	const exited = new Promise<void>((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve();
		else child.once('exit', () => resolve());
	});
	child.kill('SIGKILL');
	instance.killedAt = Date.now();
	for (const pid of children) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
	await exited;
	await sleep(1000);
}

export async function stopInstances(): Promise<void> {
	await Promise.all(instances.map(async (instance) => await instance.proc.stop(20_000)));
}

export function saveLogs(): void {
	for (const instance of instances)
		writeFileSync(logFile(WORK, instance.name), instance.proc.output());
}

// ---------------------------------------------------------------------------------------------
// What the logs say

/** The execution ids a worker's log says it started ("Worker started execution <id> (job <n>)"). */
export function startedBy(instance: Instance): string[] {
	return parseLogLines(instance.proc.output())
		.map((line) => /^Worker started execution (\S+) \(job /.exec(line.message)?.[1])
		.filter((id): id is string => !!id);
}

export function logMessages(instance: Instance, pattern: RegExp): string[] {
	return parseLogLines(instance.proc.output())
		.map((line) => line.message)
		.filter((message) => pattern.test(message));
}

export interface LoggedTask {
	taskId: string;
	/** The API (`photoEnhancer`, `objectRemover`, `virtualStaging`, …). */
	kind: string;
	node: string;
	itemIndex: number;
}

/** The tasks a process's log says our nodes created for one execution (one line per create). */
export function createdInLog(instance: Instance, executionId: string): LoggedTask[] {
	return parseLogLines(instance.proc.output())
		.filter(
			(line) =>
				/^Ideal House .+ task \d+ created \(execution /.test(line.message) &&
				line.metadata?.executionId === executionId,
		)
		.map((line) => line.metadata as unknown as LoggedTask);
}

/**
 * Warnings and errors of all processes, for the summary; ours fail the run, except the stalled
 * jobs the worker kills cause on purpose. A warning about PostgreSQL's version fails it too.
 */
export function checkProcessLogs(): void {
	for (const instance of instances) {
		report.checkPackageLog('process logs', instance.proc.output(), {
			n8nAppDir: N8N_APP,
			label: instance.name,
			expected: /Problem with execution|stalled/i,
		});
		report.checkDatabaseVersion('process logs', instance.proc.output(), instance.name);
	}
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * Running the real n8n app from the end-to-end scripts (test/n8n-app, test/n8n-editor,
 * test/n8n-queue): free ports, an environment that isolates each instance, n8n's JSON log
 * lines, waiting for readiness, and the owner login every REST call needs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export { freePort } from '../helpers/ports.ts';

/**
 * n8n's environment: the given user folder, JSON logs on stdout, nothing phoning home, own
 * ports. `extra` adds settings (queue mode, database) after the defaults.
 */
export function n8nEnv(
	userFolder: string,
	ports: { broker: number; http: number },
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// Settings of an n8n the caller may run must not leak into this one.
		if (!/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE$)/.test(key)) env[key] = value;
	}
	return {
		...env,
		N8N_USER_FOLDER: userFolder,
		N8N_LOG_FORMAT: 'json',
		N8N_LOG_LEVEL: 'debug',
		N8N_LOG_OUTPUT: 'console',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_PORT: String(ports.broker),
		N8N_PORT: String(ports.http),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		...extra,
	};
}

export interface LogLine {
	level: string;
	message: string;
	metadata?: Record<string, unknown>;
}

export function parseLogLines(text: string): LogLine[] {
	const lines: LogLine[] = [];
	for (const line of text.split('\n')) {
		if (!line.startsWith('{')) continue;
		try {
			const parsed = JSON.parse(line) as LogLine;
			if (typeof parsed.level === 'string' && typeof parsed.message === 'string')
				lines.push(parsed);
		} catch {
			// not a log line
		}
	}
	return lines;
}

export interface CommandResult {
	code: number | null;
	stdout: string;
	stderr: string;
	lines: LogLine[];
}

/** Runs one n8n CLI command to its end; the output is also written to `logFile`. */
export async function runN8nCommand(
	n8nBin: string,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string; timeoutMs: number },
): Promise<CommandResult> {
	const child = spawn(process.execPath, [n8nBin, ...args], {
		env: options.env,
		cwd: options.cwd,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	clearTimeout(timer);
	writeFileSync(
		options.logFile,
		`$ n8n ${args.join(' ')}\n# exit ${code}\n${stdout}\n# stderr\n${stderr}`,
	);
	return { code, stdout, stderr, lines: parseLogLines(`${stdout}\n${stderr}`) };
}

/** A long-running n8n process (`start`, `worker`); its output is collected in `output()`. */
export interface N8nProcess {
	child: ChildProcess;
	output(): string;
	/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
	stop(graceMs?: number): Promise<void>;
}

export function startN8nProcess(
	n8nBin: string,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd: string },
): N8nProcess {
	const child = spawn(process.execPath, [n8nBin, ...args], {
		env: options.env,
		cwd: options.cwd,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
	return {
		child,
		output: () => output,
		async stop(graceMs = 15_000) {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
			const killTimer = setTimeout(() => child.kill('SIGKILL'), graceMs);
			await exited;
			clearTimeout(killTimer);
		},
	};
}

export async function untilReady(
	url: string,
	child: ChildProcess,
	timeoutMs: number,
): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline && child.exitCode === null) {
		try {
			if ((await fetch(url)).ok) return true;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	return false;
}

export interface RestSession {
	/** The owner's login cookie, for a browser context too. */
	cookie: string;
	email: string;
	password: string;
	rest(
		path: string,
		body?: unknown,
		method?: string,
	): Promise<{
		status: number;
		json: { data?: Record<string, unknown> } & Record<string, unknown>;
	}>;
}

/**
 * One execution with its run data, which n8n stores in the "flatted" format: read with the copy
 * of flatted that the n8n install at `n8nAppDir` uses. `Execution` is the caller's view of it.
 */
export async function readExecution<Execution extends { id: string; data?: unknown }>(
	session: RestSession,
	n8nAppDir: string,
	id: string,
): Promise<Execution> {
	const { status, json } = await session.rest(`/rest/executions/${id}`);
	if (status !== 200 || !json.data) throw new Error(`GET /rest/executions/${id}: HTTP ${status}`);
	const record = json.data as unknown as Execution;
	const flatted = createRequire(join(n8nAppDir, 'node_modules', 'n8n', 'package.json'))(
		'flatted',
	) as { parse: (text: string) => unknown };
	const data = typeof record.data === 'string' ? flatted.parse(record.data) : record.data;
	return { ...record, id: String(record.id), data };
}

/**
 * Sets up the owner account of a fresh instance (a throw-away owner of a throw-away instance)
 * and returns a logged-in REST session. Throws with n8n's answer when that fails.
 */
export async function setUpOwner(base: string): Promise<RestSession> {
	const email = 'e2e@example.com';
	const password = `E2e-${randomBytes(12).toString('hex')}`;
	// n8n 1.x answers its readiness check before it has mounted the REST API: 404 until then. On
	// a busy machine a check of the database connection can time out: 503 "Database is not
	// ready!" until the next one passes.
	const deadline = Date.now() + 60_000;
	let setup: Response;
	for (;;) {
		setup = await fetch(`${base}/rest/owner/setup`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email, firstName: 'End', lastName: 'ToEnd', password }),
		});
		if (![404, 503].includes(setup.status) || Date.now() > deadline) break;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	const cookie = (setup.headers.get('set-cookie') ?? '').split(';')[0];
	if (!setup.ok || !cookie.includes('=')) {
		throw new Error(
			`owner setup failed: HTTP ${setup.status}: ${(await setup.text()).slice(0, 300)}`,
		);
	}
	return {
		cookie,
		email,
		password,
		async rest(path, body, method) {
			const response = await fetch(`${base}${path}`, {
				method: method ?? (body === undefined ? 'GET' : 'POST'),
				headers: { 'content-type': 'application/json', cookie, 'browser-id': 'e2e' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			return {
				status: response.status,
				json: (await response.json().catch(() => ({}))) as {
					data?: Record<string, unknown>;
				},
			};
		},
	};
}

/** The log file of one step inside a work folder. */
export function logFile(work: string, step: string): string {
	return join(work, 'logs', `${step}.log`);
}

/**
 * Activates (n8n 2.x: publishes) a stored workflow, so that its triggers and production webhooks
 * are registered. n8n 2.x has `POST /rest/workflows/:id/activate`; n8n 1.x activates with a
 * `PATCH` of `active: true`. Returns whether n8n reports the workflow active, and its answer.
 */
export async function activateWorkflow(
	session: RestSession,
	id: string,
): Promise<{ active: boolean; detail: string }> {
	const stored = await session.rest(`/rest/workflows/${id}`);
	const versionId = stored.json.data?.versionId;
	let answer = await session.rest(`/rest/workflows/${id}/activate`, { versionId });
	if (answer.status === 404) {
		answer = await session.rest(`/rest/workflows/${id}`, { active: true, versionId }, 'PATCH');
	}
	const data = answer.json.data ?? {};
	return {
		active:
			answer.status === 200 && (data.active === true || typeof data.activeVersionId === 'string'),
		detail: `HTTP ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`,
	};
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * What every part of the n8n-app driver (e2e.ts) shares: the settings run.sh hands it, the local
 * service's setup, the report every check goes to, and n8n's CLI in this run's environment.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { RunningService } from '../../service/server.ts';
import { type CommandResult, type N8nProcess, startN8nProcess } from './n8n-process.ts';
import { n8nCli, n8nOnFreePorts } from './n8n-setup.ts';
import { localCredential, n8nVersion, PACKAGE, Report, runFolders } from './report.ts';

// ---------------------------------------------------------------------------------------------
// Settings

export const RUNNER = 'test/n8n-app/run.sh';
export const { REPO, WORK, USER_FOLDER, N8N_APP, N8N_BIN } = runFolders('E2E', RUNNER);
export const NODE_TYPES = [
	`${PACKAGE}.photoEnhancer`,
	`${PACKAGE}.objectRemover`,
	`${PACKAGE}.idealHouse`,
];
/** n8n adds a tool variant of every node that is `usableAsTool`, for the AI Agent. */
export const TOOL_TYPES = NODE_TYPES.map((type) => `${type}Tool`);
export const CREDENTIAL = localCredential('IdealHouseLocal1');
export const API_KEY = 'n8n-e2e-key';
export const START_CREDITS = 1000;
export const SERVICE_OPTIONS = {
	taskDurationMs: 300,
	workers: 4,
	seed: 20261122,
	accounts: { [API_KEY]: START_CREDITS },
};
const COMMAND_TIMEOUT_MS = 180_000;

// ---------------------------------------------------------------------------------------------
// Checks and the summary

export const report = new Report();
export const check = report.check.bind(report);
export const equal = report.equal.bind(report);
export const timed = report.timed.bind(report);
/** The summary's item lines, in the order the checks met the items. */
export const taskLines: string[] = [];

/** A task as the service records it (`/__admin/stats`). */
export interface ServiceTask {
	id: string;
	apiKey: string;
	kind: string;
	status: string;
	cost: number;
	refunded: boolean;
	output: { width: number; height: number } | null;
}

/** Shared by the checks of all workflows: what the nodes emitted, and the service's record. */
export interface Context {
	base: string;
	stats?: { tasks: ServiceTask[] };
	/** Every task id a node output, with the node type that made it. */
	emitted: Map<string, { kind: string; node: string; status: string; credits: unknown }>;
	/** Checks that need the service's final record, run once `stats` is read. */
	later: Array<() => Promise<void>>;
}

/** A sample image of the service, as the workflows reference it once imported. */
/** The tasks the service created after the first `before`, with the context's stats brought up to date. */
export function tasksSince(ctx: Context, service: RunningService, before: number) {
	ctx.stats = service.stats() as unknown as Context['stats'];
	return service.stats().tasks.slice(before);
}

export function sample(ctx: Context, name: string): string {
	return `${ctx.base}/samples/${name}`;
}

/** Runs the checks queued until the service's record was read, each once. */
export async function runLaterChecks(ctx: Context): Promise<void> {
	for (const later of ctx.later.splice(0)) await later();
}

// ---------------------------------------------------------------------------------------------
// n8n commands and processes

/** Empty until `prepareN8n` has picked the ports. */
let env: NodeJS.ProcessEnv = {};

/** The log folder, and n8n's environment on free ports (its task broker's, its editor's). */
export async function prepareN8n(): Promise<void> {
	mkdirSync(join(WORK, 'logs'), { recursive: true });
	env = (await n8nOnFreePorts(USER_FOLDER)).env;
}

/** The port `n8n start` serves the editor and REST API on. */
export function editorPort(): number {
	return Number(env.N8N_PORT);
}

/**
 * Runs one n8n CLI command, `extra` added to its environment; its output is kept as
 * E2E_WORK/logs/<step>.log.
 */
export async function n8n(
	step: string,
	args: string[],
	extra: Record<string, string> = {},
): Promise<CommandResult> {
	const result = await n8nCli(N8N_BIN, WORK, { ...env, ...extra }, COMMAND_TIMEOUT_MS)(step, args);
	checkLoaderAndLogs(step, result);
	return result;
}

/**
 * Starts a long-running n8n process (`start`), `extra` added to its environment; the caller stops
 * it and checks its log.
 */
export function startN8n(args: string[], extra: Record<string, string> = {}): N8nProcess {
	return startN8nProcess(N8N_BIN, args, { env: { ...env, ...extra }, cwd: WORK });
}

/** The n8n line under test, from the installed n8n's version: `1.123`, `2.41`. */
export function n8nLine(): string {
	return n8nVersion(N8N_APP).split('.').slice(0, 2).join('.');
}

/**
 * Every n8n command loads the community packages first: each must load ours, without a complaint.
 * `provoked`: complaints the step caused on purpose (listed in the summary, not failures).
 */
export function checkLoaderAndLogs(step: string, result: CommandResult, provoked?: RegExp): void {
	report.checkPackageLog(`log ${step}`, `${result.stdout}\n${result.stderr}`, {
		n8nAppDir: N8N_APP,
		provoked,
	});
}

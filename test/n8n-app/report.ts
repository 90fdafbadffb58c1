/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * What the real-n8n drivers (test/n8n-app, test/n8n-editor, test/n8n-queue) share around their
 * checks: the settings run.sh hands them, the list of checks and timed steps, the check of n8n's
 * log for our package, and the summary they print. One exit code: 1 when any check failed.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

import { type LogLine, parseLogLines } from './n8n-process.ts';

export const PACKAGE = 'n8n-nodes-ideal-house';
/** The nodes package.json lists (Photo Enhancer, Object Remover, Ideal House AI): n8n's loader counts them. */
export const PACKAGE_NODES = 3;
/** The credential it lists: the API key. */
export const PACKAGE_CREDENTIALS = 1;
/**
 * The base URL the example and test workflows use for the local service's sample images
 * (`npm run service` listens there); each driver swaps in its own service's address.
 */
export const SAMPLE_BASE_URL = 'http://127.0.0.1:8787';

/** The "Ideal House API" credential a driver imports (its data points at the driver's service). */
export function localCredential(id: string) {
	return { id, name: 'Ideal House (local service)', type: 'idealHouseApi' };
}

/** A log line about this package, its nodes or its credential. */
const OURS = /ideal.?house|photoEnhancer|objectRemover|idealHouseApi/i;

/**
 * n8n 2.x's warnings about the database's version at start-up: older than it supports, only
 * compatibility support (16), or not checked at all.
 */
const DATABASE_VERSION_WARNING =
	/Postgres \d+ is not supported|Postgres \d+ is outside the supported range|Could not check database version/i;

/** A setting run.sh passes in the environment; the driver cannot run without it. */
export function requiredEnv(name: string, runner: string): string {
	const value = process.env[name];
	if (!value) throw new Error(`${name} must be set (run this through ${runner})`);
	return value;
}

/** What every driver gets from run.sh: the repository, its work folder, n8n's user folder and install. */
export function runSettings(prefix: string, runner: string) {
	const n8nApp = requiredEnv(`${prefix}_N8N_APP`, runner);
	return {
		repo: requiredEnv(`${prefix}_REPO`, runner),
		work: requiredEnv(`${prefix}_WORK`, runner),
		userFolder: requiredEnv(`${prefix}_USER_FOLDER`, runner),
		n8nApp,
		n8nBin: join(n8nApp, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

/** The same settings under the names the drivers give their constants (`REPO`, `WORK`, ...). */
export function runFolders(prefix: string, runner: string) {
	const { repo, work, userFolder, n8nApp, n8nBin } = runSettings(prefix, runner);
	return { REPO: repo, WORK: work, USER_FOLDER: userFolder, N8N_APP: n8nApp, N8N_BIN: n8nBin };
}

export async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `probe` gives a value, or fails after `timeoutMs`. */
export async function until<T>(
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

export interface BinaryMeta {
	mimeType: string;
	fileExtension?: string;
	fileName?: string;
	id?: string;
	bytes?: number;
	fileSize?: string;
	/** n8n's default binary mode on 1.x keeps the bytes inline, as base64. */
	data?: string;
}

/** A task item as the nodes output it, read from n8n's run data. */
export interface Item {
	json: Record<string, unknown> & {
		id?: unknown;
		status?: unknown;
		input?: Record<string, unknown>;
		output?: { resultUrl?: string; width?: number; height?: number } | null;
		creditsCharged?: unknown;
	};
	binary?: Record<string, BinaryMeta>;
	pairedItem?: unknown;
}

export function n8nVersion(appDir: string): string {
	const file = join(appDir, 'node_modules', 'n8n', 'package.json');
	return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

interface Check {
	group: string;
	name: string;
	ok: boolean;
	detail?: string;
}

export interface SummaryOptions {
	title: string;
	/** Lines under the title: versions, the work folder. */
	header: string[];
	/** The shell's steps, as run.sh records them (`name=seconds;…`). */
	shellSteps?: string;
	/** Seconds since the epoch when run.sh started: adds a total line. */
	startedAt?: number;
	/** Further sections before the checks, in order; empty ones are left out. */
	sections?: Array<[string, string[]]>;
	/** Lines after the checks. */
	footer?: string[];
}

export class Report {
	private readonly checks: Check[] = [];
	private readonly steps: Array<{ name: string; seconds: number; note?: string }> = [];
	/** Warnings and errors of n8n that are not about this package, counted, for information. */
	readonly otherLogLines = new Map<string, number>();
	/** Complaints a step caused on purpose, counted (not failures). */
	readonly provokedLogLines = new Map<string, number>();

	check(group: string, name: string, ok: boolean, detail?: string): boolean {
		this.checks.push({
			group,
			name,
			ok,
			detail: ok || detail === undefined ? undefined : withoutLinkTokens(detail),
		});
		return ok;
	}

	equal(group: string, name: string, actual: unknown, expected: unknown): boolean {
		const a = JSON.stringify(actual);
		const e = JSON.stringify(expected);
		return this.check(group, name, a === e, `expected ${e}\n got ${a}`);
	}

	groupFailed(group: string): boolean {
		return this.checks.some((entry) => entry.group === group && !entry.ok);
	}

	async timed<T>(name: string, run: () => Promise<T>, note?: string): Promise<T> {
		const start = Date.now();
		try {
			return await run();
		} finally {
			this.steps.push({ name, seconds: (Date.now() - start) / 1000, note });
		}
	}

	/**
	 * n8n's log of one process or command: it loaded our package with its credential and all
	 * its nodes, reported no failed load, and wrote no warning or error about the package. Lines that
	 * match `provoked` were caused on purpose; lines that match `expected` are about our package
	 * but are what the test sets out to cause (a killed worker's stalled job); neither fails.
	 */
	checkPackageLog(
		group: string,
		text: string,
		options: { n8nAppDir: string; label?: string; provoked?: RegExp; expected?: RegExp },
	): void {
		const prefix = options.label ? `${options.label}: ` : '';
		const lines = parseLogLines(text);
		const loaded = lines.find(
			(line) => line.message === `Loaded all credentials and nodes from ${PACKAGE}`,
		);
		this.check(
			group,
			`${prefix}loader: "Loaded all credentials and nodes" with ${PACKAGE_CREDENTIALS} credential${PACKAGE_CREDENTIALS === 1 ? '' : 's'} and ${PACKAGE_NODES} nodes`,
			loaded?.metadata?.credentials === PACKAGE_CREDENTIALS &&
				loaded?.metadata?.nodes === PACKAGE_NODES,
			loaded ? `metadata ${JSON.stringify(loaded.metadata)}` : 'no such log line',
		);
		const failedLoad = text
			.split('\n')
			.filter((line) => /Failed to load package|Failed to load (node|credential)/i.test(line));
		this.check(
			group,
			`${prefix}no "Failed to load package" line`,
			failedLoad.length === 0,
			failedLoad.join('\n').slice(0, 1000),
		);
		const ours: string[] = [];
		for (const line of lines) {
			if (line.level !== 'warn' && line.level !== 'error') continue;
			const key = `${prefix}${line.level}: ${line.message.split('\n')[0].slice(0, 140)}`;
			if (options.provoked?.test(line.message)) {
				count(this.provokedLogLines, key);
				continue;
			}
			if (aboutUs(line, options.n8nAppDir) && !options.expected?.test(line.message)) {
				ours.push(`${line.level}: ${describeLine(line, options.n8nAppDir).slice(0, 400)}`);
			} else {
				count(this.otherLogLines, key);
			}
		}
		this.check(
			group,
			`${prefix}no warning or error line about our package, nodes or credential`,
			ours.length === 0,
			ours.join('\n'),
		);
	}

	/** n8n's log of a process on PostgreSQL: no warning that the tests run on a version n8n does not support. */
	checkDatabaseVersion(group: string, text: string, label?: string): void {
		const warnings = text.split('\n').filter((line) => DATABASE_VERSION_WARNING.test(line));
		this.check(
			group,
			`${label ? `${label}: ` : ''}no "Postgres … is not supported" line (nor another warning about its version)`,
			warnings.length === 0,
			warnings.join('\n').slice(0, 1000),
		);
	}

	/** Prints the summary; returns the exit code (1 when a check failed or none ran). */
	print(options: SummaryOptions): number {
		const failed = this.checks.filter((entry) => !entry.ok);
		const rule = '-'.repeat(100);
		console.log(`\n${rule}\n${options.title}`);
		for (const line of options.header) console.log(`  ${line}`);

		console.log('\nSteps (seconds):');
		const row = (name: string, seconds: number, note?: string) =>
			console.log(
				`  ${name.padEnd(52)} ${seconds.toFixed(1).padStart(6)}${note ? `  ${note}` : ''}`,
			);
		for (const entry of (options.shellSteps ?? '').split(';').filter(Boolean)) {
			const [name, seconds] = entry.split('=');
			row(name, Number(seconds));
		}
		for (const step of this.steps) row(step.name, step.seconds, step.note);
		if (options.startedAt)
			row('total (run.sh start to here)', Date.now() / 1000 - options.startedAt);

		const sections = [...(options.sections ?? [])];
		sections.push([
			'Complaints the test provoked on purpose (expected):',
			counted(this.provokedLogLines),
		]);
		sections.push([
			'n8n warnings/errors not about this package (for information):',
			counted(this.otherLogLines),
		]);
		for (const [title, lines] of sections) {
			if (!lines.length) continue;
			console.log(`\n${title}`);
			for (const line of lines) console.log(`  ${withoutLinkTokens(line)}`);
		}

		console.log('\nChecks:');
		for (const group of [...new Set(this.checks.map((entry) => entry.group))]) {
			const inGroup = this.checks.filter((entry) => entry.group === group);
			const bad = inGroup.filter((entry) => !entry.ok);
			console.log(
				`  ${bad.length ? 'FAIL' : 'ok  '} ${group}: ${inGroup.length - bad.length}/${inGroup.length}`,
			);
			for (const entry of bad) {
				const detail = String(entry.detail ?? '')
					.split('\n')
					.join('\n           ');
				console.log(`         ✗ ${entry.name}\n           ${detail}`);
			}
		}
		for (const line of options.footer ?? []) console.log(`  ${line}`);
		const passed = this.checks.length - failed.length;
		console.log(
			`\n${failed.length ? 'FAILED' : 'PASSED'}: ${passed} of ${this.checks.length} checks passed.\n${rule}`,
		);
		return failed.length || this.checks.length === 0 ? 1 : 0;
	}
}

function count(map: Map<string, number>, key: string): void {
	map.set(key, (map.get(key) ?? 0) + 1);
}

function counted(map: Map<string, number>): string[] {
	return [...map].map(([message, times]) => `${times}× ${message}`);
}

/** The line's text, with n8n's install folder (whose cache path names this package) as `<n8n>`. */
function describeLine(line: LogLine, n8nAppDir: string): string {
	let text = `${line.message} ${JSON.stringify(line.metadata ?? {})}`;
	for (const dir of new Set([
		n8nAppDir,
		existsSync(n8nAppDir) ? realpathSync(n8nAppDir) : n8nAppDir,
	])) {
		text = text.split(dir).join('<n8n>');
	}
	return text;
}

function aboutUs(line: LogLine, n8nAppDir: string): boolean {
	return OURS.test(describeLine(line, n8nAppDir));
}

/**
 * The text with the token of every signed link (n8n's `…/binary-data/signed?token=…`) left out:
 * whoever holds the token can open the file, so no summary line or check detail carries it.
 */
export function withoutLinkTokens(text: string): string {
	return text.replace(/([?&]token=)[^&\s"'\\]+/g, '$1…');
}

/** Runs a driver's main and exits with its code; a crash prints its stack and exits 1. */
export function runMain(label: string, main: () => Promise<number>, onCrash?: () => void): void {
	main().then(
		(code) => process.exit(code),
		(error: Error) => {
			console.error(`${label} crashed: ${error.stack ?? String(error)}`);
			onCrash?.();
			process.exit(1);
		},
	);
}

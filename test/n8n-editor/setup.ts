/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * Setting up the editor check, step by step: the local service, n8n's CLI imports, `n8n start`
 * with its owner, the preset list n8n serves, and headless Chromium logged in as the owner. Also
 * stopping all of it again, on every way out of the run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type BrowserContext, chromium, type Page, selectors } from 'playwright-core';

import { type RunningService, startService } from '../../service/server.ts';
import { importCredential, importWorkflows } from '../n8n-app/imports.ts';
import { logFile, type N8nProcess, type RestSession, setUpOwner } from '../n8n-app/n8n-process.ts';
import { n8nCli, startN8nApp } from '../n8n-app/n8n-setup.ts';
import { browserErrors, check, report, timed } from './record.ts';
import {
	API_KEY,
	CHROMIUM,
	CREDENTIAL,
	N8N_BIN,
	PHOTO_ENHANCER,
	REPO,
	SERVICE_OPTIONS,
	UI_TIMEOUT_MS,
	WATCHDOG_MS,
	WORK,
} from './settings.ts';

const GROUP = 'setup';

/** What the run has started so far: whatever exists is stopped at the end, or on a signal. */
export interface Started {
	service?: RunningService;
	app?: N8nProcess;
	context?: BrowserContext;
}

/** What the groups of UI checks work with once the editor is open. */
export interface EditorRun {
	page: Page;
	/** n8n's address. */
	base: string;
	session: RestSession;
	service: RunningService;
	workflowId: string;
	presetNames: string[];
}

export async function stopAll(started: Started): Promise<void> {
	await started.context?.close().catch(() => undefined);
	started.context = undefined;
	await started.app?.stop();
	if (started.app) writeFileSync(logFile(WORK, 'start'), started.app.output());
	await started.service?.close();
	started.service = undefined;
}

/**
 * Ctrl+C, SIGTERM or a run past the watchdog's limit stop n8n, the service and the browser before
 * the process exits, so that none of them outlives the check. Returns the watchdog's timer.
 */
export function stopOnSignalOrHang(started: Started): NodeJS.Timeout {
	const onSignal = (signal: NodeJS.Signals) => {
		console.error(`\n${signal}: stopping n8n, the service and the browser`);
		void stopAll(started).finally(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	return setTimeout(() => {
		console.error(`The editor check took over ${WATCHDOG_MS / 60_000} min: stopping.`);
		void stopAll(started).finally(() => process.exit(1));
	}, WATCHDOG_MS);
}

export async function startLocalService(started: Started): Promise<RunningService> {
	started.service = await timed(
		'local service',
		async () => await startService({ port: 0, host: '127.0.0.1', ...SERVICE_OPTIONS }),
	);
	console.log(
		`Local service on ${started.service.baseUrl} (tasks ${SERVICE_OPTIONS.taskDurationMs} ms)`,
	);
	return started.service;
}

/**
 * The credential (the service's key and address) and workflow.json through n8n's CLI. Returns
 * the workflow's id, or undefined when an import failed.
 */
export async function importCredentialAndWorkflow(
	env: NodeJS.ProcessEnv,
	service: RunningService,
): Promise<string | undefined> {
	const imports = {
		report,
		group: GROUP,
		work: WORK,
		n8n: n8nCli(N8N_BIN, WORK, env, 180_000),
	};
	if (!(await importCredential(imports, CREDENTIAL, { apiKey: API_KEY, baseUrl: service.baseUrl })))
		return undefined;
	const workflowText = readFileSync(join(REPO, 'test', 'n8n-editor', 'workflow.json'), 'utf8');
	const workflowId = (JSON.parse(workflowText) as { id: string }).id;
	if (
		!(await importWorkflows(
			imports,
			[{ file: 'workflow.json', text: workflowText }],
			service.baseUrl,
		))
	)
		return undefined;
	return workflowId;
}

/** `n8n start`, until its readiness check answers; false when it never did. */
export async function startN8n(started: Started, env: NodeJS.ProcessEnv): Promise<boolean> {
	const { app, ready: untilAppReady } = startN8nApp(N8N_BIN, WORK, env);
	started.app = app;
	const ready = await timed('n8n start (until ready)', async () => await untilAppReady(120_000));
	return check(GROUP, 'n8n start: the editor is ready', ready, app.output().slice(-2000));
}

/** The owner account of the fresh n8n, logged in; undefined when n8n refused it. */
export async function setUpOwnerAccount(base: string): Promise<RestSession | undefined> {
	let session: RestSession;
	try {
		session = await timed('owner set-up (REST)', async () => await setUpOwner(base));
	} catch (error) {
		check(GROUP, 'owner account set up', false, (error as Error).message);
		return undefined;
	}
	check(GROUP, 'owner account set up, logged in', true);
	return session;
}

/** The preset list as n8n serves the node type to the editor: what the panel's list must hold. */
export async function servedPresetNames(session: RestSession): Promise<string[]> {
	const nodeTypes = (await session.rest('/types/nodes.json')).json as unknown as Array<{
		name: string;
		properties: Array<{ name: string; options?: Array<{ name: string }> }>;
	}>;
	const presetNames =
		nodeTypes
			.find((type) => type.name === PHOTO_ENHANCER.type)
			?.properties.find((property) => property.name === 'presetId')
			?.options?.map((option) => option.name) ?? [];
	check(
		GROUP,
		'n8n serves the Photo Enhancer with its preset list',
		presetNames.length > 100,
		`${presetNames.length} presets`,
	);
	return presetNames;
}

/**
 * Headless Chromium with the owner's login cookie, on a fresh profile and with nothing of its own
 * to fetch. The page's errors and console errors are counted for the summary.
 */
export async function openEditorPage(
	started: Started,
	session: RestSession,
	base: string,
): Promise<Page> {
	// n8n's editor marks its elements with data-test-id.
	selectors.setTestIdAttribute('data-test-id');
	const context = await timed(
		'browser launch',
		async () =>
			await chromium.launchPersistentContext(join(WORK, 'chromium-profile'), {
				executablePath: CHROMIUM,
				headless: true,
				args: [
					'--no-sandbox',
					'--disable-gpu',
					'--disable-quic',
					'--no-first-run',
					'--disable-background-networking',
					'--disable-component-update',
					'--disable-sync',
				],
				viewport: { width: 1600, height: 1000 },
			}),
	);
	started.context = context;
	const [cookieName, ...cookieValue] = session.cookie.split('=');
	await context.addCookies([{ name: cookieName, value: cookieValue.join('='), url: base }]);
	const page = context.pages()[0] ?? (await context.newPage());
	page.setDefaultTimeout(UI_TIMEOUT_MS);
	const count = (key: string) => browserErrors.set(key, (browserErrors.get(key) ?? 0) + 1);
	page.on('pageerror', (error) => {
		count(`page error: ${error.message.split('\n')[0].slice(0, 140)}`);
	});
	page.on('console', (message) => {
		if (message.type() !== 'error') return;
		count(`console: ${message.text().split('\n')[0].slice(0, 140)}`);
	});
	return page;
}

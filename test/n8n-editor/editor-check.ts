/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The editor check in a real browser (`npm run test:n8n-editor`). run.sh has already installed
 * n8n, built and packed this package, and installed the tarball into N8N_USER_FOLDER. This script:
 *
 *  1. starts the local service (short tasks, fixed seed, its own key) on a free port;
 *  2. `n8n import:credentials` (an "Ideal House API" credential for the service) and
 *     `n8n import:workflow` (test/n8n-editor/workflow.json: a Manual Trigger feeding our three
 *     nodes);
 *  3. `n8n start`, sets up the owner over REST and hands the login cookie to headless Chromium;
 *  4. drives the editor like a user: the Photo Enhancer and Object Remover panels (fields shown
 *     and hidden, the searchable preset list, the Options collection), "Execute step" with the
 *     output pane, saving (checked over REST), the Ideal House AI panel with a photo from a file
 *     (Image Source, the one credential) and its room types loaded from the service,
 *     and the credential modal's connection test with the right and a wrong key;
 *  5. saves full-page screenshots of the panels into docs/ (when their checks passed) and of
 *     every step into the work folder.
 *
 * Prints one summary; exits 1 if any check failed. Stops n8n, the service and the browser in
 * every case.
 *
 * Steps 1–3 are in setup.ts, the panels in panels.ts and panel-steps.ts, the credential modal in
 * credential.ts; editor.ts finds things in the editor, record.ts keeps what the summary prints.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { RunningService } from '../../service/server.ts';
import { n8nOnFreePorts } from '../n8n-app/n8n-setup.ts';
import { n8nVersion, PACKAGE, runMain } from '../n8n-app/report.ts';
import { checkCredential } from './credential.ts';
import { checkIdealHouse } from './ideal-house-panel.ts';
import { checkPhotoFromFile } from './photo-file-panel.ts';
import { checkCanvas, checkObjectRemover, checkPhotoEnhancer } from './panels.ts';
import { browserErrors, check, docsWritten, notes, report, section, timed } from './record.ts';
import { DOCS, GROUPS, N8N_APP, SHOTS, USER_FOLDER, WORK } from './settings.ts';
import {
	type EditorRun,
	importCredentialAndWorkflow,
	openEditorPage,
	servedPresetNames,
	setUpOwnerAccount,
	startLocalService,
	startN8n,
	type Started,
	stopAll,
	stopOnSignalOrHang,
} from './setup.ts';

async function main(): Promise<number> {
	for (const folder of [join(WORK, 'logs'), SHOTS, DOCS]) mkdirSync(folder, { recursive: true });
	const { env, base } = await n8nOnFreePorts(USER_FOLDER);
	const started: Started = {};
	const watchdog = stopOnSignalOrHang(started);

	try {
		const service = await startLocalService(started);
		const workflowId = await importCredentialAndWorkflow(env, service);
		if (workflowId === undefined) return 1;
		if (!(await startN8n(started, env))) return 1;
		const session = await setUpOwnerAccount(base);
		if (!session) return 1;
		const presetNames = await servedPresetNames(session);
		const page = await openEditorPage(started, session, base);

		await runChecks({ page, base, session, service, workflowId, presetNames });
		noteServiceTasks(service);
	} catch (error) {
		check('run', 'ran to the end', false, (error as Error).stack);
	} finally {
		clearTimeout(watchdog);
		await timed('stop browser, n8n, service', async () => await stopAll(started));
		if (started.app) checkLog(started.app.output());
	}
	return summary();
}

/** The groups of UI checks in one tab; a group that throws is failed, and the next one runs. */
async function runChecks(run: EditorRun): Promise<void> {
	await section(run.page, GROUPS.canvas, async () => await checkCanvas(run));
	await section(run.page, GROUPS.photoEnhancer, async () => await checkPhotoEnhancer(run));
	await section(run.page, GROUPS.objectRemover, async () => await checkObjectRemover(run));
	await section(run.page, GROUPS.photoFile, async () => await checkPhotoFromFile(run));
	await section(run.page, GROUPS.idealHouse, async () => await checkIdealHouse(run));
	await section(run.page, GROUPS.credential, async () => await checkCredential(run));
}

/** What the service saw of the whole run, for the summary's notes. */
function noteServiceTasks(service: RunningService): void {
	const stats = service.stats();
	notes.push(
		`service: ${stats.tasks.length} task(s) ${stats.tasks.map((task) => `${task.kind} ${task.id} ${task.status}`).join(', ')}; answers by code ${JSON.stringify(stats.requests.byCode)}`,
	);
}

/** n8n's own log: no warning or error line about this package, its nodes or its credential. */
function checkLog(output: string): void {
	report.checkPackageLog('n8n log (n8n start)', output, { n8nAppDir: N8N_APP });
}

function summary(): number {
	return report.print({
		title: 'n8n editor check summary',
		header: [
			`n8n ${n8nVersion(N8N_APP)} on Node ${process.version}; ${process.env.EDITOR_BROWSER ?? 'Chromium'}; package ${process.env.EDITOR_TARBALL ?? PACKAGE}`,
			`work folder: ${WORK}`,
		],
		shellSteps: process.env.EDITOR_SHELL_STEPS,
		startedAt: Number(process.env.EDITOR_T0) || undefined,
		sections: [
			['Notes:', notes],
			[
				'Browser console errors (for information):',
				[...browserErrors].map(([message, times]) => `${times}× ${message}`),
			],
		],
		footer: [
			'',
			`screenshots of every step: ${SHOTS} (kept with the work folder on failure or KEEP_WORK=1)`,
			`docs/ screenshots written: ${docsWritten.length ? docsWritten.join(', ') : 'none (a panel check failed)'}`,
		],
	});
}

runMain('n8n editor check', main);

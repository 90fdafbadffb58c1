/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * What both node panels go through: the Options collection, "Execute step" with the output pane,
 * the full-page screenshot kept for docs/, and saving, read back over REST.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { creditsOf } from '../helpers/prices.ts';
import type { RunningService, ServiceStats } from '../../service/server.ts';
import type { RestSession } from '../n8n-app/n8n-process.ts';
import {
	addOption,
	closeNodePanel,
	firstOutputRow,
	ndv,
	offeredOptions,
	parameter,
	until,
} from './editor.ts';
import { check, docsWritten, equal, groupFailed, notes, screenshot } from './record.ts';
import { DOCS, EXECUTION_TIMEOUT_MS, OPTIONS_OFFERED } from './settings.ts';

type NodeKind = 'photoEnhancer' | 'objectRemover';
type Tasks = ServiceStats['tasks'];

/**
 * The Options collection: what Add Option offers, then Download Result switched on, which brings
 * Put Output File in Field (default "data").
 */
export async function checkOptionsCollection(page: Page, group: string): Promise<void> {
	equal(
		group,
		'Options → Add Option offers the options by their display names',
		await offeredOptions(page),
		OPTIONS_OFFERED,
	);
	await addOption(page, 'Download Result');
	const download = parameter(page, 'downloadResult').getByRole('switch');
	await download.waitFor({ state: 'attached' });
	await parameter(page, 'downloadResult').locator('.el-switch').click();
	const on = await until(
		async () => await download.getAttribute('aria-checked'),
		(value) => value === 'true',
		5_000,
	);
	equal(group, 'Options → Download Result added and switched on', on, 'true');
	const offered = await offeredOptions(page);
	check(
		group,
		'with Download Result on, Add Option also offers Put Output File in Field',
		offered.includes('Put Output File in Field') && !offered.includes('Download Result'),
		offered.join(', '),
	);
	await addOption(page, 'Put Output File in Field');
	const field = parameter(page, 'binaryPropertyName').locator('input, textarea').first();
	await field.waitFor({ state: 'visible' });
	equal(
		group,
		'Put Output File in Field shows its default "data"',
		await field.inputValue(),
		'data',
	);
}

/**
 * "Execute step" in the open panel (with Download Result on), then the output pane: the run
 * succeeded, one item, the downloaded file, the task's id (the one the service created) and
 * status Success. Returns the first item's cells, none when the run did not succeed.
 */
export async function executeStep(
	page: Page,
	group: string,
	service: RunningService,
	kind: NodeKind,
): Promise<Record<string, string>> {
	if (!(await runStep(page, group, kind))) return {};
	const output = ndv(page).getByTestId('output-panel');
	checkItemCount(
		group,
		await output
			.getByTestId('ndv-items-count')
			.innerText()
			.catch(() => ''),
	);
	const tasks = service.stats().tasks.filter((task) => task.kind === kind);
	await checkDownloadedFile(output, group, tasks);
	await output.getByTestId('radio-button-table').click();
	const row = await firstOutputRow(page);
	checkTaskItem(group, kind, tasks, row);
	return row;
}

/** Clicks the run button and waits for the output pane's verdict; true when the run succeeded. */
async function runStep(page: Page, group: string, kind: NodeKind): Promise<boolean> {
	const button = ndv(page).getByTestId('node-execute-button');
	equal(
		group,
		'the panel\'s run button reads "Execute step"',
		(await button.innerText()).trim(),
		'Execute step',
	);
	const started = Date.now();
	await button.click();
	const output = ndv(page).getByTestId('output-panel');
	const outcome = await Promise.race([
		output
			.getByTestId('node-run-status-success')
			.waitFor({ state: 'visible', timeout: EXECUTION_TIMEOUT_MS })
			.then(() => 'success'),
		output
			.getByTestId('node-run-status-error')
			.waitFor({ state: 'visible', timeout: EXECUTION_TIMEOUT_MS })
			.then(() => 'error'),
	]).catch(() => 'timeout');
	const seconds = (Date.now() - started) / 1000;
	notes.push(`${kind}: Execute step → ${outcome} after ${seconds.toFixed(1)} s`);
	return check(
		group,
		'Execute step: the output pane shows a successful run',
		outcome === 'success',
		`${outcome} after ${seconds.toFixed(1)} s: ${(await output.innerText().catch(() => '')).slice(0, 500)}`,
	);
}

function checkItemCount(group: string, shown: string): void {
	const count = shown.trim();
	check(group, 'the output pane counts 1 item', /^1 item\b/.test(count), `"${count}"`);
}

/** With Download Result the pane opens on the file. */
async function checkDownloadedFile(output: Locator, group: string, tasks: Tasks): Promise<void> {
	check(
		group,
		'the output pane offers the Binary view',
		await output.getByTestId('radio-button-binary').isVisible(),
		'no Binary view button',
	);
	const binaryText = await output.getByTestId('ndv-data-container').innerText();
	check(
		group,
		'the Binary view shows the downloaded result: <task id>.png, image/png',
		!!tasks[0] && binaryText.includes(`${tasks[0].id}.png`) && binaryText.includes('image/png'),
		binaryText.slice(0, 300),
	);
}

/** The table's first item against the one task the service created for this run. */
function checkTaskItem(
	group: string,
	kind: NodeKind,
	tasks: Tasks,
	row: Record<string, string>,
): void {
	equal(group, `the service created exactly one ${kind} task`, tasks.length, 1);
	check(
		group,
		'the item shows the id of the task the service created (all 19+ digits, as text)',
		!!tasks[0] && row.id === tasks[0].id,
		`shown "${row.id}", service ${JSON.stringify(tasks.map((task) => task.id))}`,
	);
	equal(group, 'the item shows status Success', row.status, 'Success');
	check(
		group,
		'the item shows the result URL',
		!!tasks[0] && (row.output ?? '').includes(`/results/${tasks[0].id}`),
		`output cell "${row.output}"`,
	);
	equal(group, 'the item shows creditsCharged', row.creditsCharged, String(creditsOf(kind)));
}

/** A full-page screenshot of the panel; it goes into docs/ only while the group has no failure. */
export async function screenshotForDocs(
	page: Page,
	group: string,
	name: string,
	docsFile: string,
): Promise<void> {
	const shot = await screenshot(page, name);
	if (!groupFailed(group)) {
		copyFileSync(shot, join(DOCS, docsFile));
		docsWritten.push(`docs/${docsFile}`);
	}
}

/** Saves with Ctrl+S (n8n also saves by itself), then reads the workflow back over REST. */
export async function savedNode(
	page: Page,
	session: RestSession,
	workflowId: string,
	nodeName: string,
	saved: (parameters: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
	await closeNodePanel(page);
	await page.getByTestId('canvas-wrapper').click({ position: { x: 40, y: 300 } });
	await page.keyboard.press('ControlOrMeta+s');
	const read = async () => {
		const workflow = (await session.rest(`/rest/workflows/${workflowId}`)).json.data as
			| { nodes?: Array<{ name: string; parameters: Record<string, unknown> }> }
			| undefined;
		return workflow?.nodes?.find((node) => node.name === nodeName)?.parameters ?? {};
	};
	return await until(read, saved, 15_000);
}

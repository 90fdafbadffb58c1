/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * The editor check in a real browser (`npm run test:n8n-editor`). run.sh has already installed
 * n8n, built and packed this package, and installed the tarball into N8N_USER_FOLDER. This script:
 *
 *  1. starts the local service (short tasks, fixed seed, its own key) on a free port;
 *  2. `n8n import:credentials` (an "Ideal House API" credential for the service) and
 *     `n8n import:workflow` (test/n8n-editor/workflow.json: a Manual Trigger feeding both nodes);
 *  3. `n8n start`, sets up the owner over REST and hands the login cookie to headless Chromium;
 *  4. drives the editor like a user: both node panels (fields shown and hidden, the searchable
 *     preset list, the Options collection), "Execute step" with the output pane, saving (checked
 *     over REST), and the credential modal's connection test with the right and a wrong key;
 *  5. saves full-page screenshots of both panels into docs/ (when their checks passed) and of
 *     every step into the work folder.
 *
 * Prints one summary; exits 1 if any check failed. Stops n8n, the service and the browser in
 * every case.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type BrowserContext, chromium, type Locator, type Page, selectors } from 'playwright-core';

import { type RunningService, startService } from '../../service/server.ts';
import {
	freePort,
	logFile,
	type N8nProcess,
	n8nEnv,
	type RestSession,
	runN8nCommand,
	setUpOwner,
	startN8nProcess,
	untilReady,
} from '../n8n-app/n8n-process.ts';
import { importCredential, importWorkflows } from '../n8n-app/imports.ts';
import {
	n8nVersion,
	PACKAGE,
	Report,
	runMain,
	runSettings,
	sleep,
	localCredential,
} from '../n8n-app/report.ts';

// ---------------------------------------------------------------------------------------------
// Settings

const RUNNER = 'test/n8n-editor/run.sh';
const {
	repo: REPO,
	work: WORK,
	userFolder: USER_FOLDER,
	n8nApp: N8N_APP,
	n8nBin: N8N_BIN,
} = runSettings('EDITOR', RUNNER);
const CHROMIUM = process.env.EDITOR_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = join(WORK, 'screenshots');
const DOCS = join(REPO, 'docs');

const PHOTO_ENHANCER = { name: 'Photo Enhancer', type: `${PACKAGE}.photoEnhancer` };
const OBJECT_REMOVER = { name: 'Object Remover', type: `${PACKAGE}.objectRemover` };
const CREDENTIAL = localCredential('IdealHouseEditor1');
const API_KEY = 'n8n-editor-key';
const WRONG_KEY = 'typed-by-mistake';
const SERVICE_OPTIONS = {
	taskDurationMs: 300,
	workers: 2,
	seed: 20261122,
	accounts: { [API_KEY]: 100 },
};
const PRESET = {
	search: 'sunset',
	label: 'Sky Replacement: Sunset Sky',
	id: 'sky-replacement-sunset-sky',
};
/** nodes/shared/fields.ts: the Options collection, as offered before Download Result is on. */
const OPTIONS_OFFERED = [
	'Download Result',
	'Max Requests per Second',
	'On Timeout',
	'Poll Interval (Seconds)',
	'Timeout (Seconds)',
];
const MASK_FIELDS = [
	{ source: 'URL', name: 'maskUrl', label: 'Mask URL' },
	{ source: 'Binary Property', name: 'maskBinaryProperty', label: 'Mask Binary Property' },
	{ source: 'Base64', name: 'maskBase64', label: 'Mask (Base64)' },
];
const CREDENTIAL_OK = 'Connection tested successfully';
const CREDENTIAL_FAILED = 'Couldn’t connect with these settings';
const KEY_REJECTED = 'Ideal House rejected the API key (code 5002';
/** Time a step of the UI may take (n8n's first page load on a busy machine is the slowest). */
const UI_TIMEOUT_MS = 30_000;
/** A node run: the create, at least one 3 s poll, the result. */
const EXECUTION_TIMEOUT_MS = 60_000;
const WATCHDOG_MS = 8 * 60_000;

// ---------------------------------------------------------------------------------------------
// Checks, steps and the summary

const report = new Report();
const check = report.check.bind(report);
const equal = report.equal.bind(report);
const timed = report.timed.bind(report);
const groupFailed = report.groupFailed.bind(report);
const notes: string[] = [];
const browserErrors = new Map<string, number>();
const docsWritten: string[] = [];

/** Polls `read` until `done` holds or the time is up; returns the last value read. */
async function until<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	ms: number,
): Promise<T> {
	const deadline = Date.now() + ms;
	let value = await read();
	while (!done(value) && Date.now() < deadline) {
		await sleep(250);
		value = await read();
	}
	return value;
}

let shotNumber = 0;
async function screenshot(page: Page, name: string): Promise<string> {
	shotNumber += 1;
	const file = join(SHOTS, `${String(shotNumber).padStart(2, '0')}-${name}.png`);
	await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
	return file;
}

/**
 * Runs one group of UI checks. An exception (a locator that never appeared, …) fails the group
 * with its message and a screenshot; the next group starts from the canvas again.
 */
async function section(page: Page, group: string, run: () => Promise<void>): Promise<void> {
	await timed(group, async () => {
		try {
			await run();
		} catch (error) {
			const shot = await screenshot(page, 'failure');
			check(
				group,
				'ran to the end',
				false,
				`${(error as Error).message.split('\n')[0]} (screenshot ${shot})`,
			);
		}
	});
}

// ---------------------------------------------------------------------------------------------
// The editor, as a user sees it

/** What the checks read of an element inside the page (the DOM types are not loaded here). */
interface PageElement {
	offsetParent: unknown;
	innerText: string;
}

function ndv(page: Page): Locator {
	return page.getByTestId('ndv');
}

/** A parameter's input in the open node panel, by its parameter name. */
function parameter(page: Page, name: string): Locator {
	return ndv(page).getByTestId(`parameter-input-${name}`);
}

/** Entries of the open dropdown (options parameters and the Options collection). */
function dropdownItems(page: Page, testId = 'parameter-input-item'): Locator {
	return page.getByTestId(testId).filter({ visible: true });
}

async function openNodePanel(page: Page, nodeName: string): Promise<void> {
	await closeNodePanel(page);
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).dblclick();
	await ndv(page).waitFor({ state: 'visible' });
	await ndv(page).getByTestId('node-parameters').waitFor({ state: 'visible' });
	// The panel opens with an animation: let it settle before clicking inside.
	await sleep(500);
}

async function closeNodePanel(page: Page): Promise<void> {
	if (!(await ndv(page).isVisible())) return;
	await page.keyboard.press('Escape');
	const closed = await ndv(page)
		.waitFor({ state: 'hidden', timeout: 3_000 })
		.then(() => true)
		.catch(() => false);
	if (!closed) {
		await ndv(page).getByTestId('ndv-close-button').click();
		await ndv(page).waitFor({ state: 'hidden', timeout: 10_000 });
	}
}

/** Names of the node parameters the panel shows (its Parameters tab), in order. */
async function shownParameters(page: Page): Promise<string[]> {
	return await ndv(page)
		.getByTestId('node-parameters')
		.locator('[data-test-id^="parameter-input-"]')
		.evaluateAll((elements) =>
			elements
				.filter((element) => (element as unknown as PageElement).offsetParent !== null)
				.map((element) => element.getAttribute('data-test-id')!.slice('parameter-input-'.length))
				.filter((name) => name !== 'field' && name !== 'item'),
		);
}

/** Labels of the parameters the panel shows, in order. */
async function shownLabels(page: Page): Promise<string[]> {
	return await ndv(page)
		.getByTestId('node-parameters')
		.getByTestId('input-label')
		.evaluateAll((elements) =>
			elements
				.filter((element) => (element as unknown as PageElement).offsetParent !== null)
				.map((element) => (element as unknown as PageElement).innerText.split('\n')[0].trim()),
		);
}

/** Picks `option` in the options parameter `name`; returns what the field then displays. */
async function choose(page: Page, name: string, option: string): Promise<string> {
	await parameter(page, name).click();
	await dropdownItems(page).first().waitFor({ state: 'visible' });
	await dropdownItems(page)
		.filter({ has: page.getByText(option, { exact: true }) })
		.first()
		.click();
	await dropdownItems(page).first().waitFor({ state: 'hidden' });
	return await parameter(page, name).locator('input').first().inputValue();
}

/** What the Options collection's "Add Option" list offers right now. */
async function offeredOptions(page: Page): Promise<string[]> {
	await ndv(page).getByTestId('collection-parameter-add').filter({ visible: true }).click();
	const items = dropdownItems(page, 'collection-parameter-option');
	await items.first().waitFor({ state: 'visible' });
	const texts = (await items.allInnerTexts()).map((text) => text.trim());
	await page.keyboard.press('Escape');
	await items.first().waitFor({ state: 'hidden' });
	return texts;
}

async function addOption(page: Page, option: string): Promise<void> {
	await ndv(page).getByTestId('collection-parameter-add').filter({ visible: true }).click();
	await dropdownItems(page, 'collection-parameter-option')
		.filter({ has: page.getByText(option, { exact: true }) })
		.click();
}

/**
 * The Options collection: what Add Option offers, then Download Result switched on, which brings
 * Put Result in Field (default "data").
 */
async function checkOptionsCollection(page: Page, group: string): Promise<void> {
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
		'with Download Result on, Add Option also offers Put Result in Field',
		offered.includes('Put Result in Field') && !offered.includes('Download Result'),
		offered.join(', '),
	);
	await addOption(page, 'Put Result in Field');
	const field = parameter(page, 'binaryPropertyName').locator('input, textarea').first();
	await field.waitFor({ state: 'visible' });
	equal(group, 'Put Result in Field shows its default "data"', await field.inputValue(), 'data');
}

/** The output pane's table: column names and the cells of the first item. */
async function firstOutputRow(page: Page): Promise<Record<string, string>> {
	const table = ndv(page).getByTestId('output-panel').locator('table').first();
	await table.waitFor({ state: 'visible' });
	return await table.evaluate((element) => {
		const headers = [...element.querySelectorAll('thead th')].map((cell) =>
			(cell as unknown as PageElement).innerText.trim(),
		);
		const cells = [...(element.querySelector('tbody tr')?.querySelectorAll('td') ?? [])].map(
			(cell) => (cell as unknown as PageElement).innerText.trim(),
		);
		const row: Record<string, string> = {};
		headers.forEach((header, index) => (row[header] = cells[index] ?? ''));
		return row;
	});
}

/**
 * "Execute step" in the open panel, then the output pane: the run succeeded, one item, the task's
 * id (the one the service created) and status Success. Returns the first item's cells.
 */
async function executeStep(
	page: Page,
	group: string,
	service: RunningService,
	kind: 'photoEnhancer' | 'objectRemover',
	downloaded = false,
): Promise<Record<string, string>> {
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
	if (
		!check(
			group,
			'Execute step: the output pane shows a successful run',
			outcome === 'success',
			`${outcome} after ${seconds.toFixed(1)} s: ${(await output.innerText().catch(() => '')).slice(0, 500)}`,
		)
	)
		return {};
	const count = (
		await output
			.getByTestId('ndv-items-count')
			.innerText()
			.catch(() => '')
	).trim();
	check(group, 'the output pane counts 1 item', /^1 item\b/.test(count), `"${count}"`);
	const tasks = service.stats().tasks.filter((task) => task.kind === kind);
	const binaryView = output.getByTestId('radio-button-binary');
	if (downloaded) {
		// With Download Result the pane opens on the file.
		check(
			group,
			'the output pane offers the Binary view',
			await binaryView.isVisible(),
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
	await output.getByTestId('radio-button-table').click();
	const row = await firstOutputRow(page);
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
	equal(
		group,
		'the item shows creditsCharged',
		row.creditsCharged,
		kind === 'photoEnhancer' ? '10' : '1',
	);
	return row;
}

/** Saves with Ctrl+S (n8n also saves by itself), then reads the workflow back over REST. */
async function savedNode(
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

// ---------------------------------------------------------------------------------------------
// The groups of checks

async function checkCanvas(page: Page, base: string, workflowId: string): Promise<void> {
	const group = 'editor: the imported workflow on the canvas';
	const started = Date.now();
	await page.goto(`${base}/workflow/${workflowId}`);
	await page.getByTestId('canvas-node').first().waitFor({ state: 'visible', timeout: 90_000 });
	notes.push(
		`editor: canvas shown ${((Date.now() - started) / 1000).toFixed(1)} s after navigation`,
	);
	check(
		group,
		'the login cookie is accepted (no sign-in page)',
		!/signin/.test(page.url()),
		page.url(),
	);
	const nodes = await page
		.getByTestId('canvas-node')
		.evaluateAll((elements) =>
			elements.map((element) => [
				element.getAttribute('data-node-name'),
				element.getAttribute('data-node-type'),
			]),
		);
	for (const node of [PHOTO_ENHANCER, OBJECT_REMOVER]) {
		check(
			group,
			`"${node.name}" is on the canvas as ${node.type}`,
			nodes.some(([name, type]) => name === node.name && type === node.type),
			JSON.stringify(nodes),
		);
	}
	await screenshot(page, 'canvas');
}

async function checkPhotoEnhancer(
	page: Page,
	session: RestSession,
	service: RunningService,
	workflowId: string,
	presetNames: string[],
): Promise<void> {
	const group = 'Photo Enhancer panel';
	await openNodePanel(page, PHOTO_ENHANCER.name);
	const parameters = await shownParameters(page);
	for (const name of [
		'operation',
		'imageInput',
		'imageUrl',
		'presetId',
		'prompt',
		'imageSize',
		'waitForCompletion',
	])
		check(group, `shows ${name}`, parameters.includes(name), parameters.join(', '));
	const labels = await shownLabels(page);
	for (const label of ['Preset Name or ID', 'Wait for Completion', 'Options'])
		check(group, `shows the label "${label}"`, labels.includes(label), labels.join(' | '));
	check(
		group,
		'does not show Task ID (Get Result only)',
		!parameters.includes('taskId'),
		parameters.join(', '),
	);
	const toggle = parameter(page, 'waitForCompletion').getByRole('switch');
	check(
		group,
		'Wait for Completion is a toggle, on by default',
		(await toggle.count()) === 1 && (await toggle.getAttribute('aria-checked')) === 'true',
		`${await toggle.count()} switch(es), aria-checked ${await toggle.getAttribute('aria-checked').catch(() => null)}`,
	);
	await checkOptionsCollection(page, group);

	// The preset list: 137 presets and None, searchable.
	const preset = parameter(page, 'presetId');
	await preset.click();
	await dropdownItems(page).first().waitFor({ state: 'visible' });
	const all = await dropdownItems(page).count();
	equal(group, 'the preset list offers None and every preset', all, presetNames.length);
	await page.keyboard.type(PRESET.search, { delay: 30 });
	const narrowed = await until(
		async () => (await dropdownItems(page).allInnerTexts()).map((text) => text.trim()),
		(texts) => texts.length > 0 && texts.length < all,
		5_000,
	);
	await sleep(300);
	const shown = (await dropdownItems(page).allInnerTexts()).map((text) => text.trim());
	notes.push(`preset search "${PRESET.search}" → ${shown.join(', ')}`);
	check(
		group,
		`typing "${PRESET.search}" narrows the list (${all} → ${shown.length})`,
		shown.length > 0 && shown.length < all && narrowed.length === shown.length,
		`${narrowed.length} then ${shown.length} of ${all}`,
	);
	check(
		group,
		'every entry left contains "Sunset"',
		shown.length > 0 && shown.every((text) => /sunset/i.test(text)),
		shown.join(' | '),
	);
	const expected = presetNames.filter((name) => name.toLowerCase().includes(PRESET.search));
	equal(
		group,
		'the entries left are exactly the presets whose name has "sunset"',
		[...shown].sort(),
		[...expected].sort(),
	);
	await dropdownItems(page)
		.filter({ has: page.getByText(PRESET.label, { exact: true }) })
		.click();
	await dropdownItems(page).first().waitFor({ state: 'hidden' });
	equal(
		group,
		'the field then shows the chosen preset',
		await preset.locator('input').first().inputValue(),
		PRESET.label,
	);

	const row = await executeStep(page, group, service, 'photoEnhancer', true);
	check(
		group,
		'the item shows the chosen preset was sent',
		(row.input ?? '').includes(PRESET.id),
		`input cell "${row.input ?? ''}"`,
	);
	const shot = await screenshot(page, 'photo-enhancer');
	if (!groupFailed(group)) {
		copyFileSync(shot, join(DOCS, 'editor-photo-enhancer.png'));
		docsWritten.push('docs/editor-photo-enhancer.png');
	}

	const stored = await savedNode(
		page,
		session,
		workflowId,
		PHOTO_ENHANCER.name,
		(saved) => saved.presetId === PRESET.id,
	);
	equal(
		group,
		`saved: GET /rest/workflows/${workflowId} has presetId ${PRESET.id} (and options.downloadResult)`,
		[stored.presetId, (stored.options as Record<string, unknown> | undefined)?.downloadResult],
		[PRESET.id, true],
	);
}

async function checkObjectRemover(
	page: Page,
	session: RestSession,
	service: RunningService,
	workflowId: string,
): Promise<void> {
	const group = 'Object Remover panel';
	await openNodePanel(page, OBJECT_REMOVER.name);
	const maskNames = ['maskSource', ...MASK_FIELDS.map((field) => field.name)];
	const maskLabels = ['Mask Source', ...MASK_FIELDS.map((field) => field.label)];
	equal(
		group,
		'Removal Mode shows Whole House',
		await parameter(page, 'emptyType').locator('input').first().inputValue(),
		'Whole House',
	);
	let parameters = await shownParameters(page);
	let labels = await shownLabels(page);
	check(
		group,
		'Whole House: no mask field is shown',
		maskNames.every((name) => !parameters.includes(name)) &&
			maskLabels.every((label) => !labels.includes(label)),
		`parameters ${parameters.join(', ')}; labels ${labels.join(' | ')}`,
	);

	equal(
		group,
		'Removal Mode can be set to Single Furniture',
		await choose(page, 'emptyType', 'Single Furniture'),
		'Single Furniture',
	);
	parameters = await shownParameters(page);
	labels = await shownLabels(page);
	check(
		group,
		'Single Furniture: Mask Source is shown',
		parameters.includes('maskSource') && labels.includes('Mask Source'),
		`parameters ${parameters.join(', ')}; labels ${labels.join(' | ')}`,
	);
	equal(
		group,
		'Mask Source starts at URL',
		await parameter(page, 'maskSource').locator('input').first().inputValue(),
		'URL',
	);

	for (const field of [...MASK_FIELDS.slice(1), MASK_FIELDS[0]]) {
		equal(
			group,
			`Mask Source can be set to ${field.source}`,
			await choose(page, 'maskSource', field.source),
			field.source,
		);
		parameters = await shownParameters(page);
		labels = await shownLabels(page);
		const others = MASK_FIELDS.filter((other) => other !== field);
		check(
			group,
			`Mask Source ${field.source}: shows ${field.label} (${field.name}) and neither ${others.map((other) => other.label).join(' nor ')}`,
			parameters.includes(field.name) &&
				labels.includes(field.label) &&
				others.every((other) => !parameters.includes(other.name) && !labels.includes(other.label)),
			`parameters ${parameters.join(', ')}; labels ${labels.join(' | ')}`,
		);
	}
	const maskUrl = `${service.baseUrl}/samples/living-room-mask.png`;
	await parameter(page, 'maskUrl').locator('input, textarea').first().fill(maskUrl);

	await checkOptionsCollection(page, group);

	const row = await executeStep(page, group, service, 'objectRemover', true);
	check(
		group,
		'the item shows Single Furniture and the mask URL were sent',
		(row.input ?? '').includes('single_furniture') && (row.input ?? '').includes(maskUrl),
		`input cell "${row.input ?? ''}"`,
	);
	// The screenshot shows the downloaded file.
	await ndv(page).getByTestId('output-panel').getByTestId('radio-button-binary').click();
	const shot = await screenshot(page, 'object-remover');
	if (!groupFailed(group)) {
		copyFileSync(shot, join(DOCS, 'editor-object-remover.png'));
		docsWritten.push('docs/editor-object-remover.png');
	}

	const stored = await savedNode(
		page,
		session,
		workflowId,
		OBJECT_REMOVER.name,
		(saved) => saved.emptyType === 'single_furniture' && saved.maskUrl === maskUrl,
	);
	equal(
		group,
		'saved: emptyType, maskUrl and options.downloadResult over REST',
		[
			stored.emptyType,
			stored.maskUrl,
			(stored.options as Record<string, unknown> | undefined)?.downloadResult,
		],
		['single_furniture', maskUrl, true],
	);
}

async function checkCredential(page: Page, service: RunningService): Promise<void> {
	const group = 'credential modal (connection test)';
	await openNodePanel(page, OBJECT_REMOVER.name);
	await ndv(page).getByTestId('credential-edit-button').click();
	const modal = page.getByTestId('editCredential-modal');
	await modal.waitFor({ state: 'visible' });
	const okBanner = modal.getByText(CREDENTIAL_OK);
	const failedBanner = modal.getByText(CREDENTIAL_FAILED);
	const apiKey = modal.getByTestId('parameter-input-apiKey').locator('input').first();
	const retry = modal.getByRole('button', { name: 'Retry' });
	/** Clicks Retry and waits for the test's answer; returns the answer n8n sent to the editor. */
	const testAnswer = async (click: Locator): Promise<string> => {
		const answer = page.waitForResponse((response) =>
			response.url().endsWith('/rest/credentials/test'),
		);
		await click.click();
		const body = (await (await answer).json().catch(() => ({}))) as { data?: { status?: string } };
		// Let the modal render the answer before its banner is read.
		await sleep(500);
		return String(body.data?.status);
	};
	const banner = async () =>
		await Promise.race([
			okBanner.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS }).then(() => 'ok'),
			failedBanner.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS }).then(() => 'failed'),
		]).catch(() => 'none');

	// Opening a saved credential tests it.
	equal(group, `the saved credential (service key): "${CREDENTIAL_OK}"`, await banner(), 'ok');
	equal(
		group,
		'Base URL shows the local service',
		await modal.getByTestId('parameter-input-baseUrl').locator('input').first().inputValue(),
		service.baseUrl,
	);

	const rejectedBefore = service.stats().requests.byCode['5002'] ?? 0;
	await apiKey.fill(WRONG_KEY);
	equal(
		group,
		'a wrong key, Retry: n8n answers the test with Error',
		await testAnswer(retry),
		'Error',
	);
	equal(group, `a wrong key, Retry: "${CREDENTIAL_FAILED}"`, await banner(), 'failed');
	await modal.getByText('More details').click();
	const message = modal.getByText(KEY_REJECTED);
	const shown = await message
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS })
		.then(async () => (await message.innerText()).trim())
		.catch(() => '');
	check(
		group,
		`More details shows the 5002 message "${KEY_REJECTED} …"`,
		shown.startsWith(KEY_REJECTED),
		`modal text: ${(await modal.innerText()).slice(0, 600)}`,
	);
	const modalText = await modal.innerText();
	check(
		group,
		'the wrong key itself is shown nowhere in the modal',
		!modalText.includes(WRONG_KEY),
		modalText.slice(0, 600),
	);
	check(
		group,
		'the service did answer that test with 5002',
		(service.stats().requests.byCode['5002'] ?? 0) > rejectedBefore,
		JSON.stringify(service.stats().requests.byCode),
	);
	await screenshot(page, 'credential-wrong-key');

	await apiKey.fill(API_KEY);
	equal(
		group,
		'the right key again, Retry: n8n answers the test with OK',
		await testAnswer(retry),
		'OK',
	);
	equal(group, `the right key again, Retry: "${CREDENTIAL_OK}"`, await banner(), 'ok');
	const save = modal.getByTestId('credential-save-button');
	equal(group, 'Save: n8n tests the saved credential again, OK', await testAnswer(save), 'OK');
	await save.getByText('Saved', { exact: true }).waitFor({ state: 'visible' });
	equal(group, 'saved with the right key: still tested successfully', await banner(), 'ok');
	await screenshot(page, 'credential-right-key');
	await page.keyboard.press('Escape');
	await modal.waitFor({ state: 'hidden', timeout: 10_000 });
	await closeNodePanel(page);
}

/** n8n's own log: no warning or error line about this package, its nodes or its credential. */
function checkLog(output: string): void {
	report.checkPackageLog('n8n log (n8n start)', output, { n8nAppDir: N8N_APP });
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
	mkdirSync(join(WORK, 'logs'), { recursive: true });
	mkdirSync(SHOTS, { recursive: true });
	mkdirSync(DOCS, { recursive: true });
	const env = n8nEnv(USER_FOLDER, { broker: await freePort(), http: await freePort() });
	const base = `http://127.0.0.1:${env.N8N_PORT}`;

	let service: RunningService | undefined;
	let app: N8nProcess | undefined;
	let context: BrowserContext | undefined;
	const stopAll = async () => {
		await context?.close().catch(() => undefined);
		context = undefined;
		await app?.stop();
		if (app) writeFileSync(logFile(WORK, 'start'), app.output());
		await service?.close();
		service = undefined;
	};
	const onSignal = (signal: NodeJS.Signals) => {
		console.error(`\n${signal}: stopping n8n, the service and the browser`);
		void stopAll().finally(() => process.exit(130));
	};
	process.once('SIGINT', onSignal);
	process.once('SIGTERM', onSignal);
	const watchdog = setTimeout(() => {
		console.error(`The editor check took over ${WATCHDOG_MS / 60_000} min: stopping.`);
		void stopAll().finally(() => process.exit(1));
	}, WATCHDOG_MS);

	try {
		service = await timed(
			'local service',
			async () => await startService({ port: 0, host: '127.0.0.1', ...SERVICE_OPTIONS }),
		);
		const running = service;
		console.log(`Local service on ${running.baseUrl} (tasks ${SERVICE_OPTIONS.taskDurationMs} ms)`);

		const imports = {
			report,
			group: 'setup',
			work: WORK,
			n8n: async (step: string, args: string[]) =>
				await runN8nCommand(N8N_BIN, args, {
					env,
					cwd: WORK,
					logFile: logFile(WORK, step),
					timeoutMs: 180_000,
				}),
		};
		if (
			!(await importCredential(imports, CREDENTIAL, { apiKey: API_KEY, baseUrl: running.baseUrl }))
		)
			return 1;
		const workflowText = readFileSync(join(REPO, 'test', 'n8n-editor', 'workflow.json'), 'utf8');
		const workflowId = (JSON.parse(workflowText) as { id: string }).id;
		if (
			!(await importWorkflows(
				imports,
				[{ file: 'workflow.json', text: workflowText }],
				running.baseUrl,
			))
		)
			return 1;

		app = startN8nProcess(N8N_BIN, ['start'], { env, cwd: WORK });
		const started = app;
		const ready = await timed(
			'n8n start (until ready)',
			async () => await untilReady(`${base}/healthz/readiness`, started.child, 120_000),
		);
		if (!check('setup', 'n8n start: the editor is ready', ready, started.output().slice(-2000)))
			return 1;
		let session: RestSession;
		try {
			session = await timed('owner set-up (REST)', async () => await setUpOwner(base));
		} catch (error) {
			check('setup', 'owner account set up', false, (error as Error).message);
			return 1;
		}
		check('setup', 'owner account set up, logged in', true);

		// The preset list as n8n serves the node type to the editor.
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
			'setup',
			'n8n serves the Photo Enhancer with its preset list',
			presetNames.length > 100,
			`${presetNames.length} presets`,
		);

		// n8n's editor marks its elements with data-test-id.
		selectors.setTestIdAttribute('data-test-id');
		context = await timed(
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
		const [cookieName, ...cookieValue] = session.cookie.split('=');
		await context.addCookies([{ name: cookieName, value: cookieValue.join('='), url: base }]);
		const page = context.pages()[0] ?? (await context.newPage());
		page.setDefaultTimeout(UI_TIMEOUT_MS);
		page.on('pageerror', (error) => {
			const key = `page error: ${error.message.split('\n')[0].slice(0, 140)}`;
			browserErrors.set(key, (browserErrors.get(key) ?? 0) + 1);
		});
		page.on('console', (message) => {
			if (message.type() !== 'error') return;
			const key = `console: ${message.text().split('\n')[0].slice(0, 140)}`;
			browserErrors.set(key, (browserErrors.get(key) ?? 0) + 1);
		});

		await section(
			page,
			'editor: the imported workflow on the canvas',
			async () => await checkCanvas(page, base, workflowId),
		);
		await section(
			page,
			'Photo Enhancer panel',
			async () => await checkPhotoEnhancer(page, session, running, workflowId, presetNames),
		);
		await section(
			page,
			'Object Remover panel',
			async () => await checkObjectRemover(page, session, running, workflowId),
		);
		await section(
			page,
			'credential modal (connection test)',
			async () => await checkCredential(page, running),
		);

		const stats = running.stats();
		notes.push(
			`service: ${stats.tasks.length} task(s) ${stats.tasks.map((task) => `${task.kind} ${task.id} ${task.status}`).join(', ')}; answers by code ${JSON.stringify(stats.requests.byCode)}`,
		);
	} catch (error) {
		check('run', 'ran to the end', false, (error as Error).stack);
	} finally {
		clearTimeout(watchdog);
		await timed('stop browser, n8n, service', stopAll);
		if (app) checkLog(app.output());
	}
	return summary();
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

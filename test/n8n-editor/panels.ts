/**
 * The canvas and the two node panels, used as a user does: the fields each panel shows and
 * hides, the searchable preset list, the mask fields, Execute step, and saving.
 */
import type { Page } from 'playwright-core';

import { sleep } from '../n8n-app/report.ts';
import {
	choose,
	dropdownItems,
	ndv,
	openNodePanel,
	parameter,
	shownLabels,
	shownParameters,
	until,
} from './editor.ts';
import {
	checkOptionsCollection,
	executeStep,
	savedNode,
	screenshotForDocs,
} from './panel-steps.ts';
import { check, equal, notes, screenshot } from './record.ts';
import {
	GROUPS,
	IDEAL_HOUSE,
	MASK_FIELDS,
	OBJECT_REMOVER,
	PHOTO_ENHANCER,
	PRESET,
} from './settings.ts';
import type { EditorRun } from './setup.ts';

export async function checkCanvas({ page, base, workflowId }: EditorRun): Promise<void> {
	const group = GROUPS.canvas;
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
	for (const node of [PHOTO_ENHANCER, OBJECT_REMOVER, IDEAL_HOUSE]) {
		check(
			group,
			`"${node.name}" is on the canvas as ${node.type}`,
			nodes.some(([name, type]) => name === node.name && type === node.type),
			JSON.stringify(nodes),
		);
	}
	await screenshot(page, 'canvas');
}

// ---------------------------------------------------------------------------------------------
// Photo Enhancer

export async function checkPhotoEnhancer(run: EditorRun): Promise<void> {
	const { page, session, service, workflowId, presetNames } = run;
	const group = GROUPS.photoEnhancer;
	await openNodePanel(page, PHOTO_ENHANCER.name);
	await checkPhotoEnhancerFields(page, group);
	await checkOptionsCollection(page, group);
	await checkPresetSearch(page, group, presetNames);

	const row = await executeStep(page, group, service, 'photoEnhancer');
	check(
		group,
		'the item shows the chosen preset was sent',
		(row.input ?? '').includes(PRESET.id),
		`input cell "${row.input ?? ''}"`,
	);
	await screenshotForDocs(page, group, 'photo-enhancer', 'editor-photo-enhancer.png');

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

/** The Create operation's fields, without Task ID, and Wait for Completion on. */
async function checkPhotoEnhancerFields(page: Page, group: string): Promise<void> {
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
}

/**
 * The preset list holds None and every preset n8n serves; typing narrows it to the presets whose
 * name matches, and the one picked shows in the field.
 */
async function checkPresetSearch(page: Page, group: string, presetNames: string[]): Promise<void> {
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
	// The list may still be filtering as the last letters arrive: read it again once settled.
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
}

// ---------------------------------------------------------------------------------------------
// Object Remover

export async function checkObjectRemover(run: EditorRun): Promise<void> {
	const { page, session, service, workflowId } = run;
	const group = GROUPS.objectRemover;
	await openNodePanel(page, OBJECT_REMOVER.name);
	await checkRemovalMode(page, group);
	await checkMaskSources(page, group);
	const maskUrl = `${service.baseUrl}/samples/living-room-mask.png`;
	await parameter(page, 'maskUrl').locator('input, textarea').first().fill(maskUrl);

	await checkOptionsCollection(page, group);

	const row = await executeStep(page, group, service, 'objectRemover');
	check(
		group,
		'the item shows Single Furniture and the mask URL were sent',
		(row.input ?? '').includes('single_furniture') && (row.input ?? '').includes(maskUrl),
		`input cell "${row.input ?? ''}"`,
	);
	// The screenshot shows the downloaded file.
	await ndv(page).getByTestId('output-panel').getByTestId('radio-button-binary').click();
	await screenshotForDocs(page, group, 'object-remover', 'editor-object-remover.png');

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

/** The parameters and labels the panel shows, and both as a failed check's detail. */
async function shownFields(page: Page) {
	const parameters = await shownParameters(page);
	const labels = await shownLabels(page);
	const detail = `parameters ${parameters.join(', ')}; labels ${labels.join(' | ')}`;
	return { parameters, labels, detail };
}

/** Whole House needs no mask; Single Furniture brings Mask Source, at URL. */
async function checkRemovalMode(page: Page, group: string): Promise<void> {
	const maskNames = ['maskSource', ...MASK_FIELDS.map((field) => field.name)];
	const maskLabels = ['Mask Source', ...MASK_FIELDS.map((field) => field.label)];
	equal(
		group,
		'Removal Mode shows Whole House',
		await parameter(page, 'emptyType').locator('input').first().inputValue(),
		'Whole House',
	);
	const wholeHouse = await shownFields(page);
	check(
		group,
		'Whole House: no mask field is shown',
		maskNames.every((name) => !wholeHouse.parameters.includes(name)) &&
			maskLabels.every((label) => !wholeHouse.labels.includes(label)),
		wholeHouse.detail,
	);

	equal(
		group,
		'Removal Mode can be set to Single Furniture',
		await choose(page, 'emptyType', 'Single Furniture'),
		'Single Furniture',
	);
	const singleFurniture = await shownFields(page);
	check(
		group,
		'Single Furniture: Mask Source is shown',
		singleFurniture.parameters.includes('maskSource') &&
			singleFurniture.labels.includes('Mask Source'),
		singleFurniture.detail,
	);
	equal(
		group,
		'Mask Source starts at URL',
		await parameter(page, 'maskSource').locator('input').first().inputValue(),
		'URL',
	);
}

/** Each Mask Source shows exactly its own field; the last one set is URL, for the run. */
async function checkMaskSources(page: Page, group: string): Promise<void> {
	for (const field of [...MASK_FIELDS.slice(1), MASK_FIELDS[0]]) {
		equal(
			group,
			`Mask Source can be set to ${field.source}`,
			await choose(page, 'maskSource', field.source),
			field.source,
		);
		const { parameters, labels, detail } = await shownFields(page);
		const others = MASK_FIELDS.filter((other) => other !== field);
		check(
			group,
			`Mask Source ${field.source}: shows ${field.label} (${field.name}) and neither ${others.map((other) => other.label).join(' nor ')}`,
			parameters.includes(field.name) &&
				labels.includes(field.label) &&
				others.every((other) => !parameters.includes(other.name) && !labels.includes(other.label)),
			detail,
		);
	}
}

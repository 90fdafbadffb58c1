/**
 * The Ideal House AI panel with a photo that is a file (Virtual Staging, as imported): Image
 * Source offers URL and Binary File; Binary File swaps the Image URL field for Image Binary
 * Property (default "data") and makes the node ask for the upload storage credential, which the
 * URL source does not need. The panel is set back to URL afterwards, as the later checks expect.
 */
import type { Page } from 'playwright-core';

import {
	choose,
	dropdownItems,
	ndv,
	openNodePanel,
	parameter,
	shownParameters,
	until,
} from './editor.ts';
import { screenshotForDocs } from './panel-steps.ts';
import { check, equal, notes } from './record.ts';
import { GROUPS, IDEAL_HOUSE, PHOTO_FILE, UI_TIMEOUT_MS } from './settings.ts';
import type { EditorRun } from './setup.ts';

/** The labels of the panel's credential fields, one per credential the node asks for now. */
async function credentialLabels(page: Page): Promise<string[]> {
	return (
		await ndv(page).getByTestId('credentials-label').filter({ visible: true }).allInnerTexts()
	)
		.map((text) => text.split('\n')[0].trim())
		.filter(Boolean);
}

const asksForStorage = (labels: string[]) =>
	labels.some((label) => label.includes(PHOTO_FILE.storageCredential));

export async function checkPhotoFromFile({ page }: EditorRun): Promise<void> {
	const group = GROUPS.photoFile;
	await openNodePanel(page, IDEAL_HOUSE.name);
	const before = await shownParameters(page);
	check(
		group,
		'Image Source is shown, at URL, with the Image URL field and no Image Binary Property',
		before.includes('imageSource') &&
			before.includes('imageUrl') &&
			!before.includes('imageBinaryProperty'),
		before.join(', '),
	);
	equal(
		group,
		'Image Source shows URL',
		await parameter(page, 'imageSource').locator('input').first().inputValue(),
		'URL',
	);
	const urlCredentials = await credentialLabels(page);
	check(
		group,
		'with a URL, the node asks for no upload storage credential',
		urlCredentials.length > 0 && !asksForStorage(urlCredentials),
		urlCredentials.join(' | ') || 'no credential field',
	);

	await parameter(page, 'imageSource').click();
	await dropdownItems(page).first().waitFor({ state: 'visible' });
	const offered = (await dropdownItems(page).allInnerTexts()).map((text) =>
		text.split('\n')[0].trim(),
	);
	await page.keyboard.press('Escape');
	equal(group, 'Image Source offers URL and Binary File', offered, ['URL', 'Binary File']);

	equal(
		group,
		'Image Source can be set to Binary File',
		await choose(page, 'imageSource', 'Binary File'),
		'Binary File',
	);
	const after = await until(
		async () => await shownParameters(page),
		(names) => names.includes('imageBinaryProperty'),
		UI_TIMEOUT_MS,
	);
	check(
		group,
		'Binary File shows Image Binary Property in place of Image URL',
		after.includes('imageBinaryProperty') && !after.includes('imageUrl'),
		after.join(', '),
	);
	equal(
		group,
		'Image Binary Property shows its default "data"',
		await parameter(page, 'imageBinaryProperty').locator('input, textarea').first().inputValue(),
		'data',
	);
	const fileCredentials = await until(
		async () => await credentialLabels(page),
		asksForStorage,
		UI_TIMEOUT_MS,
	);
	notes.push(`Ideal House AI, Binary File: credential fields ${fileCredentials.join(' | ')}`);
	check(
		group,
		`Binary File makes the node ask for the "${PHOTO_FILE.storageCredential}" credential`,
		asksForStorage(fileCredentials),
		fileCredentials.join(' | ') || 'no credential field',
	);
	await screenshotForDocs(page, group, 'photo-from-file', 'editor-photo-from-file.png');

	equal(group, 'Image Source set back to URL', await choose(page, 'imageSource', 'URL'), 'URL');
	const back = await until(
		async () => await credentialLabels(page),
		(labels) => !asksForStorage(labels),
		UI_TIMEOUT_MS,
	);
	check(
		group,
		'back at URL, the upload storage credential is no longer asked for',
		!asksForStorage(back),
		back.join(' | '),
	);
	await page.keyboard.press('Escape');
}

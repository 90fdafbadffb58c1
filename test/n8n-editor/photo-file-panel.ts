/**
 * The Ideal House AI panel with a photo that is a file (Virtual Staging, as imported, at node
 * version 1.1, the version the editor adds): Image Source offers URL and Binary File; Binary File
 * swaps the Image URL field for Image Binary Property (default "data") and shows Photo Link right
 * under Image Source, at This n8n Instance, which needs no further credential; Your Bucket makes
 * the node ask for the upload storage credential, which goes away again with This n8n Instance.
 * The panel is set back to URL afterwards (Photo Link hidden again), as the later checks expect.
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

/** What an options field offers when opened (closed again). */
async function offered(page: Page, name: string): Promise<string[]> {
	await parameter(page, name).click();
	await dropdownItems(page).first().waitFor({ state: 'visible' });
	const texts = (await dropdownItems(page).allInnerTexts()).map((text) =>
		text.split('\n')[0].trim(),
	);
	await page.keyboard.press('Escape');
	return texts;
}

/** What an options field displays. */
async function shownValue(page: Page, name: string): Promise<string> {
	return await parameter(page, name).locator('input').first().inputValue();
}

export async function checkPhotoFromFile({ page }: EditorRun): Promise<void> {
	const group = GROUPS.photoFile;
	await openNodePanel(page, IDEAL_HOUSE.name);
	const before = await shownParameters(page);
	check(
		group,
		'Image Source is shown, at URL, with the Image URL field, and no Image Binary Property nor Photo Link',
		before.includes('imageSource') &&
			before.includes('imageUrl') &&
			!before.includes('imageBinaryProperty') &&
			!before.includes(PHOTO_FILE.photoLink),
		before.join(', '),
	);
	equal(group, 'Image Source shows URL', await shownValue(page, 'imageSource'), 'URL');
	const urlCredentials = await credentialLabels(page);
	check(
		group,
		'with a URL, the node asks for no upload storage credential',
		urlCredentials.length > 0 && !asksForStorage(urlCredentials),
		urlCredentials.join(' | ') || 'no credential field',
	);
	equal(group, 'Image Source offers URL and Binary File', await offered(page, 'imageSource'), [
		'URL',
		'Binary File',
	]);

	equal(
		group,
		'Image Source can be set to Binary File',
		await choose(page, 'imageSource', 'Binary File'),
		'Binary File',
	);
	const after = await until(
		async () => await shownParameters(page),
		(names) => names.includes('imageBinaryProperty') && names.includes(PHOTO_FILE.photoLink),
		UI_TIMEOUT_MS,
	);
	check(
		group,
		'Binary File shows Image Binary Property in place of Image URL',
		after.includes('imageBinaryProperty') && !after.includes('imageUrl'),
		after.join(', '),
	);
	check(
		group,
		'Binary File shows Photo Link, right under Image Source',
		after.indexOf(PHOTO_FILE.photoLink) === after.indexOf('imageSource') + 1,
		after.join(', '),
	);
	equal(
		group,
		'Image Binary Property shows its default "data"',
		await parameter(page, 'imageBinaryProperty').locator('input, textarea').first().inputValue(),
		'data',
	);
	equal(
		group,
		`Photo Link shows "${PHOTO_FILE.n8nLink}" (version 1.1's default)`,
		await shownValue(page, PHOTO_FILE.photoLink),
		PHOTO_FILE.n8nLink,
	);
	equal(
		group,
		`Photo Link offers "${PHOTO_FILE.n8nLink}" and "${PHOTO_FILE.bucket}"`,
		await offered(page, PHOTO_FILE.photoLink),
		[PHOTO_FILE.n8nLink, PHOTO_FILE.bucket],
	);
	// The editor redraws the credential fields a moment after a parameter changes.
	const n8nCredentials = await until(
		async () => await credentialLabels(page),
		(labels) => labels.length > 0,
		UI_TIMEOUT_MS,
	);
	check(
		group,
		`with "${PHOTO_FILE.n8nLink}", the node asks for no upload storage credential (the API's only)`,
		n8nCredentials.length === 1 && !asksForStorage(n8nCredentials),
		n8nCredentials.join(' | ') || 'no credential field',
	);
	await screenshotForDocs(page, group, 'photo-link', 'editor-photo-link.png');

	equal(
		group,
		`Photo Link can be set to "${PHOTO_FILE.bucket}"`,
		await choose(page, PHOTO_FILE.photoLink, PHOTO_FILE.bucket),
		PHOTO_FILE.bucket,
	);
	const fileCredentials = await until(
		async () => await credentialLabels(page),
		asksForStorage,
		UI_TIMEOUT_MS,
	);
	notes.push(
		`Ideal House AI, Binary File, Your Bucket: credential fields ${fileCredentials.join(' | ')}`,
	);
	check(
		group,
		`"${PHOTO_FILE.bucket}" makes the node ask for the "${PHOTO_FILE.storageCredential}" credential`,
		asksForStorage(fileCredentials),
		fileCredentials.join(' | ') || 'no credential field',
	);
	await screenshotForDocs(page, group, 'photo-from-file', 'editor-photo-from-file.png');

	equal(
		group,
		`Photo Link set back to "${PHOTO_FILE.n8nLink}"`,
		await choose(page, PHOTO_FILE.photoLink, PHOTO_FILE.n8nLink),
		PHOTO_FILE.n8nLink,
	);
	const backToN8n = await until(
		async () => await credentialLabels(page),
		(labels) => labels.length > 0 && !asksForStorage(labels),
		UI_TIMEOUT_MS,
	);
	check(
		group,
		`back at "${PHOTO_FILE.n8nLink}", the upload storage credential is no longer asked for`,
		backToN8n.length > 0 && !asksForStorage(backToN8n),
		backToN8n.join(' | '),
	);

	equal(group, 'Image Source set back to URL', await choose(page, 'imageSource', 'URL'), 'URL');
	const back = await until(
		async () => await shownParameters(page),
		(names) => !names.includes(PHOTO_FILE.photoLink),
		UI_TIMEOUT_MS,
	);
	check(
		group,
		'back at URL, Photo Link is hidden and Image URL shown again',
		!back.includes(PHOTO_FILE.photoLink) && back.includes('imageUrl'),
		back.join(', '),
	);
	const backCredentials = await credentialLabels(page);
	check(
		group,
		'back at URL, the upload storage credential is not asked for',
		backCredentials.length > 0 && !asksForStorage(backCredentials),
		backCredentials.join(' | '),
	);
	await page.keyboard.press('Escape');
}

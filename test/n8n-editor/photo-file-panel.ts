/**
 * The Ideal House AI panel with a photo that is a file (Virtual Staging, as imported): Image Source
 * offers URL and Binary File; Binary File swaps the Image URL field for Input Binary Field
 * (default "data"), and the node asks for no credential but the Ideal House API's, whichever the
 * source. The panel is set back to URL afterwards, as the later checks expect.
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
import { check, equal } from './record.ts';
import { GROUPS, IDEAL_HOUSE, UI_TIMEOUT_MS } from './settings.ts';
import type { EditorRun } from './setup.ts';

/** The labels of the panel's credential fields, one per credential the node asks for now. */
async function credentialLabels(page: Page): Promise<string[]> {
	return (
		await ndv(page).getByTestId('credentials-label').filter({ visible: true }).allInnerTexts()
	)
		.map((text) => text.split('\n')[0].trim())
		.filter(Boolean);
}

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
		'Image Source is shown, at URL, with the Image URL field, and no Input Binary Field',
		before.includes('imageSource') &&
			before.includes('imageUrl') &&
			!before.includes('imageBinaryProperty'),
		before.join(', '),
	);
	equal(group, 'Image Source shows URL', await shownValue(page, 'imageSource'), 'URL');
	const urlCredentials = await credentialLabels(page);
	equal(
		group,
		'with a URL, the node asks for one credential (the Ideal House API)',
		urlCredentials.length,
		1,
	);
	equal(group, 'Image Source offers Binary File and URL', await offered(page, 'imageSource'), [
		'Binary File',
		'URL',
	]);

	equal(
		group,
		'Image Source can be set to Binary File',
		await choose(page, 'imageSource', 'Binary File'),
		'Binary File',
	);
	const after = await shownOnce(page, 'imageBinaryProperty');
	check(
		group,
		'Binary File shows Input Binary Field in place of Image URL',
		after.includes('imageBinaryProperty') && !after.includes('imageUrl'),
		after.join(', '),
	);
	equal(
		group,
		'Input Binary Field shows its default "data"',
		await parameter(page, 'imageBinaryProperty').locator('input, textarea').first().inputValue(),
		'data',
	);
	// The editor redraws the credential fields a moment after a parameter changes.
	const fileCredentials = await until(
		async () => await credentialLabels(page),
		(labels) => labels.length > 0,
		UI_TIMEOUT_MS,
	);
	check(
		group,
		"with Binary File, the node still asks for one credential only (the Ideal House API): the photo goes on n8n's own link",
		fileCredentials.length === 1 && fileCredentials[0] === urlCredentials[0],
		`${fileCredentials.join(' | ') || 'no credential field'} (with a URL: ${urlCredentials.join(' | ')})`,
	);
	await screenshotForDocs(page, group, 'photo-from-file', 'editor-photo-from-file.png');

	equal(group, 'Image Source set back to URL', await choose(page, 'imageSource', 'URL'), 'URL');
	const back = await shownOnce(page, 'imageUrl');
	check(
		group,
		'back at URL, Input Binary Field is hidden and Image URL shown again',
		!back.includes('imageBinaryProperty') && back.includes('imageUrl'),
		back.join(', '),
	);
	await page.keyboard.press('Escape');
}

/** The parameters the panel shows, once it shows `name` (the editor redraws a moment later). */
async function shownOnce(page: Page, name: string): Promise<string[]> {
	return await until(
		async () => await shownParameters(page),
		(names) => names.includes(name),
		UI_TIMEOUT_MS,
	);
}

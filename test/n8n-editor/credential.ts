/**
 * The credential modal, opened with the pencil next to the Object Remover's credential: n8n's
 * connection test with the saved key, a wrong key, and the right key again.
 */
import type { Locator, Page } from 'playwright-core';

import type { RunningService } from '../../service/server.ts';
import { sleep } from '../n8n-app/report.ts';
import { closeNodePanel, ndv, openNodePanel } from './editor.ts';
import { check, equal, screenshot } from './record.ts';
import {
	API_KEY,
	CREDENTIAL_FAILED,
	CREDENTIAL_OK,
	GROUPS,
	KEY_REJECTED,
	OBJECT_REMOVER,
	UI_TIMEOUT_MS,
	WRONG_KEY,
} from './settings.ts';
import type { EditorRun } from './setup.ts';

interface CredentialModal {
	modal: Locator;
	apiKey: Locator;
	retry: Locator;
	save: Locator;
	/** Clicks `button` and waits for the test's answer; returns the status n8n sent the editor. */
	testAnswer: (button: Locator) => Promise<string>;
	/** Which banner the modal shows: "ok", "failed", or "none" when neither appears in time. */
	banner: () => Promise<string>;
}

export async function checkCredential({ page, service }: EditorRun): Promise<void> {
	const group = GROUPS.credential;
	const credential = await openCredentialModal(page);
	await checkSavedCredential(credential, group, service);
	await checkWrongKey(credential, group, service);
	await screenshot(page, 'credential-wrong-key');
	await checkRightKeyAgain(credential, group);
	await screenshot(page, 'credential-right-key');
	await page.keyboard.press('Escape');
	await credential.modal.waitFor({ state: 'hidden', timeout: 10_000 });
	await closeNodePanel(page);
}

async function openCredentialModal(page: Page): Promise<CredentialModal> {
	await openNodePanel(page, OBJECT_REMOVER.name);
	await ndv(page).getByTestId('credential-edit-button').click();
	const modal = page.getByTestId('editCredential-modal');
	await modal.waitFor({ state: 'visible' });
	const okBanner = modal.getByText(CREDENTIAL_OK);
	const failedBanner = modal.getByText(CREDENTIAL_FAILED);
	return {
		modal,
		apiKey: modal.getByTestId('parameter-input-apiKey').locator('input').first(),
		retry: modal.getByRole('button', { name: 'Retry' }),
		save: modal.getByTestId('credential-save-button'),
		testAnswer: async (button) => {
			const answer = page.waitForResponse((response) =>
				response.url().endsWith('/rest/credentials/test'),
			);
			await button.click();
			const body = (await (await answer).json().catch(() => ({}))) as {
				data?: { status?: string };
			};
			// Let the modal render the answer before its banner is read.
			await sleep(500);
			return String(body.data?.status);
		},
		banner: async () =>
			await Promise.race([
				okBanner.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS }).then(() => 'ok'),
				failedBanner.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS }).then(() => 'failed'),
			]).catch(() => 'none'),
	};
}

/** Opening a saved credential tests it. */
async function checkSavedCredential(
	{ modal, banner }: CredentialModal,
	group: string,
	service: RunningService,
): Promise<void> {
	equal(group, `the saved credential (service key): "${CREDENTIAL_OK}"`, await banner(), 'ok');
	equal(
		group,
		'Base URL shows the local service',
		await modal.getByTestId('parameter-input-baseUrl').locator('input').first().inputValue(),
		service.baseUrl,
	);
}

/** A wrong key fails the test with the service's 5002 message, and the key is never shown. */
async function checkWrongKey(
	{ modal, apiKey, retry, testAnswer, banner }: CredentialModal,
	group: string,
	service: RunningService,
): Promise<void> {
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
}

/** The right key passes the test on Retry, and again when saved. */
async function checkRightKeyAgain(
	{ apiKey, retry, save, testAnswer, banner }: CredentialModal,
	group: string,
): Promise<void> {
	await apiKey.fill(API_KEY);
	equal(
		group,
		'the right key again, Retry: n8n answers the test with OK',
		await testAnswer(retry),
		'OK',
	);
	equal(group, `the right key again, Retry: "${CREDENTIAL_OK}"`, await banner(), 'ok');
	equal(group, 'Save: n8n tests the saved credential again, OK', await testAnswer(save), 'OK');
	await save.getByText('Saved', { exact: true }).waitFor({ state: 'visible' });
	equal(group, 'saved with the right key: still tested successfully', await banner(), 'ok');
}

/**
 * The editor as a user sees it: the node panel (NDV), its parameters and dropdowns, the Options
 * collection and the output pane, found by n8n's data-test-id attributes.
 */
import type { Locator, Page } from 'playwright-core';

import { sleep } from '../n8n-app/report.ts';

/** What the checks read of an element inside the page (the DOM types are not loaded here). */
interface PageElement {
	offsetParent: unknown;
	innerText: string;
}

/** Polls `read` until `done` holds or the time is up; returns the last value read. */
export async function until<T>(
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

export function ndv(page: Page): Locator {
	return page.getByTestId('ndv');
}

/** A parameter's input in the open node panel, by its parameter name. */
export function parameter(page: Page, name: string): Locator {
	return ndv(page).getByTestId(`parameter-input-${name}`);
}

/** Entries of the open dropdown (options parameters and the Options collection). */
export function dropdownItems(page: Page, testId = 'parameter-input-item'): Locator {
	return page.getByTestId(testId).filter({ visible: true });
}

export async function openNodePanel(page: Page, nodeName: string): Promise<void> {
	await closeNodePanel(page);
	await page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`).dblclick();
	await ndv(page).waitFor({ state: 'visible' });
	await ndv(page).getByTestId('node-parameters').waitFor({ state: 'visible' });
	// The panel opens with an animation: let it settle before clicking inside.
	await sleep(500);
}

export async function closeNodePanel(page: Page): Promise<void> {
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
export async function shownParameters(page: Page): Promise<string[]> {
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
export async function shownLabels(page: Page): Promise<string[]> {
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
export async function choose(page: Page, name: string, option: string): Promise<string> {
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
export async function offeredOptions(page: Page): Promise<string[]> {
	await ndv(page).getByTestId('collection-parameter-add').filter({ visible: true }).click();
	const items = dropdownItems(page, 'collection-parameter-option');
	await items.first().waitFor({ state: 'visible' });
	const texts = (await items.allInnerTexts()).map((text) => text.trim());
	await page.keyboard.press('Escape');
	await items.first().waitFor({ state: 'hidden' });
	return texts;
}

export async function addOption(page: Page, option: string): Promise<void> {
	await ndv(page).getByTestId('collection-parameter-add').filter({ visible: true }).click();
	await dropdownItems(page, 'collection-parameter-option')
		.filter({ has: page.getByText(option, { exact: true }) })
		.click();
}

/** The output pane's table: column names and the cells of the first item. */
export async function firstOutputRow(page: Page): Promise<Record<string, string>> {
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

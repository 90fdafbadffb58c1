/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * What the run records for its summary: the checks and timed steps, notes, the browser's errors,
 * the docs/ screenshots it wrote, and a numbered screenshot of every step.
 */
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { Report } from '../n8n-app/report.ts';
import { SHOTS } from './settings.ts';

export const report = new Report();
export const check = report.check.bind(report);
export const equal = report.equal.bind(report);
export const timed = report.timed.bind(report);
export const groupFailed = report.groupFailed.bind(report);
export const notes: string[] = [];
/** Errors the editor's page logged, counted by message (for information, not failures). */
export const browserErrors = new Map<string, number>();
export const docsWritten: string[] = [];

let shotNumber = 0;
export async function screenshot(page: Page, name: string): Promise<string> {
	shotNumber += 1;
	const file = join(SHOTS, `${String(shotNumber).padStart(2, '0')}-${name}.png`);
	await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
	return file;
}

/**
 * Runs one group of UI checks. An exception (a locator that never appeared, …) fails the group
 * with its message and a screenshot; the next group starts from the canvas again.
 */
export async function section(page: Page, group: string, run: () => Promise<void>): Promise<void> {
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

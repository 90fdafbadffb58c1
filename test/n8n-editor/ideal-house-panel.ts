/**
 * The Ideal House AI panel: a resource whose fields load their options from the service's Style
 * Config endpoint. Switched to Change Furniture, the "Room Type Name or ID" dropdown must list
 * exactly the room types the service serves, right after the switch and again when the panel is
 * opened anew; the one picked is saved as the service's id.
 */
import type { Page } from 'playwright-core';

import { sleep } from '../n8n-app/report.ts';
import { choose, dropdownItems, openNodePanel, parameter, shownLabels, until } from './editor.ts';
import { savedNode, screenshotForDocs } from './panel-steps.ts';
import { check, equal, notes } from './record.ts';
import { API_KEY, CREDENTIAL, GROUPS, IDEAL_HOUSE, ROOM_TYPES, UI_TIMEOUT_MS } from './settings.ts';
import type { EditorRun } from './setup.ts';

interface StyleOption {
	name: { en: string };
	id: string;
}

/** The room types the service serves for Change Furniture, asked with the test's key. */
async function servedRoomTypes(baseUrl: string): Promise<StyleOption[]> {
	const response = await fetch(`${baseUrl}/api/v1/style/${ROOM_TYPES.styleKey}/getStyles`, {
		headers: { APIKEY: API_KEY },
	});
	const body = (await response.json()) as { data?: Record<string, StyleOption[]> };
	return body.data?.[ROOM_TYPES.group] ?? [];
}

/** The entries of the open dropdown, by their names (an entry's description is on later lines). */
async function shownEntries(page: Page): Promise<string[]> {
	return (await dropdownItems(page).allInnerTexts()).map((text) => text.split('\n')[0].trim());
}

/**
 * Opens the room type dropdown and reads its entries once all the expected ones are there, or
 * when `ms` is up: a list that failed to load shows none, and the checks say so. A click while
 * the editor is still loading the list may leave the dropdown closed, so a closed one is clicked
 * again once a second, as a user would.
 */
async function openedDropdown(page: Page, expected: string[], ms: number): Promise<string[]> {
	const field = parameter(page, ROOM_TYPES.parameter);
	await field.click();
	let clickedAt = Date.now();
	await until(
		async () => {
			const names = await shownEntries(page);
			if (names.length === 0 && Date.now() - clickedAt >= 1000) {
				await field.click();
				clickedAt = Date.now();
			}
			return names;
		},
		(names) => expected.length > 0 && expected.every((name) => names.includes(name)),
		ms,
	);
	// The list may still be rendering its last entries: read it again once settled.
	await sleep(300);
	return await shownEntries(page);
}

export async function checkIdealHouse(run: EditorRun): Promise<void> {
	const { page, session, service, workflowId } = run;
	const group = GROUPS.idealHouse;
	const served = await servedRoomTypes(service.baseUrl);
	const servedNames = served.map((option) => option.name.en);
	check(
		group,
		`the service serves room types for ${ROOM_TYPES.styleKey}, ${ROOM_TYPES.expected.join(' and ')} among them`,
		ROOM_TYPES.expected.every((name) => servedNames.includes(name)),
		servedNames.join(', ') || 'none',
	);

	await openNodePanel(page, IDEAL_HOUSE.name);
	const loadsBeforeSwitch = styleLoads(run);
	equal(
		group,
		'Resource can be set to Change Furniture',
		await choose(page, 'resource', 'Change Furniture'),
		'Change Furniture',
	);
	const labels = await shownLabels(page);
	check(
		group,
		`Change Furniture shows the label "${ROOM_TYPES.label}"`,
		labels.includes(ROOM_TYPES.label),
		labels.join(' | '),
	);

	// Virtual Staging's Room Type is a fixed list under the same parameter name, and n8n's editor
	// keeps the field it drew for it when the resource changes. The loaded field depends on the
	// resource, so the editor loads its list again on the switch: the service's room types must
	// be listed without opening the panel anew.
	const atSwitch = await openedDropdown(page, servedNames, UI_TIMEOUT_MS);
	const loadsAtSwitch = styleLoads(run);
	notes.push(
		`Ideal House AI: right after switching to Change Furniture, "${ROOM_TYPES.label}" lists ${atSwitch.join(', ') || 'nothing'}`,
	);
	check(
		group,
		'right after the switch, the editor asked the service for the room types (style.getStyles counted)',
		loadsAtSwitch > loadsBeforeSwitch,
		`style.getStyles requests: ${loadsBeforeSwitch} before the switch, ${loadsAtSwitch} after`,
	);
	if (
		!equal(
			group,
			`right after the switch, the dropdown lists ${ROOM_TYPES.serviceDefault}, then exactly the ${servedNames.length} room types the service serves, in its order`,
			atSwitch,
			[ROOM_TYPES.serviceDefault, ...servedNames],
		)
	)
		notes.push(`Ideal House AI: n8n's answer for the room types: ${await optionsOverRest(run)}`);
	await page.keyboard.press('Escape');

	const loadsBefore = styleLoads(run);
	await openNodePanel(page, IDEAL_HOUSE.name);
	equal(
		group,
		'opened again, the panel is on Change Furniture',
		await parameter(page, 'resource').locator('input').first().inputValue(),
		'Change Furniture',
	);
	const shown = await openedDropdown(page, servedNames, UI_TIMEOUT_MS);
	const loadsAfter = styleLoads(run);
	notes.push(`Ideal House AI: "${ROOM_TYPES.label}" lists ${shown.join(', ')}`);
	for (const name of ROOM_TYPES.expected)
		check(group, `the dropdown lists "${name}"`, shown.includes(name), shown.join(' | '));
	check(
		group,
		'the editor asked the service for them (style.getStyles counted as the panel opened)',
		loadsAfter > loadsBefore,
		`style.getStyles requests: ${loadsBefore} before, ${loadsAfter} after`,
	);
	// A single-choice list starts with the node's own "send no ID" entry, the field's empty default.
	if (
		!equal(
			group,
			`the dropdown lists ${ROOM_TYPES.serviceDefault}, then exactly the ${servedNames.length} room types the service serves, in its order`,
			shown,
			[ROOM_TYPES.serviceDefault, ...servedNames],
		)
	)
		notes.push(`Ideal House AI: n8n's answer for the room types: ${await optionsOverRest(run)}`);
	await screenshotForDocs(page, group, 'ideal-house-styles', 'editor-ideal-house-styles.png');

	const picked = served.find((option) => option.name.en === ROOM_TYPES.pick);
	await dropdownItems(page)
		.filter({ has: page.getByText(ROOM_TYPES.pick, { exact: true }) })
		.first()
		.click();
	await dropdownItems(page).first().waitFor({ state: 'hidden' });
	equal(
		group,
		`the field then shows "${ROOM_TYPES.pick}"`,
		await parameter(page, ROOM_TYPES.parameter).locator('input').first().inputValue(),
		ROOM_TYPES.pick,
	);
	const stored = await savedNode(
		page,
		session,
		workflowId,
		IDEAL_HOUSE.name,
		(saved) => saved[ROOM_TYPES.parameter] === picked?.id,
	);
	equal(
		group,
		`saved: resource changeFurniture, ${ROOM_TYPES.parameter} the service's id of ${ROOM_TYPES.pick}`,
		[stored.resource, stored[ROOM_TYPES.parameter]],
		['changeFurniture', picked?.id],
	);
}

/** How many Style Config requests the service has answered so far. */
function styleLoads({ service }: EditorRun): number {
	return service.stats().requests.byEndpoint['style.getStyles']?.total ?? 0;
}

/** What n8n's REST API answers the editor for the room types (to tell why a list stayed empty). */
async function optionsOverRest({ session, service }: EditorRun): Promise<string> {
	const answer = await session.rest('/rest/dynamic-node-parameters/options', {
		path: `parameters.${ROOM_TYPES.parameter}`,
		nodeTypeAndVersion: { name: IDEAL_HOUSE.type, version: 1 },
		methodName: `styles__${ROOM_TYPES.styleKey}__${ROOM_TYPES.group}`,
		currentNodeParameters: {
			resource: 'changeFurniture',
			operation: 'create',
			imageUrl: `${service.baseUrl}/samples/living-room.png`,
		},
		credentials: { idealHouseApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
	});
	return `HTTP ${answer.status} ${JSON.stringify(answer.json).slice(0, 800)}`;
}

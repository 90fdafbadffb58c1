/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * What the editor check works with: the folders run.sh hands it, the nodes, credential and
 * service it sets up, what the panels are expected to show, and how long the UI may take.
 */
import { join } from 'node:path';

import { localCredential, PACKAGE, runFolders } from '../n8n-app/report.ts';

const RUNNER = 'test/n8n-editor/run.sh';
export const { REPO, WORK, USER_FOLDER, N8N_APP, N8N_BIN } = runFolders('EDITOR', RUNNER);
export const CHROMIUM = process.env.EDITOR_CHROMIUM ?? '/usr/bin/chromium';
export const SHOTS = join(WORK, 'screenshots');
export const DOCS = join(REPO, 'docs');

export const PHOTO_ENHANCER = { name: 'Photo Enhancer', type: `${PACKAGE}.photoEnhancer` };
export const OBJECT_REMOVER = { name: 'Object Remover', type: `${PACKAGE}.objectRemover` };
export const IDEAL_HOUSE = { name: 'Ideal House AI', type: `${PACKAGE}.idealHouse` };
/** Change Furniture's room type: options the editor loads from the service's Style Config. */
export const ROOM_TYPES = {
	parameter: 'indoorTypeId',
	label: 'Room Type Name or ID',
	styleKey: 'change_furniture',
	group: 'roomType',
	expected: ['Living Room', 'Dining Room'],
	/** The entry a single-choice loaded list starts with: no ID sent, the service chooses. */
	serviceDefault: 'Service Default',
	pick: 'Dining Room',
};
export const CREDENTIAL = localCredential('IdealHouseEditor1');
export const API_KEY = 'n8n-editor-key';
export const WRONG_KEY = 'typed-by-mistake';
export const SERVICE_OPTIONS = {
	taskDurationMs: 300,
	workers: 2,
	seed: 20261122,
	accounts: { [API_KEY]: 100 },
};
export const PRESET = {
	search: 'sunset',
	label: 'Sky Replacement: Sunset Sky',
	id: 'sky-replacement-sunset-sky',
};
/** nodes/shared/descriptions/fields.ts: the Options collection, as offered before Download Result is on. */
export const OPTIONS_OFFERED = [
	'Credit Limit',
	'Download Result',
	'Max Requests per Second',
	'On Timeout',
	'Poll Interval (Seconds)',
	'Preview (Send Nothing)',
	'Timeout (Seconds)',
];
export const MASK_FIELDS = [
	{ source: 'URL', name: 'maskUrl', label: 'Mask URL' },
	{ source: 'Binary File', name: 'maskBinaryProperty', label: 'Mask Input Binary Field' },
	{ source: 'Base64', name: 'maskBase64', label: 'Mask (Base64)' },
];
export const CREDENTIAL_OK = 'Connection tested successfully';
export const CREDENTIAL_FAILED = 'Couldn’t connect with these settings';
export const KEY_REJECTED = 'Ideal House rejected the API key (code 5002';

/** The groups of UI checks, in the order they run; each one is a section of the summary. */
export const GROUPS = {
	canvas: 'editor: the imported workflow on the canvas',
	photoEnhancer: 'Photo Enhancer panel',
	objectRemover: 'Object Remover panel',
	photoFile: 'Ideal House AI panel (a photo from a file)',
	idealHouse: 'Ideal House AI panel (options loaded from the service)',
	credential: 'credential modal (connection test)',
};

/** Time a step of the UI may take (n8n's first page load on a busy machine is the slowest). */
export const UI_TIMEOUT_MS = 30_000;
/** A node run: the create, at least one 3 s poll, the result. */
export const EXECUTION_TIMEOUT_MS = 60_000;
export const WATCHDOG_MS = 8 * 60_000;

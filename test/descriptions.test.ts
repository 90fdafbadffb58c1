/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Saved workflows hold parameter names, option values and defaults, and the editor shows what the
 * descriptions say; none of it may change by accident, whatever is done to the code that builds
 * the descriptions. So the three nodes and the two credentials, as n8n sees them
 * (`scripts/node-descriptions.ts`), are compared with a committed snapshot: a change that is meant is
 * made by writing the snapshot again (`npx tsx scripts/describe-nodes.ts --write`), and then shows
 * in review as a diff of `test/fixtures/descriptions.json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describePackage, describePackageText } from '../scripts/node-descriptions';

const SNAPSHOT = join(__dirname, 'fixtures', 'descriptions.json');

test('the nodes and credentials are described as the committed snapshot says', () => {
	const snapshot = readFileSync(SNAPSHOT, 'utf8');

	// Compared as values first, for a readable diff; then as text, so that the file stays the
	// script's own output.
	expect(describePackage()).toEqual(JSON.parse(snapshot));
	expect(describePackageText()).toBe(snapshot);
});

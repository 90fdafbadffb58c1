/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Prints what saved workflows see of the package (`scripts/node-descriptions.ts`): the three nodes'
 * descriptions and the credential, keys sorted. With `--write`, updates the snapshot that
 * `test/descriptions.test.ts` compares against, for a change to the descriptions that is meant.
 *
 *   npx tsx scripts/describe-nodes.ts            # to stdout
 *   npx tsx scripts/describe-nodes.ts --write    # test/fixtures/descriptions.json
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describePackageText } from './node-descriptions';

const SNAPSHOT = join(__dirname, '..', 'test', 'fixtures', 'descriptions.json');

const text = describePackageText();
if (process.argv.includes('--write')) {
	writeFileSync(SNAPSHOT, text);
	process.stdout.write(`Wrote ${SNAPSHOT}\n`);
} else {
	process.stdout.write(text);
}

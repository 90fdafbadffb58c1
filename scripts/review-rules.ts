/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * n8n's current review rules that the registry's scanner (`npm run scan`) predates, run on the
 * built package (`npm run review:rules`, in `npm test` after the build): one credential per node,
 * codex categories, names of files and classes, the manifest, parameter defaults, and the copy
 * rules of n8n's UX guidelines (operation names, actions, subtitles, labels, placeholders, n8n's
 * words). Written from the rule pages of n8n's `@n8n/eslint-plugin-community-nodes`; it stays
 * until a scanner with those rules reaches the registry. Prints every error and exits non-zero on
 * any; warnings print by rule, each either followed or explained in docs/verification.md.
 *
 *   npm run review:rules                           # this checkout, after npm run build
 *   npx tsx scripts/review-rules.ts --root <dir>   # another checkout's build
 *   npx tsx scripts/review-rules.ts --verbose      # every warning, not only the first of each
 */
import { resolve } from 'node:path';

import { judge, readPackage, verificationPage } from './review-rules/review';
import type { Finding } from './review-rules/subjects';

const line = ({ rule, where, message }: Finding) => `${rule}: ${where}: ${message}`;

function main(): number {
	const rootIndex = process.argv.indexOf('--root');
	const root = resolve(rootIndex > 0 ? process.argv[rootIndex + 1] : resolve(__dirname, '..'));
	const verbose = process.argv.includes('--verbose');
	const pkg = readPackage(root);
	const explained = verificationPage(root);
	const { errors, warnings } = judge(pkg, explained);

	console.log(
		`review rules: ${pkg.nodes.length} nodes, ${pkg.credentials.length} credentials in ${root}`,
	);
	for (const rule of new Set(warnings.map((warning) => warning.rule))) {
		const ofRule = warnings.filter((warning) => warning.rule === rule);
		const why = explained.includes(`\`${rule}\``)
			? ' (not followed: docs/verification.md says why)'
			: '';
		console.log(`warning ${rule}: ${ofRule.length}${why}`);
		for (const warning of verbose ? ofRule : ofRule.slice(0, 1)) console.log(`  ${line(warning)}`);
	}
	// The same field on several resources reads the same: one line, with how often.
	const lines = errors.map(line);
	for (const text of new Set(lines)) {
		const times = lines.filter((other) => other === text).length;
		console.log(`error ${text}${times > 1 ? ` (×${times})` : ''}`);
	}
	console.log(`review rules: ${errors.length} error(s), ${warnings.length} warning(s)`);
	return errors.length > 0 ? 1 : 0;
}

process.exitCode = main();

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The error-level rules of n8n's community-nodes plugin that the registry's scanner predates and
 * that read the codex files, the manifest and the names of files and classes. Each function is
 * written from the rule's page in `packages/@n8n/eslint-plugin-community-nodes/docs/rules/`,
 * named after it.
 */
import { basename } from 'node:path';

import {
	nodeWhere,
	type CredentialUnderReview,
	type Finding,
	type NodeUnderReview,
	type PackageUnderReview,
} from './subjects';

/** n8n's node categories (docs: codex files, "Node categories"). */
export const NODE_CATEGORIES = [
	'Data & Storage',
	'Finance & Accounting',
	'Marketing & Content',
	'Productivity',
	'Miscellaneous',
	'Sales',
	'Development',
	'Analytics',
	'Communication',
	'Utility',
];

const asRecord = (value: unknown): Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};

const finding = (rule: string, where: string, message: string): Finding => ({
	rule,
	where,
	message,
});

/**
 * `valid-node-categories`: categories, when given, a non-empty list of strings from n8n's list.
 * `AI` is for nodes built on n8n's AI node SDK only (`no-ai-codex-category`), which these are not.
 */
export function validNodeCategories(node: NodeUnderReview): Finding[] {
	const where = `${nodeWhere(node)} codex`;
	const codex = asRecord(node.codex);
	if (!('categories' in codex)) return [];
	const categories = codex.categories;
	if (!Array.isArray(categories) || categories.length === 0) {
		return [finding('valid-node-categories', where, '"categories" must be a non-empty list')];
	}
	return categories.flatMap((category) => {
		if (typeof category !== 'string') {
			return [
				finding(
					'valid-node-categories',
					where,
					`category ${JSON.stringify(category)} is not a string`,
				),
			];
		}
		if (category === 'AI') {
			return [
				finding(
					'no-ai-codex-category',
					where,
					'"AI" is reserved for nodes built on @n8n/ai-node-sdk',
				),
			];
		}
		if (NODE_CATEGORIES.includes(category)) return [];
		const hint = category === 'Marketing' ? ' (n8n\'s category is "Marketing & Content")' : '';
		return [
			finding(
				'valid-node-categories',
				where,
				`"${category}" is not one of n8n's categories: ${NODE_CATEGORIES.join(', ')}${hint}`,
			),
		];
	});
}

/** `no-codex-subcategories`: a node that does not import the AI node SDK declares none. */
export function noCodexSubcategories(node: NodeUnderReview): Finding[] {
	return 'subcategories' in asRecord(node.codex)
		? [finding('no-codex-subcategories', `${nodeWhere(node)} codex`, 'declares "subcategories"')]
		: [];
}

/** `no-logic-or-flow-nodes`: no `Logic` or `Flow` among the categories or subcategories. */
export function noLogicOrFlowNodes(node: NodeUnderReview): Finding[] {
	const codex = asRecord(node.codex);
	const named = JSON.stringify([codex.categories ?? [], codex.subcategories ?? {}]);
	return /"(Logic|Flow)"/.test(named)
		? [finding('no-logic-or-flow-nodes', `${nodeWhere(node)} codex`, 'names Logic or Flow')]
		: [];
}

/** `node-class-description-name-camelcase`. */
export function nodeNameCamelCase(node: NodeUnderReview): Finding[] {
	const { name } = node.description;
	return /^[a-z][a-zA-Z0-9]*$/.test(name)
		? []
		: [
				finding(
					'node-class-description-name-camelcase',
					nodeWhere(node),
					`name "${name}" is not camelCase`,
				),
			];
}

/** `node-filename-against-convention`: X.node.* for a node named x (a V2, V3… suffix allowed). */
export function nodeFilenameAgainstConvention(node: NodeUnderReview): Finding[] {
	const { name } = node.description;
	const expected = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
	const stem = basename(node.file).replace(/\.node\.(js|ts)$/, '');
	return stem.replace(/V\d+$/, '') === expected
		? []
		: [
				finding(
					'node-filename-against-convention',
					nodeWhere(node),
					`file should be named ${expected}.node.ts after the node's name "${name}"`,
				),
			];
}

/** `cred-class-name-field-conventions`, `cred-class-name-suffix`, `cred-filename-against-convention`. */
export function credentialNaming({
	file,
	className,
	credential,
}: CredentialUnderReview): Finding[] {
	const where = `${credential.name} (${file})`;
	const found: Finding[] = [];
	if (!/^[a-z]/.test(credential.name) || !credential.name.endsWith('Api')) {
		found.push(
			finding(
				'cred-class-name-field-conventions',
				where,
				`name "${credential.name}" must start in lower case and end with "Api"`,
			),
		);
	}
	if (!className.endsWith('Api')) {
		found.push(finding('cred-class-name-suffix', where, `class ${className} must end with "Api"`));
	}
	if (basename(file).replace(/\.credentials\.(js|ts)$/, '') !== className) {
		found.push(
			finding(
				'cred-filename-against-convention',
				where,
				`file should be named ${className}.credentials.ts`,
			),
		);
	}
	return found;
}

/** `require-mit-license` and `no-monorepo`, on package.json. */
export function manifestRules({ manifest }: PackageUnderReview): Finding[] {
	const found: Finding[] = [];
	if (manifest.license !== 'MIT') {
		found.push(finding('require-mit-license', 'package.json', 'license must be "MIT"'));
	}
	if ('directory' in asRecord(manifest.repository)) {
		found.push(
			finding('no-monorepo', 'package.json', 'repository.directory marks a monorepo package'),
		);
	}
	return found;
}

/**
 * `no-hardcoded-ids`: a partner, affiliate, reseller, account, tenant, customer or client ID
 * written into a node's source as a string, where the user should set it.
 */
export function noHardcodedIds({ nodeSources }: PackageUnderReview): Finding[] {
	const assignment =
		/\b['"]?(partner|affiliate|reseller|account|tenant|customer|client)[_-]?id['"]?\s*[:=]\s*['"`]/gi;
	return Object.entries(nodeSources).flatMap(([file, source]) =>
		[...source.matchAll(assignment)].map((match) =>
			finding('no-hardcoded-ids', file, `a fixed ${match[1]} ID: let the user set it`),
		),
	);
}

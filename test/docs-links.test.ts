/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { anchorsOf, brokenLinks, slugOf } from './helpers/markdown-links';

const ROOT = join(__dirname, '..');

/** The pages users and maintainers read: the top-level guides and everything under docs/. */
function pages(): string[] {
	const walk = (folder: string): string[] =>
		readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
			entry.isDirectory()
				? walk(join(folder, entry.name))
				: entry.name.endsWith('.md')
					? [relative(ROOT, join(folder, entry.name))]
					: [],
		);
	return [
		'README.md',
		'CONTRIBUTING.md',
		'CHANGELOG.md',
		'RELEASING.md',
		join('service', 'README.md'),
		...walk(join(ROOT, 'docs')),
	];
}

describe('every link of the documentation resolves', () => {
	it.each(pages())('%s', (file) => {
		expect(brokenLinks(ROOT, file)).toEqual([]);
	});

	it('covers the pages the README links to', () => {
		expect(pages()).toEqual(
			expect.arrayContaining([
				join('docs', 'photo-files.md'),
				join('docs', 'errors.md'),
				join('docs', 'ideal-house-api.md'),
				join('docs', 'bench', 'log.md'),
			]),
		);
	});
});

describe('the link check itself', () => {
	let root: string;
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), 'links-'));
		mkdirSync(join(root, 'docs'));
		writeFileSync(
			join(root, 'docs', 'topic.md'),
			'# Topic\n\n## What it costs and how long it takes\n\n## Repeat\n\n## Repeat\n\n### `code` and **bold**, 1,000 × 2\n',
		);
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	const check = (markdown: string) => {
		writeFileSync(join(root, 'page.md'), markdown);
		return brokenLinks(root, 'page.md');
	};

	it('makes anchors as GitHub does', () => {
		expect(slugOf('What it costs and how long it takes')).toBe(
			'what-it-costs-and-how-long-it-takes',
		);
		expect(slugOf('2026-11-25: withdrawn checks: 1,000 queued tasks')).toBe(
			'2026-11-25-withdrawn-checks-1000-queued-tasks',
		);
		expect([...anchorsOf('## Repeat\n## Repeat\n```\n## not a heading\n```\n')]).toEqual([
			'repeat',
			'repeat-1',
		]);
	});

	it('passes links that resolve', () => {
		expect(
			check(
				'[a](docs/topic.md) [b](docs/topic.md#repeat-1) [c](docs/) [d](#local) [e](https://docs.n8n.io/x)\n\n## Local\n',
			),
		).toEqual([]);
	});

	it('reports a missing file, a missing anchor and a malformed external link, with their lines', () => {
		expect(
			check('[a](docs/gone.md)\n[b](docs/topic.md#nowhere)\n[c](https://localhost)\n[d](#none)\n'),
		).toEqual([
			'page.md:1: docs/gone.md: docs/gone.md does not exist',
			'page.md:2: docs/topic.md#nowhere: docs/topic.md has no heading #nowhere',
			'page.md:3: https://localhost: names no public host',
			'page.md:4: #none: page.md has no heading #none',
		]);
	});

	it('reads no link inside code', () => {
		expect(check('`[a](docs/gone.md)`\n\n```\n[b](docs/gone.md)\n```\n')).toEqual([]);
	});

	it('checks headings with code, emphasis and symbols', () => {
		expect(check('[a](docs/topic.md#code-and-bold-1000--2)\n')).toEqual([]);
	});
});

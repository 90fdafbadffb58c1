/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	describedWorkflowProblems,
	readQuickStart,
	type Workflow,
} from './n8n-app/quick-start-guide';

const ROOT = join(__dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

// The real-n8n suite follows the Quick start in n8n (test/n8n-app/e2e-quick-start.ts); this holds
// the README's words and the example to each other on every `npm test`.
describe("the README's Quick start", () => {
	const guide = readQuickStart(readme);

	it('names a workflow file, its nodes, a preset, the field to replace and what comes out', () => {
		expect(guide).toEqual({
			file: 'examples/quick-start.json',
			chain: ['Manual Trigger', 'Your photo', 'Enhance the photo'],
			presetLabel: 'Sky Replacement: Sunset Sky',
			photoField: 'photoUrl',
			outputs: expect.arrayContaining(['status', 'Success', 'output.resultUrl', 'creditsCharged']),
			credits: 10,
		});
	});

	it('describes the workflow file it names', () => {
		const workflow = JSON.parse(readFileSync(join(ROOT, guide!.file), 'utf8')) as Workflow;
		expect(describedWorkflowProblems(guide!, workflow)).toEqual([]);
	});

	it('finds a workflow that differs from it', () => {
		const workflow = JSON.parse(readFileSync(join(ROOT, guide!.file), 'utf8')) as Workflow;
		const enhancer = workflow.nodes.find((node) => node.name === 'Enhance the photo')!;
		enhancer.parameters.presetId = 'sky-replacement-dramatic-sunset';
		expect(describedWorkflowProblems(guide!, workflow)).toEqual([
			'its preset is sky-replacement-dramatic-sunset',
		]);
	});

	it('is about ten lines', () => {
		const section = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)![1];
		expect(section.split('\n').filter((line) => line.trim()).length).toBeLessThanOrEqual(10);
	});
});

describe('the README as a whole', () => {
	const lines = readme.split('\n');

	it('is at most about 250 lines, none over 300 characters', () => {
		expect(lines.length).toBeLessThanOrEqual(250);
		expect(lines.filter((line) => line.length > 300)).toEqual([]);
	});

	it('keeps the two commands for a fresh clone', () => {
		expect(readme).toContain('source scripts/node24.sh && npm install && npm run demo');
		expect(readme).toContain('source scripts/node24.sh && npm test');
	});
});

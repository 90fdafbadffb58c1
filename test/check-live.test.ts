/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * `npm run check:live` against the local service with a known key: the plan and the style lists
 * spend nothing; --spend runs the planned tasks through the nodes, the balance drops by exactly
 * the printed total, and the answers are saved without the key. Both shapes of the style answer
 * are read without a difference; a shape the node's loader cannot read is reported.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { main } from '../scripts/check-live';
import type { RunningService } from '../service/server.ts';
import { eachTestOnTheLocalService, sampleUrl } from './e2e/helpers';

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets
const KEY = 'live-check-key-7d41b2';
const START = 1000;

let service: RunningService;
let out: string;

eachTestOnTheLocalService({ accounts: { [KEY]: START } }, (started) => (service = started));

beforeEach(() => {
	out = mkdtempSync(join(tmpdir(), 'ideal-house-live-'));
});

afterEach(() => rmSync(out, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ code: number; output: string }> {
	const lines: string[] = [];
	const code = await main(
		['--base-url', service.baseUrl, '--out', out, ...args],
		{ IDEAL_HOUSE_API_KEY: KEY },
		(line) => lines.push(line),
	);
	return { code, output: lines.join('\n') };
}

const printedTotal = (output: string) => Number(/Total: (\d+) credits/.exec(output)?.[1]);

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name));
}

const STYLE_KEYS = [
	'home_decor_ideas',
	'change_furniture',
	'interoir_remodel',
	'ai_plan_visualizer',
	'landscaping',
];

describe('check:live', () => {
	it('without --spend prints the plan, reads the five style lists and spends nothing', async () => {
		const { code, output } = await run();
		expect(code).toBe(0);
		expect(output).toMatch(/virtualStaging +1 credit /);
		expect(output).toMatch(/magicEditor-Flash +1 credit /);
		expect(output).toMatch(/photoEnhancer-512 +10 credits/);
		expect(output).toMatch(/objectRemover-whole_house +1 credit /);
		expect(printedTotal(output)).toBe(13);
		expect(output).toContain('Spending nothing');
		expect(output).toContain('Differences: none');
		expect(service.balance(KEY)).toBe(START);
		const stats = service.stats();
		expect(stats.tasksCreated.total).toBe(0);
		expect(stats.credits.charged).toBe(0);
		expect(stats.requests.byEndpoint['style.getStyles']?.total).toBe(5);
		for (const key of STYLE_KEYS) {
			const fixture = JSON.parse(readFileSync(join(out, 'styles', `${key}.json`), 'utf8'));
			expect(fixture.answer.code).toBe(0);
			expect(fixture.groupsTheNodeLoads.length).toBeGreaterThan(0);
		}
		expect(existsSync(join(out, 'tasks'))).toBe(false);
	});

	it('refuses --spend without --image-url, before any request', async () => {
		const { code, output } = await run('--spend');
		expect(code).toBe(2);
		expect(output).toContain('--spend needs --image-url');
		expect(service.stats().requests.total).toBe(0);
		expect(service.balance(KEY)).toBe(START);
	});

	it('with --spend runs the tasks, spends exactly the printed total and saves the answers without the key', async () => {
		const { code, output } = await run(
			'--spend',
			'--image-url',
			sampleUrl(service, 'living-room.png'),
		);
		expect(output).toContain('Differences: none');
		expect(code).toBe(0);
		const total = printedTotal(output);
		expect(total).toBe(13);
		expect(START - service.balance(KEY)).toBe(total);
		const stats = service.stats();
		expect(stats.tasksCreated.total).toBe(4);
		expect(stats.tasks.map((task) => task.status)).toEqual(Array(4).fill('Success'));

		const files = filesUnder(out);
		expect(files.length).toBe(5 + 4 + 1);
		for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain(KEY);
		for (const name of [
			'virtualStaging',
			'magicEditor-Flash',
			'photoEnhancer-512',
			'objectRemover-whole_house',
		]) {
			const fixture = JSON.parse(readFileSync(join(out, 'tasks', `${name}.json`), 'utf8'));
			expect(fixture.item.status).toBe('Success');
			// The create's answer, as it came: the id a bare 64-bit number.
			const create = fixture.answers[0];
			expect(create.path).toMatch(/\/generate$/);
			expect(create.raw).toMatch(/"data":\d{17,}/);
			expect(create.answer.data).toBe(fixture.item.id);
			const last = fixture.answers[fixture.answers.length - 1];
			expect(last.answer.data.status).toBe('Success');
			expect(fixture.readAgain.answer.data.id).toBe(fixture.item.id);
		}
		const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
		expect(summary.totalCredits).toBe(total);
		expect(summary.differences).toEqual([]);
	});

	it("reads the style answer's other shape (a list of named groups) without a difference", async () => {
		service.configure({ styleShape: 'namedGroupList' });
		const { code, output } = await run();
		expect(output).toContain('Differences: none');
		expect(code).toBe(0);
	});

	it('reports a style answer the loader cannot read', async () => {
		service.configure({ faults: { malformed: 1, endpoints: ['style'] } });
		const { code, output } = await run();
		expect(code).toBe(1);
		expect(output).toMatch(/Differences \(5\)/);
		expect(output).toMatch(/style landscaping: not a JSON object/);
		expect(service.balance(KEY)).toBe(START);
	});

	it('reports a refused key without printing or saving it', async () => {
		const { code, output } = await run('--api-key', 'wrong-key-1234');
		expect(code).toBe(1);
		expect(output).toMatch(/style landscaping: code 5002/);
		expect(output).not.toContain('wrong-key-1234');
		for (const file of filesUnder(out))
			expect(readFileSync(file, 'utf8')).not.toContain('wrong-key-1234');
	});
});

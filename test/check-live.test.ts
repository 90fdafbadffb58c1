/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * `npm run check:live` against the local service with a known key: the plan and the style lists
 * spend nothing; --spend runs the planned tasks through the nodes, the balance drops by exactly
 * the printed total, and the answers are saved without the key. Both shapes of the style answer
 * are read without a difference; a shape the node's loader cannot read is reported. With
 * --storage, a photo file goes through a real S3 server (s3rver behind the signature-verifying
 * proxy) and the `data:` URI probe's answer is reported.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { main } from '../scripts/check-live';
import type { RunningService } from '../service/server.ts';
import { eachTestOnTheLocalService, sampleBytes, sampleUrl } from './e2e/helpers';
import {
	startTestStorage,
	STORAGE_BUCKET,
	STORAGE_KEY_ID,
	STORAGE_REGION,
	STORAGE_SECRET,
	type TestStorage,
} from './helpers/s3-storage';

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
	return await runWith({}, ...args);
}

async function runWith(
	env: Record<string, string>,
	...args: string[]
): Promise<{ code: number; output: string }> {
	const lines: string[] = [];
	const code = await main(
		['--base-url', service.baseUrl, '--out', out, ...args],
		{ IDEAL_HOUSE_API_KEY: KEY, ...env },
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

describe('check:live --storage', () => {
	let storage: TestStorage;
	beforeAll(async () => {
		storage = await startTestStorage();
	});
	afterAll(async () => await storage.close());
	beforeEach(() => {
		storage.requests.length = 0;
	});

	/** The bucket as a key holder sets it, in the environment; path style, as s3rver needs. */
	const storageEnv = () => ({
		IDEAL_HOUSE_STORAGE_ENDPOINT: storage.endpoint,
		IDEAL_HOUSE_STORAGE_REGION: STORAGE_REGION,
		IDEAL_HOUSE_STORAGE_BUCKET: STORAGE_BUCKET,
		IDEAL_HOUSE_STORAGE_ACCESS_KEY_ID: STORAGE_KEY_ID,
		IDEAL_HOUSE_STORAGE_SECRET_ACCESS_KEY: STORAGE_SECRET,
		IDEAL_HOUSE_STORAGE_FORCE_PATH_STYLE: 'true',
	});
	const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

	it('without --spend adds the file task and the data: URI probe to the plan, and touches nothing', async () => {
		const { code, output } = await runWith(storageEnv(), '--storage');
		expect(code).toBe(0);
		expect(output).toMatch(/virtualStaging-from-file +1 credit +Virtual Staging: .*your bucket/);
		expect(output).toMatch(
			/dataUri-probe +1 credit +Virtual Staging: .*data: URI.*at most 1 credit/,
		);
		expect(output).toMatch(/Total: 15 credits at most/);
		expect(output).toContain(`through bucket "${STORAGE_BUCKET}" at 127.0.0.1:`);
		expect(output).toContain('Spending nothing');
		expect(storage.requests).toEqual([]);
		expect(service.stats().tasksCreated.total).toBe(0);
		expect(service.balance(KEY)).toBe(START);
	});

	it('refuses --storage without a bucket, naming where to set it, before any request', async () => {
		const env: Record<string, string> = storageEnv();
		delete env.IDEAL_HOUSE_STORAGE_BUCKET;
		const { code, output } = await runWith(env, '--storage');
		expect(code).toBe(2);
		expect(output).toMatch(
			/--storage: Bucket is not a valid bucket name: it is empty.*IDEAL_HOUSE_STORAGE_\*/,
		);
		expect(service.stats().requests.total).toBe(0);
		expect(storage.requests).toEqual([]);
	});

	it('with --spend stages the photo file through the bucket, the object gone after, and reports the data: URI probe', async () => {
		const photo = await sampleBytes(service, 'living-room.png');
		const { code, output } = await runWith(
			{},
			'--spend',
			'--storage',
			'--image-url',
			sampleUrl(service, 'living-room.png'),
			// The settings as options this time, the secret among them.
			'--storage-endpoint',
			storage.endpoint,
			'--storage-region',
			STORAGE_REGION,
			'--storage-bucket',
			STORAGE_BUCKET,
			'--storage-access-key-id',
			STORAGE_KEY_ID,
			'--storage-secret-access-key',
			STORAGE_SECRET,
			'--storage-force-path-style',
		);
		expect(output).toContain('Differences: none');
		expect(code).toBe(0);
		expect(output).toMatch(/virtualStaging-from-file: Success, id \d{17,}, 1 credits/);
		expect(output).toMatch(
			/the service fetched http:\/\/127\.0\.0\.1:\d+\/listing-photos\/ideal-house-uploads\/[0-9a-f]{32}\.png through a presigned link \(\d+ s\); afterwards the object is gone \(HEAD 404\)/,
		);

		// The service's input was the file's own bytes, fetched through the link; nothing is left.
		const put = storage.requests.filter((request) => request.method === 'PUT');
		expect(put).toMatchObject([{ status: 200, sha256: sha256(photo), verdict: { ok: true } }]);
		const fetched = storage.requests.filter(
			(request) => request.method === 'GET' && request.verdict.ok && request.verdict.presigned,
		);
		expect(fetched).toMatchObject([{ path: put[0].path, status: 200, sha256: sha256(photo) }]);
		expect(storage.requests.filter((request) => request.method === 'DELETE')).toMatchObject([
			{ path: put[0].path, status: 204 },
		]);
		expect(await storage.keys()).toEqual([]);
		expect(storage.requests.every((request) => request.verdict.ok)).toBe(true);
		const fileTask = service
			.stats()
			.tasks.find((task) => String(task.imageUrl).includes('/ideal-house-uploads/'));
		expect(new URL(String(fileTask?.imageUrl)).pathname).toBe(put[0].path);

		// The local service fetches only http(s): the probe is refused, its code and message shown.
		expect(output).toContain(
			`dataUri-probe: refused: HTTP 200, code 1011, "imageUrl (data:image/png;base64,… (${photo.length} bytes)) must be an http or https URL"`,
		);
		const probe = JSON.parse(readFileSync(join(out, 'tasks', 'dataUri-probe.json'), 'utf8'));
		expect(probe.accepted).toBe(false);
		expect(probe.sent.imageUrl).toBe(`data:image/png;base64,… (${photo.length} bytes)`);
		// Four URL tasks and the file task; the refused probe cost nothing.
		expect(service.stats().tasksCreated.total).toBe(5);
		expect(START - service.balance(KEY)).toBe(14);

		for (const file of filesUnder(out)) {
			const text = readFileSync(file, 'utf8');
			expect(text).not.toContain(KEY);
			expect(text).not.toContain(STORAGE_SECRET);
		}
		expect(output).not.toContain(STORAGE_SECRET);
	});
});

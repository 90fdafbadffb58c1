/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * Live check: the package against the real Ideal House API, for whoever holds a key. Never run in
 * CI against the real service.
 *
 * 1. Prints the tasks it would run and what they cost, with the total. Without --spend it stops
 *    there, having spent nothing.
 * 2. Fetches the five style lists (free) and reads them as the node's option loader does.
 * 3. With --spend, runs the cheapest task of each price kind through the real nodes in n8n's
 *    engine: a flat 1-credit API (Virtual Staging), an API priced by model type at its cheapest
 *    tier (Magic Editor, Flash), the Photo Enhancer at 512 px and the Object Remover (whole house).
 * 4. Compares every answer's shape with what the nodes and the local service expect, prints the
 *    differences, and saves the answers, the API key removed, as JSON fixtures.
 *
 *   IDEAL_HOUSE_API_KEY=… npm run check:live                                   # plan and style lists
 *   IDEAL_HOUSE_API_KEY=… npm run check:live -- --spend --image-url https://…/room.jpg
 *   npm run check:live -- --help
 */
import './n8n-env';

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { NodeName } from '../test/helpers/engine';
import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node.ts';
import { displayName, findGroup } from '../nodes/IdealHouse/methods/styles';
import { KNOWN_STATUSES, serviceBaseUrl } from '../nodes/shared/catalog/service';
import { APIS, type IdealHouseApi } from '../nodes/shared/catalog/apis';
import { price } from '../nodes/shared/catalog/credits';
import { parseJsonKeepingLongs } from '../nodes/shared/core/long-ids';
import { redact } from '../nodes/shared/core/redact';

export const DEFAULT_BASE_URL = 'https://api.ideal.house';
/** Shown in the plan; the tasks need a photo the user chooses, so nothing is spent on this one. */
export const IMAGE_URL_PLACEHOLDER = 'https://example.com/your-room-photo.jpg';
const STYLE_TIMEOUT_MS = 15_000;
const REPO = join(__dirname, '..');

export interface CheckLiveOptions {
	apiKey: string;
	baseUrl: string;
	spend: boolean;
	/** The photo every task works on; required with `spend`. */
	imageUrl?: string;
	/** Where the fixtures go. */
	out: string;
	/** Where the report goes, one line at a time. */
	log?: (line: string) => void;
}

/** One task of the plan: which node runs it, with which parameters, at which price. */
export interface PlannedTask {
	name: string;
	/** The price kind it stands for. */
	kind: string;
	node: NodeName;
	api: IdealHouseApi;
	parameters: (imageUrl: string) => INodeParameters;
	/** The fields of the create body that its price depends on. */
	sent: IDataObject;
	credits: number;
}

/** The cheapest model type of an API priced by model type. */
function cheapestTier(api: IdealHouseApi): string {
	const rule = api.price;
	if (!('byModelType' in rule)) throw new Error(`${api.name} is not priced by model type`);
	return Object.entries(rule.byModelType).sort((a, b) => a[1] - b[1])[0][0];
}

function planned(task: Omit<PlannedTask, 'credits'>): PlannedTask {
	const credits = price(task.api, task.sent);
	if (credits === null) throw new Error(`no known price for ${task.name}`);
	return { ...task, credits };
}

/** The cheapest task of each price kind. */
export function plan(): PlannedTask[] {
	const tier = cheapestTier(APIS.magicEditor);
	return [
		planned({
			name: 'virtualStaging',
			kind: 'flat price, 1 credit',
			node: 'idealHouse',
			api: APIS.virtualStaging,
			parameters: (imageUrl) => ({ resource: 'virtualStaging', operation: 'create', imageUrl }),
			sent: {},
		}),
		planned({
			name: `magicEditor-${tier}`,
			kind: `price by model type, cheapest tier (${tier})`,
			node: 'idealHouse',
			api: APIS.magicEditor,
			parameters: (imageUrl) => ({
				resource: 'magicEditor',
				operation: 'create',
				imageUrl,
				modelType: tier,
				prompt: 'Brighten the room',
			}),
			sent: { modelType: tier },
		}),
		planned({
			name: 'photoEnhancer-512',
			kind: 'flat price, 10 credits, at 512 px',
			node: 'photoEnhancer',
			api: APIS.photoEnhancer,
			parameters: (imageUrl) => ({
				operation: 'enhance',
				imageUrl,
				presetId: 'image-optimization-mls-photo-enhancement',
				imageSize: '512',
			}),
			sent: { imageSize: '512' },
		}),
		planned({
			name: 'objectRemover-whole_house',
			kind: 'flat price, 1 credit, whole house',
			node: 'objectRemover',
			api: APIS.objectRemover,
			parameters: (imageUrl) => ({ operation: 'remove', imageUrl, emptyType: 'whole_house' }),
			sent: { emptyType: 'whole_house' },
		}),
	];
}

/** The style keys of the catalog: the option lists of the Ideal House AI node. */
export const STYLE_KEYS = [
	...new Set(
		Object.values(APIS)
			.map((api: IdealHouseApi) => api.styleKey)
			.filter((key): key is string => key !== undefined),
	),
];

/** The groups the node's fields load from each style key, from its loader names. */
export function expectedGroups(): Record<string, string[]> {
	const groups: Record<string, string[]> = {};
	for (const property of new IdealHouse().description.properties) {
		const method = property.typeOptions?.loadOptionsMethod;
		const match = typeof method === 'string' ? /^styles__(.+)__([^_].*)$/.exec(method) : null;
		if (!match) continue;
		const list = (groups[match[1]] ??= []);
		if (!list.includes(match[2])) list.push(match[2]);
	}
	return groups;
}

/** One answer of the service, as it came: its body text and, where it is JSON, the parsed body. */
export interface Answer {
	method: string;
	path: string;
	status: number;
	raw: string;
	/** The body parsed with long integers kept as exact decimal text; undefined if not JSON. */
	answer?: unknown;
}

function parsed(raw: string): unknown {
	try {
		return parseJsonKeepingLongs(raw);
	} catch {
		return undefined;
	}
}

function decoded(body: Buffer, encoding: string | undefined): string {
	try {
		if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
		if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
		if (encoding === 'deflate') return inflateSync(body).toString('utf8');
	} catch {
		return `(undecodable ${encoding} body of ${body.length} bytes)`;
	}
	return body.toString('utf8');
}

/**
 * Records the answers to the API requests n8n sends to `host` while the nodes run, from Node's
 * own HTTP client events: the body is copied as the response receives it, and n8n reads it as
 * before.
 */
function recordAnswers(host: string): { answers: Answer[]; stop: () => void } {
	const answers: Answer[] = [];
	const onStart = (message: unknown) => {
		const { request } = message as { request: ClientRequest };
		if (request.host !== host || !request.path.startsWith('/api/')) return;
		request.prependListener('response', (response: IncomingMessage) => {
			const chunks: Buffer[] = [];
			const push = response.push.bind(response);
			response.push = (chunk: unknown, encoding?: BufferEncoding) => {
				if (chunk !== null && chunk !== undefined)
					chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), encoding));
				return push(chunk, encoding);
			};
			response.once('end', () => {
				const encoding = response.headers['content-encoding'];
				const raw = decoded(Buffer.concat(chunks), encoding);
				answers.push({
					method: request.method,
					path: request.path,
					status: response.statusCode ?? 0,
					raw,
					answer: parsed(raw),
				});
			});
		});
	};
	subscribe('http.client.request.start', onStart);
	return { answers, stop: () => unsubscribe('http.client.request.start', onStart) };
}

// ---------------------------------------------------------------------------------------------
// Shapes: what the nodes read and the local service writes.

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const isTaskId = (value: unknown) =>
	(typeof value === 'string' && /^\d+$/.test(value)) ||
	(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0);

const typeName = (value: unknown) =>
	value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** The envelope `{code, message, data}`; its data when code is 0. */
function envelopeDifferences(answer: Answer, where: string, out: string[]): unknown {
	if (answer.status !== 200) out.push(`${where}: HTTP ${answer.status} (the service answers 200)`);
	if (!isObject(answer.answer)) {
		out.push(`${where}: not a JSON object: ${redactedSnippet(answer.raw)}`);
		return undefined;
	}
	const { code, message } = answer.answer;
	if (typeof code !== 'number') out.push(`${where}: code is ${typeName(code)}, not a number`);
	if (typeof message !== 'string')
		out.push(`${where}: message is ${typeName(message)}, not a string`);
	if (!('data' in answer.answer)) out.push(`${where}: no data field`);
	const extra = Object.keys(answer.answer).filter((k) => !['code', 'message', 'data'].includes(k));
	if (extra.length > 0) out.push(`${where}: envelope fields not in the spec: ${extra.join(', ')}`);
	if (code !== 0) {
		out.push(`${where}: code ${String(code)} (${String(message)})`);
		return undefined;
	}
	return answer.answer.data;
}

/** A create's data: the task id, written as a bare number as the local service writes it. */
function createDifferences(answer: Answer, where: string, out: string[]): void {
	const data = envelopeDifferences(answer, where, out);
	if (data === undefined) return;
	if (!isTaskId(data)) out.push(`${where}: data is ${typeName(data)}, not a task id`);
	else if (!/"data"\s*:\s*\d/.test(answer.raw))
		out.push(`${where}: the task id is written as a string (the local service writes a number)`);
}

const TASK_FIELDS = ['id', 'status', 'waitNumber', 'percentage', 'input', 'output'];
const OUTPUT_FIELDS = ['resultUrl', 'width', 'height'];

/** A task: id, status, waitNumber, percentage, input, output {resultUrl, width, height}. */
export function taskDifferences(data: unknown, where: string, out: string[]): void {
	if (!isObject(data)) {
		out.push(`${where}: data is ${typeName(data)}, not a task object`);
		return;
	}
	if (!isTaskId(data.id)) out.push(`${where}: id is ${typeName(data.id)}, not a task id`);
	if (typeof data.status !== 'string' || !KNOWN_STATUSES.includes(data.status))
		out.push(
			`${where}: status ${JSON.stringify(data.status)} is not one of ${KNOWN_STATUSES.join(', ')}`,
		);
	for (const field of ['waitNumber', 'percentage']) {
		if (typeof data[field] !== 'number')
			out.push(`${where}: ${field} is ${typeName(data[field])}, not a number`);
	}
	if (!isObject(data.input)) out.push(`${where}: input is ${typeName(data.input)}, not an object`);
	const extra = Object.keys(data).filter((key) => !TASK_FIELDS.includes(key));
	if (extra.length > 0) out.push(`${where}: task fields not in the spec: ${extra.join(', ')}`);
	const output = data.output;
	if (data.status === 'Success') {
		if (!isObject(output)) {
			out.push(`${where}: a Success task's output is ${typeName(output)}, not an object`);
			return;
		}
		if (typeof output.resultUrl !== 'string')
			out.push(`${where}: output.resultUrl is ${typeName(output.resultUrl)}, not a string`);
		for (const field of ['width', 'height']) {
			if (typeof output[field] !== 'number' && output[field] !== null)
				out.push(`${where}: output.${field} is ${typeName(output[field])}, not a number`);
		}
		const more = Object.keys(output).filter(
			(key) => !OUTPUT_FIELDS.includes(key) && key !== 'resultList',
		);
		if (more.length > 0) out.push(`${where}: output fields not in the spec: ${more.join(', ')}`);
	} else if (output !== null && output !== undefined && !isObject(output)) {
		out.push(`${where}: output is ${typeName(output)}, not null or an object`);
	}
}

/**
 * A style answer, read as the node's option loader reads it: every group the node's fields load
 * is found, and each of its options has `name`, `id` and `url`.
 */
export function styleDifferences(
	answer: Answer,
	styleKey: string,
	groups: string[],
	out: string[],
): { found: string[]; options: Record<string, number> } {
	const where = `style ${styleKey}`;
	const data = envelopeDifferences(answer, where, out);
	const seen = new Set<string>();
	const options: Record<string, number> = {};
	if (data === undefined) return { found: [], options };
	for (const group of groups) {
		const list = findGroup(data, group, seen);
		if (!list) {
			out.push(`${where}: the node's loader finds no group "${group}"`);
			continue;
		}
		options[group] = list.length;
		if (list.length === 0) out.push(`${where}: group "${group}" is empty`);
		list.forEach((option, index) => {
			const at = `${where} ${group}[${index}]`;
			if (!isObject(option)) {
				out.push(`${at}: ${typeName(option)}, not an object`);
				return;
			}
			if (displayName(option.name) === undefined)
				out.push(`${at}: name is ${typeName(option.name)}, without a readable name`);
			if (typeof option.id !== 'string' && typeof option.id !== 'number')
				out.push(`${at}: id is ${typeName(option.id)}, not a string`);
			if (typeof option.url !== 'string')
				out.push(`${at}: url is ${typeName(option.url)}, not a string`);
		});
	}
	return { found: [...seen], options };
}

// ---------------------------------------------------------------------------------------------

let secrets: string[] = [];
const clean = (text: string) => redact(text, secrets, Number.POSITIVE_INFINITY);
const redactedSnippet = (text: string) => redact(text, secrets, 120);

function writeFixture(dir: string, name: string, value: unknown): string {
	mkdirSync(dir, { recursive: true });
	const path = join(dir, `${name}.json`);
	writeFileSync(path, `${clean(JSON.stringify(value, null, '\t'))}\n`);
	return path;
}

async function getStyles(options: CheckLiveOptions, styleKey: string): Promise<Answer> {
	const path = `/api/v1/style/${encodeURIComponent(styleKey)}/getStyles`;
	const response = await fetch(`${serviceBaseUrl(options.baseUrl)}${path}`, {
		headers: { APIKEY: options.apiKey, Accept: 'application/json' },
		redirect: 'manual',
		signal: AbortSignal.timeout(STYLE_TIMEOUT_MS),
	});
	const raw = await response.text();
	return { method: 'GET', path, status: response.status, raw, answer: parsed(raw) };
}

async function readTask(
	options: CheckLiveOptions,
	api: IdealHouseApi,
	id: string,
): Promise<Answer> {
	const path = `/api/v1/${api.name}/result?taskId=${encodeURIComponent(id)}`;
	const response = await fetch(`${serviceBaseUrl(options.baseUrl)}${path}`, {
		headers: { APIKEY: options.apiKey, Accept: 'application/json' },
		redirect: 'manual',
		signal: AbortSignal.timeout(STYLE_TIMEOUT_MS),
	});
	const raw = await response.text();
	return { method: 'GET', path, status: response.status, raw, answer: parsed(raw) };
}

export interface CheckLiveResult {
	plan: PlannedTask[];
	totalCredits: number;
	spent: boolean;
	differences: string[];
	/** Task ids created, by task name. */
	tasks: Record<string, string | undefined>;
	fixtures: string[];
}

export function planLines(tasks: PlannedTask[], imageUrl: string | undefined): string[] {
	const total = tasks.reduce((sum, task) => sum + task.credits, 0);
	const width = Math.max(...tasks.map((task) => task.name.length));
	const photo = imageUrl ?? `${IMAGE_URL_PLACEHOLDER} (give yours with --image-url)`;
	return [
		`Tasks (run only with --spend), each on ${photo}:`,
		...tasks.map(
			(task) =>
				`  ${task.name.padEnd(width)}  ${String(task.credits).padStart(3)} credit${task.credits === 1 ? ' ' : 's'}  ${task.api.label}: ${task.kind}`,
		),
		`  Total: ${total} credits`,
		'Style lists: free',
	];
}

/** The whole check. Throws only on a usage error; everything the service does is reported. */
export async function checkLive(options: CheckLiveOptions): Promise<CheckLiveResult> {
	const log = options.log ?? console.log;
	secrets = [options.apiKey];
	if (!options.apiKey)
		throw new Error('No API key: set IDEAL_HOUSE_API_KEY or pass --api-key <key>.');
	if (options.spend && !options.imageUrl)
		throw new Error(
			`--spend needs --image-url <url>: a public JPG, PNG or WebP room photo of 128–6,000 px (not ${IMAGE_URL_PLACEHOLDER}).`,
		);
	const tasks = plan();
	const totalCredits = tasks.reduce((sum, task) => sum + task.credits, 0);
	const differences: string[] = [];
	const fixtures: string[] = [];
	const created: Record<string, string | undefined> = {};
	log(`Ideal House live check against ${serviceBaseUrl(options.baseUrl)}`);
	for (const line of planLines(tasks, options.imageUrl)) log(line);
	log(
		options.spend
			? `Spending up to ${totalCredits} credits.`
			: 'Spending nothing: run again with --spend --image-url <url> to run the tasks.',
	);

	// The style lists, read as the node's loader reads them.
	const groups = expectedGroups();
	log('');
	log('Style lists:');
	for (const styleKey of STYLE_KEYS) {
		let answer: Answer;
		try {
			answer = await getStyles(options, styleKey);
		} catch (error) {
			differences.push(`style ${styleKey}: no answer (${redactedSnippet(String(error))})`);
			log(`  ${styleKey}: no answer`);
			continue;
		}
		const own: string[] = [];
		const read = styleDifferences(answer, styleKey, groups[styleKey] ?? [], own);
		differences.push(...own);
		const counts = Object.entries(read.options)
			.map(([group, count]) => `${group} ${count}`)
			.join(', ');
		log(
			`  ${styleKey}: ${counts || 'no groups read'}; groups in the answer: ${read.found.join(', ') || 'none'}${own.length ? `; ${own.length} difference(s)` : ''}`,
		);
		fixtures.push(
			writeFixture(join(options.out, 'styles'), styleKey, {
				styleKey,
				groupsTheNodeLoads: groups[styleKey] ?? [],
				...answer,
			}),
		);
	}

	if (options.spend && options.imageUrl) {
		const imageUrl = options.imageUrl;
		const { runNode } = await import('../test/helpers/engine');
		const recorder = recordAnswers(new URL(serviceBaseUrl(options.baseUrl)).hostname);
		log('');
		log('Tasks:');
		const runTask = async (task: PlannedTask) => {
			const parameters = task.parameters(imageUrl);
			const { items, error } = await runNode({
				node: task.node,
				parameters,
				credentials: { apiKey: options.apiKey, baseUrl: options.baseUrl },
			});
			const own: string[] = [];
			const item = items[0]?.json as IDataObject | undefined;
			const id = typeof item?.id === 'string' ? item.id : undefined;
			created[task.name] = id ?? (error?.taskId as string | undefined);
			if (error) own.push(`${task.name}: the node failed: ${redactedSnippet(error.message)}`);
			if (item) {
				if (item.status !== 'Success')
					own.push(`${task.name}: the task ended ${String(item.status)}`);
				if (item.creditsCharged !== task.credits)
					own.push(
						`${task.name}: the node reports ${String(item.creditsCharged)} credits, the plan ${task.credits}`,
					);
			}
			// The node's own requests to this API, in the order their answers came.
			const mine = recorder.answers.filter((answer) =>
				answer.path.startsWith(`/api/v1/${task.api.name}/`),
			);
			for (const [index, answer] of mine.entries()) {
				const where = `${task.name} ${answer.path.includes('/generate') ? 'create' : 'result'} answer ${index + 1}`;
				if (answer.path.includes('/generate')) createDifferences(answer, where, own);
				else {
					const data = envelopeDifferences(answer, where, own);
					if (data !== undefined) taskDifferences(data, where, own);
				}
			}
			// The finished task read again, free, as a Get Result would.
			let reread: Answer | undefined;
			const where = `${task.name} result read again`;
			if (created[task.name]) {
				try {
					reread = await readTask(options, task.api, created[task.name]!);
					const data = envelopeDifferences(reread, where, own);
					if (data !== undefined) taskDifferences(data, where, own);
				} catch (failure) {
					own.push(`${where}: no answer (${redactedSnippet(String(failure))})`);
				}
			}
			differences.push(...own);
			log(
				`  ${task.name}: ${error ? 'failed' : String(item?.status)}, id ${created[task.name] ?? '–'}, ${String(item?.creditsCharged ?? '–')} credits${own.length ? `; ${own.length} difference(s)` : ''}`,
			);
			fixtures.push(
				writeFixture(join(options.out, 'tasks'), task.name, {
					task: task.name,
					api: task.api.name,
					node: task.node,
					parameters,
					credits: task.credits,
					item: item ?? null,
					error: error ? { message: error.message, description: error.description } : null,
					answers: mine,
					readAgain: reread ?? null,
				}),
			);
		};
		try {
			await Promise.all(tasks.map(async (task) => await runTask(task)));
		} finally {
			recorder.stop();
		}
	}

	log('');
	if (differences.length === 0) log('Differences: none');
	else {
		log(`Differences (${differences.length}):`);
		for (const difference of differences) log(`  - ${redactedSnippet(difference)}`);
	}
	fixtures.push(
		writeFixture(options.out, 'summary', {
			baseUrl: serviceBaseUrl(options.baseUrl),
			at: new Date().toISOString(),
			spent: options.spend,
			imageUrl: options.imageUrl ?? null,
			plan: tasks.map(({ name, kind, api, credits, sent }) => ({
				name,
				kind,
				api: api.name,
				sent,
				credits,
			})),
			totalCredits,
			tasks: created,
			differences,
		}),
	);
	const shown = relative(process.cwd(), options.out) || '.';
	log(`Answers saved without the key in ${shown}/`);
	return { plan: tasks, totalCredits, spent: options.spend, differences, tasks: created, fixtures };
}

const USAGE = `npm run check:live -- [--spend --image-url <url>] [options]

  --api-key <key>     the API key (default: IDEAL_HOUSE_API_KEY)
  --base-url <url>    the service (default: IDEAL_HOUSE_BASE_URL, else ${DEFAULT_BASE_URL})
  --spend             run the tasks and spend the credits the plan prints
  --image-url <url>   the public room photo every task works on (required with --spend)
  --out <folder>      where the answers are saved (default: test/fixtures/live/<date>/)`;

export function parseArgs(
	argv: string[],
	env: Record<string, string | undefined>,
): CheckLiveOptions | 'help' {
	const value = (name: string) => {
		const index = argv.indexOf(`--${name}`);
		if (index < 0) return undefined;
		const next = argv[index + 1];
		if (next === undefined || next.startsWith('--')) throw new Error(`--${name} needs a value`);
		return next;
	};
	if (argv.includes('--help') || argv.includes('-h')) return 'help';
	const known = ['--api-key', '--base-url', '--spend', '--image-url', '--out'];
	const unknown = argv.filter((arg) => arg.startsWith('--') && !known.includes(arg));
	if (unknown.length > 0) throw new Error(`unknown option ${unknown[0]}`);
	const date = new Date().toISOString().slice(0, 10);
	return {
		apiKey: value('api-key') ?? env.IDEAL_HOUSE_API_KEY ?? '',
		baseUrl: value('base-url') ?? env.IDEAL_HOUSE_BASE_URL ?? DEFAULT_BASE_URL,
		spend: argv.includes('--spend'),
		imageUrl: value('image-url'),
		out: value('out') ?? join(REPO, 'test', 'fixtures', 'live', date),
	};
}

/** The command line: 0 when every answer has the expected shape, 1 when not, 2 on a usage error. */
export async function main(
	argv: string[] = process.argv.slice(2),
	env: Record<string, string | undefined> = process.env,
	log: (line: string) => void = console.log,
): Promise<number> {
	let options: CheckLiveOptions | 'help';
	try {
		options = parseArgs(argv, env);
		if (options === 'help') {
			log(USAGE);
			return 0;
		}
		const result = await checkLive({ ...options, log });
		return result.differences.length === 0 ? 0 : 1;
	} catch (error) {
		log(`check:live: ${clean((error as Error).message ?? String(error))}`);
		log(USAGE);
		return 2;
	}
}

if (require.main === module) {
	void main().then((code) => {
		process.exitCode = code;
	});
}

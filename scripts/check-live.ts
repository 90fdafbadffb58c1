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
 * 4. With --storage (and --spend), a photo that is a file: one Virtual Staging task (1 credit)
 *    whose photo goes through the user's own S3-compatible bucket, as Image Source = Binary File
 *    sends it. Its success shows that the real service fetches presigned links; the object must
 *    be gone afterwards. Then one create with the photo as a `data:` URI in `imageUrl` (at most
 *    1 credit), whose answer is only reported: nothing in the package relies on it.
 * 5. Compares every answer's shape with what the nodes and the local service expect, prints the
 *    differences, and saves the answers, the API key removed, as JSON fixtures.
 *
 *   IDEAL_HOUSE_API_KEY=… npm run check:live                                   # plan and style lists
 *   IDEAL_HOUSE_API_KEY=… npm run check:live -- --spend --image-url https://…/room.jpg
 *   IDEAL_HOUSE_STORAGE_ENDPOINT=… … npm run check:live -- --spend --storage --image-url https://…/room.jpg
 *   npm run check:live -- --help
 */
import './n8n-env';

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

import { readFile } from 'node:fs/promises';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import type { NodeName } from '../dev/harness/engine';
import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node.ts';
import { displayName, findGroup } from '../nodes/IdealHouse/methods/styles';
import { KNOWN_STATUSES, serviceBaseUrl } from '../nodes/shared/catalog/api';
import { APIS, type IdealHouseApi } from '../nodes/shared/catalog/catalog';
import { price } from '../nodes/shared/catalog/credits';
import { parseJsonKeepingLongs } from '../nodes/shared/basics/long-ids';
import { redact } from '../nodes/shared/basics/redact';
import { storageSettings, type StorageSettings } from '../nodes/shared/storage/settings';
import { EMPTY_SHA256, signedHeaders } from '../nodes/shared/storage/sigv4';

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
	/** A photo that is a file, through the user's bucket (`--storage`). */
	storage?: StorageCheck;
}

export interface StorageCheck {
	/** The upload storage credential's fields, as the node reads them. */
	credentials: ICredentialDataDecryptedObject;
	/** The photo file; without one, the bytes of the image URL. */
	imageFile?: string;
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
	/**
	 * Where its photo comes from: a URL (default), a file through the bucket, or a `data:` URI
	 * sent without the node (the probe; at most its price, nothing if refused).
	 */
	source?: 'file' | 'dataUri';
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

/** With --storage: a photo that is a file, and the `data:` URI probe. */
function storageTasks(): PlannedTask[] {
	return [
		planned({
			name: 'virtualStaging-from-file',
			kind: 'flat price, 1 credit, the photo as a file through your bucket',
			node: 'idealHouse',
			api: APIS.virtualStaging,
			parameters: () => ({
				resource: 'virtualStaging',
				operation: 'create',
				imageSource: 'binary',
				imageBinaryProperty: 'data',
			}),
			sent: {},
			source: 'file',
		}),
		planned({
			name: 'dataUri-probe',
			kind: 'the photo as a data: URI in imageUrl, at most 1 credit (reported only)',
			node: 'idealHouse',
			api: APIS.virtualStaging,
			parameters: () => ({ resource: 'virtualStaging', operation: 'create' }),
			sent: {},
			source: 'dataUri',
		}),
	];
}

/** The cheapest task of each price kind; with `storage`, the photo-file tasks after them. */
export function plan(storage = false): PlannedTask[] {
	return storage ? [...urlTasks(), ...storageTasks()] : urlTasks();
}

function urlTasks(): PlannedTask[] {
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

export function planLines(
	tasks: PlannedTask[],
	imageUrl: string | undefined,
	storage?: { settings: StorageSettings; imageFile?: string },
): string[] {
	const total = tasks.reduce((sum, task) => sum + task.credits, 0);
	const width = Math.max(...tasks.map((task) => task.name.length));
	const photo = imageUrl ?? `${IMAGE_URL_PLACEHOLDER} (give yours with --image-url)`;
	return [
		`Tasks (run only with --spend), each on ${photo}:`,
		...tasks.map(
			(task) =>
				`  ${task.name.padEnd(width)}  ${String(task.credits).padStart(3)} credit${task.credits === 1 ? ' ' : 's'}  ${task.api.label}: ${task.kind}`,
		),
		`  Total: ${total} credits${storage ? ' at most' : ''}`,
		...(storage
			? [
					`Photo file: ${storage.imageFile ?? 'the bytes of the image URL'}, through bucket "${storage.settings.bucket}" at ${storage.settings.endpoint.host} (uploaded, linked, deleted)`,
				]
			: []),
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
	let storage: StorageSettings | undefined;
	if (options.storage) {
		const settings = storageSettings(options.storage.credentials);
		if (typeof settings === 'string')
			throw new Error(
				`--storage: ${settings.replace(/ Fix it in .*$/, '')} Set it with the IDEAL_HOUSE_STORAGE_* variables or the --storage-* options.`,
			);
		storage = settings;
		secrets.push(settings.secretAccessKey);
	}
	const tasks = plan(!!storage);
	const totalCredits = tasks.reduce((sum, task) => sum + task.credits, 0);
	const differences: string[] = [];
	const fixtures: string[] = [];
	const created: Record<string, string | undefined> = {};
	log(`Ideal House live check against ${serviceBaseUrl(options.baseUrl)}`);
	for (const line of planLines(
		tasks,
		options.imageUrl,
		storage && { settings: storage, imageFile: options.storage?.imageFile },
	))
		log(line);
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
		const { runNode } = await import('../dev/harness/engine');
		const recorder = recordAnswers(new URL(serviceBaseUrl(options.baseUrl)).hostname);
		log('');
		log('Tasks:');
		const runTask = async (task: PlannedTask, photo?: PhotoFile, answersFrom = 0) => {
			const parameters = task.parameters(imageUrl);
			const { items, error } = await runNode({
				node: task.node,
				parameters,
				credentials: { apiKey: options.apiKey, baseUrl: options.baseUrl },
				...(photo && storage
					? {
							storageCredentials: options.storage!.credentials,
							items: [photoItem(photo)],
						}
					: {}),
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
			const mine = recorder.answers
				.slice(answersFrom)
				.filter((answer) => answer.path.startsWith(`/api/v1/${task.api.name}/`));
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
			const upload = photo && storage ? await uploadOutcome(storage, item, own) : undefined;
			differences.push(...own);
			log(
				`  ${task.name}: ${error ? 'failed' : String(item?.status)}, id ${created[task.name] ?? '–'}, ${String(item?.creditsCharged ?? '–')} credits${own.length ? `; ${own.length} difference(s)` : ''}`,
			);
			if (upload) log(`    ${upload.line}`);
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
					...(upload ? { upload: upload.record } : {}),
				}),
			);
		};
		try {
			await Promise.all(
				tasks.filter((task) => !task.source).map(async (task) => await runTask(task)),
			);
			const fileTask = tasks.find((task) => task.source === 'file');
			const probe = tasks.find((task) => task.source === 'dataUri');
			if (fileTask && probe && options.storage) {
				const photo = await photoFile(options.storage.imageFile, imageUrl);
				// After the URL tasks: the same API's answers are told apart by when they came.
				await runTask(fileTask, photo, recorder.answers.length);
				const outcome = await probeDataUri(options, probe, photo);
				log(`  ${probe.name}: ${outcome.line}`);
				fixtures.push(writeFixture(join(options.out, 'tasks'), probe.name, outcome.record));
				if (outcome.taskId) created[probe.name] = outcome.taskId;
			}
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

// ---------------------------------------------------------------------------------------------
// A photo that is a file

interface PhotoFile {
	bytes: Buffer;
	mimeType: string;
	fileName: string;
}

/** JPEG, PNG or WebP, by the bytes' signature (what the service accepts). */
function photoType(bytes: Buffer): string | undefined {
	if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
	if (bytes.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) return 'image/png';
	if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
		return 'image/webp';
	return undefined;
}

/** The photo file: the one given, or the image URL's bytes as a download node would attach them. */
async function photoFile(file: string | undefined, imageUrl: string): Promise<PhotoFile> {
	let bytes: Buffer;
	if (file) bytes = await readFile(file);
	else {
		const response = await fetch(imageUrl, { signal: AbortSignal.timeout(STYLE_TIMEOUT_MS) });
		if (!response.ok) throw new Error(`the image URL answered HTTP ${response.status}`);
		bytes = Buffer.from(await response.arrayBuffer());
	}
	const mimeType = photoType(bytes);
	if (!mimeType) throw new Error(`${file ?? imageUrl} is not a JPEG, PNG or WebP photo`);
	const name = (file ?? new URL(imageUrl).pathname).split('/').pop() || 'photo';
	return { bytes, mimeType, fileName: name };
}

function photoItem(photo: PhotoFile): INodeExecutionData {
	return {
		json: {},
		binary: {
			data: {
				data: photo.bytes.toString('base64'),
				mimeType: photo.mimeType,
				fileName: photo.fileName,
			},
		},
	};
}

/**
 * What became of the upload: the link the service was given (shown without its signature), and
 * whether the object is gone from the bucket, asked with a signed HEAD.
 */
async function uploadOutcome(
	settings: StorageSettings,
	item: IDataObject | undefined,
	out: string[],
): Promise<{ line: string; record: IDataObject }> {
	const input = (item?.input ?? {}) as IDataObject;
	let link: URL | undefined;
	try {
		link = new URL(String(input.imageUrl));
	} catch {
		out.push('virtualStaging-from-file: the item shows no link the service was given');
		return { line: 'no link in the item', record: {} };
	}
	const object = `${link.origin}${link.pathname}`;
	const presigned = link.searchParams.has('X-Amz-Signature');
	if (!presigned) out.push(`virtualStaging-from-file: the link sent is not presigned: ${object}`);
	let status: number | string;
	try {
		const head = await fetch(object, {
			method: 'HEAD',
			headers: signedHeaders(
				{ method: 'HEAD', url: object, payloadHash: EMPTY_SHA256 },
				settings,
				new Date(),
			),
			redirect: 'manual',
			signal: AbortSignal.timeout(STYLE_TIMEOUT_MS),
		});
		status = head.status;
	} catch (error) {
		status = redactedSnippet(String(error));
	}
	const gone = status === 404;
	if (!gone)
		out.push(
			`virtualStaging-from-file: the upload is still in the bucket after the task (HEAD ${status})`,
		);
	const expires = link.searchParams.get('X-Amz-Expires');
	return {
		line: `the service fetched ${object} through a presigned link (${expires ?? '?'} s); afterwards the object is ${gone ? 'gone (HEAD 404)' : `not gone (HEAD ${status})`}`,
		record: { object, presigned, expiresSeconds: expires, headAfterTask: status },
	};
}

/** How long the probe waits for an accepted task to end; its status is reported either way. */
const PROBE_WAIT_MS = 120_000;

/**
 * One create with the photo as a `data:` URI in `imageUrl`. Accepted: the task id and the status
 * it reached. Refused: the code and message. Either way it is only reported.
 */
async function probeDataUri(
	options: CheckLiveOptions,
	task: PlannedTask,
	photo: PhotoFile,
): Promise<{ line: string; record: IDataObject; taskId?: string }> {
	const base = serviceBaseUrl(options.baseUrl);
	const path = `/api/v1/${task.api.name}/generate`;
	const imageUrl = `data:${photo.mimeType};base64,${photo.bytes.toString('base64')}`;
	const sent = { imageUrl: `data:${photo.mimeType};base64,… (${photo.bytes.length} bytes)` };
	let answer: Answer;
	try {
		const response = await fetch(`${base}${path}`, {
			method: 'POST',
			headers: { APIKEY: options.apiKey, 'Content-Type': 'application/json' },
			body: JSON.stringify({ imageUrl }),
			redirect: 'manual',
			signal: AbortSignal.timeout(STYLE_TIMEOUT_MS * 4),
		});
		const raw = await response.text();
		answer = { method: 'POST', path, status: response.status, raw, answer: parsed(raw) };
	} catch (error) {
		const reason = redactedSnippet(String(error));
		return { line: `no answer (${reason})`, record: { sent, error: reason } };
	}
	// A refusal may quote the URI back: the report shows it as it shows what was sent.
	const quoted = answer.raw.split(imageUrl).join(sent.imageUrl);
	answer = { ...answer, raw: quoted, answer: parsed(quoted) };
	const body = isObject(answer.answer) ? answer.answer : {};
	if (answer.status !== 200 || body.code !== 0 || !isTaskId(body.data)) {
		const line = `refused: HTTP ${answer.status}, code ${String(body.code ?? '–')}, ${JSON.stringify(body.message ?? redactedSnippet(answer.raw))}`;
		return { line, record: { sent, accepted: false, answer } };
	}
	const taskId = String(body.data);
	let status = 'Unprocessed';
	let last: Answer | undefined;
	const deadline = Date.now() + PROBE_WAIT_MS;
	while (Date.now() < deadline) {
		try {
			last = await readTask(options, task.api, taskId);
		} catch {
			break;
		}
		const data = isObject(last.answer) && isObject(last.answer.data) ? last.answer.data : {};
		status = String(data.status ?? status);
		if (status === 'Success' || status === 'Failed') break;
		await new Promise((resolve) => setTimeout(resolve, 3000));
	}
	return {
		line: `accepted: task ${taskId}, status ${status}`,
		record: { sent, accepted: true, answer, taskId, status, lastRead: last ?? null },
		taskId,
	};
}

const USAGE = `npm run check:live -- [--spend --image-url <url>] [options]

  --api-key <key>     the API key (default: IDEAL_HOUSE_API_KEY)
  --base-url <url>    the service (default: IDEAL_HOUSE_BASE_URL, else ${DEFAULT_BASE_URL})
  --spend             run the tasks and spend the credits the plan prints
  --image-url <url>   the public room photo every task works on (required with --spend)
  --out <folder>      where the answers are saved (default: test/fixtures/live/<date>/)
  --storage           also a photo that is a file: one Virtual Staging task through your own
                      S3-compatible bucket (1 credit), and one create with the photo as a data:
                      URI, only reported (at most 1 credit); the bucket from:
  --storage-endpoint <url>           IDEAL_HOUSE_STORAGE_ENDPOINT
  --storage-region <region>          IDEAL_HOUSE_STORAGE_REGION (default us-east-1)
  --storage-bucket <name>            IDEAL_HOUSE_STORAGE_BUCKET
  --storage-access-key-id <id>       IDEAL_HOUSE_STORAGE_ACCESS_KEY_ID
  --storage-secret-access-key <key>  IDEAL_HOUSE_STORAGE_SECRET_ACCESS_KEY
  --storage-force-path-style         IDEAL_HOUSE_STORAGE_FORCE_PATH_STYLE=true (MinIO, most self-hosted stores)
  --image-file <path>  the photo file (default: the bytes of --image-url)`;

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
	const known = [
		'--api-key',
		'--base-url',
		'--spend',
		'--image-url',
		'--out',
		'--storage',
		...STORAGE_OPTIONS.map(([option]) => `--${option}`),
		'--storage-force-path-style',
		'--image-file',
	];
	const unknown = argv.filter((arg) => arg.startsWith('--') && !known.includes(arg));
	if (unknown.length > 0) throw new Error(`unknown option ${unknown[0]}`);
	const date = new Date().toISOString().slice(0, 10);
	return {
		apiKey: value('api-key') ?? env.IDEAL_HOUSE_API_KEY ?? '',
		baseUrl: value('base-url') ?? env.IDEAL_HOUSE_BASE_URL ?? DEFAULT_BASE_URL,
		spend: argv.includes('--spend'),
		imageUrl: value('image-url'),
		out: value('out') ?? join(REPO, 'test', 'fixtures', 'live', date),
		...(argv.includes('--storage')
			? {
					storage: {
						credentials: {
							...Object.fromEntries(
								STORAGE_OPTIONS.map(([option, field, variable]) => [
									field,
									value(option) ?? env[variable] ?? '',
								]),
							),
							forcePathStyle:
								argv.includes('--storage-force-path-style') ||
								/^(1|true|yes)$/i.test(env.IDEAL_HOUSE_STORAGE_FORCE_PATH_STYLE ?? ''),
						},
						imageFile: value('image-file'),
					},
				}
			: {}),
	};
}

/** The storage settings: option, credential field, environment variable. */
const STORAGE_OPTIONS: Array<[string, string, string]> = [
	['storage-endpoint', 'endpoint', 'IDEAL_HOUSE_STORAGE_ENDPOINT'],
	['storage-region', 'region', 'IDEAL_HOUSE_STORAGE_REGION'],
	['storage-bucket', 'bucket', 'IDEAL_HOUSE_STORAGE_BUCKET'],
	['storage-access-key-id', 'accessKeyId', 'IDEAL_HOUSE_STORAGE_ACCESS_KEY_ID'],
	['storage-secret-access-key', 'secretAccessKey', 'IDEAL_HOUSE_STORAGE_SECRET_ACCESS_KEY'],
];

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

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * What our nodes emitted in one execution: the run data n8n prints or stores, and the checks of
 * each task item against what the workflow asked for, what the service did, and (with Download
 * Result) the file n8n stored.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { creditsOf } from '../helpers/prices.ts';
import type { CommandResult } from './n8n-process.ts';
import { API_KEY, check, type Context, equal, taskLines, USER_FOLDER } from './e2e-shared.ts';
import type { BinaryMeta, Item } from './report.ts';

// ---------------------------------------------------------------------------------------------
// Run data of `n8n execute --rawOutput`

interface NodeRun {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: { main?: Item[][] };
}

export type { Item };

export interface RunOutput {
	status?: string;
	finished?: boolean;
	data: { resultData: { error?: { message?: string }; runData: Record<string, NodeRun[]> } };
}

/** With N8N_LOG_FORMAT=json, the run data is the message of one info line. */
export function runOutput(result: CommandResult): RunOutput | undefined {
	for (const line of result.lines) {
		if (!line.message.startsWith('{')) continue;
		try {
			const parsed = JSON.parse(line.message) as RunOutput;
			if (parsed?.data?.resultData?.runData) return parsed;
		} catch {
			// another message
		}
	}
	return undefined;
}

/** The items a node output on its first run, after checking that it ran and succeeded. */
export function nodeItems(group: string, run: RunOutput, node: string, count: number): Item[] {
	const runs = run.data.resultData.runData[node];
	const first = runs?.[0];
	if (!check(group, `${node}: ran`, !!first, `node "${node}" has no run data`)) return [];
	check(
		group,
		`${node}: succeeded`,
		first.executionStatus === 'success' && !first.error,
		`status ${first.executionStatus}: ${first.error?.message ?? ''} ${first.error?.description ?? ''}`,
	);
	const items = first.data?.main?.[0] ?? [];
	equal(group, `${node}: ${count} item(s) out`, items.length, count);
	return items;
}

// ---------------------------------------------------------------------------------------------
// One task item

/**
 * The APIs the examples call, with the credits one task costs; those priced by model type at the
 * model the examples leave in place: Base for Floor Plan (the node's first, always sent) and for
 * Plan Visualizer (the service's default, none sent).
 */
export const CREDITS = {
	photoEnhancer: creditsOf('photoEnhancer'),
	objectRemover: creditsOf('objectRemover'),
	virtualStaging: creditsOf('virtualStaging'),
	floorPlan: creditsOf('floorPlan', { modelType: 'Base' }),
	planVisualizer: creditsOf('planVisualizer'),
	ai3d: creditsOf('ai3d'),
};

/** The file a finished task gives: AI 3D a binary glTF model (no pixel size), the others a PNG. */
const RESULT_FILES = {
	png: { extension: 'png', mimeType: 'image/png' },
	glb: { extension: 'glb', mimeType: 'model/gltf-binary' },
};

function resultFile(kind: TaskExpectation['kind']) {
	return kind === 'ai3d' ? RESULT_FILES.glb : RESULT_FILES.png;
}

export interface TaskExpectation {
	kind: keyof typeof CREDITS;
	imageUrls: string[];
	/**
	 * The request body exactly as the service received it, field for field (the catalog APIs keep
	 * it as sent); checked in the item and in the service's own answer for the task.
	 */
	input?: Record<string, unknown>;
	/**
	 * `input` as the item reports it, where the node leaves something out that the service got: the
	 * token of n8n's signed link (whoever holds it can open the photo). Default: `input`.
	 */
	itemInput?: Record<string, unknown>;
	/** `imageUrls` as the item reports them (see `itemInput`). Default: `imageUrls`. */
	itemImageUrls?: string[];
	presetId?: string;
	imageSize?: string;
	emptyType?: string;
	/**
	 * Source size; the enhancer scales its long edge, the other APIs keep it (Floor Plan, with no
	 * source, draws 1536x1024). Not given for AI 3D: a model has no pixel size.
	 */
	source?: [number, number];
	binary?: string;
	/** Statuses allowed (default: Success only). */
	statuses?: string[];
}

const TWO_POW_53 = BigInt(2) ** BigInt(53);
const PHOTO_SIZES: Record<string, number> = { '512': 512, '1K': 1024, '2K': 2048, '4K': 4096 };

/** Above 2^53 a task id survives only as a string: a JSON number loses its last digits. */
export function isExact64BitId(id: unknown): boolean {
	return typeof id === 'string' && /^\d+$/.test(id) && BigInt(id) > TWO_POW_53;
}

/** Checks one emitted task item against what the workflow asked for and what the service did. */
export async function checkTaskItem(
	ctx: Context,
	group: string,
	node: string,
	index: number,
	item: Item,
	expected: TaskExpectation,
): Promise<void> {
	const label = `${node}[${index}]`;
	const { json } = item;
	const idOk = checkTaskFields(group, label, index, item, expected);
	checkSentInput(group, label, json.input ?? {}, expected);
	let line = `${label.padEnd(46)} ${String(json.id).padEnd(20)} ${String(json.status).padEnd(11)}`;
	if (json.status === 'Success') line += await checkResult(ctx, group, label, item, expected, idOk);
	taskLines.push(line);
	if (typeof json.id === 'string') recordEmitted(ctx, group, label, json.id, json, expected);
}

/**
 * The item's own fields: exact id, status, link to its input item, credits. Returns whether the
 * id is exact (the result URL is built from it).
 */
function checkTaskFields(
	group: string,
	label: string,
	index: number,
	item: Item,
	expected: TaskExpectation,
): boolean {
	const { json } = item;
	const idOk = check(
		group,
		`${label}: id is a string of digits above 2^53 (exact 64-bit id)`,
		isExact64BitId(json.id),
		`id ${JSON.stringify(json.id)} (${typeof json.id})`,
	);
	const statuses = expected.statuses ?? ['Success'];
	check(
		group,
		`${label}: status is ${statuses.join(' or ')}`,
		statuses.includes(String(json.status)),
		`status ${JSON.stringify(json.status)}`,
	);
	equal(group, `${label}: pairedItem links to input item ${index}`, item.pairedItem, {
		item: index,
	});
	equal(group, `${label}: creditsCharged`, json.creditsCharged, CREDITS[expected.kind]);
	return idOk;
}

/** What the service received, as the node reports it in `input`. */
function checkSentInput(
	group: string,
	label: string,
	input: Record<string, unknown>,
	expected: TaskExpectation,
): void {
	const sentUrls = Array.isArray(input.imageUrls)
		? input.imageUrls
		: input.imageUrl === undefined
			? []
			: [input.imageUrl];
	const cleared = expected.itemInput !== undefined;
	equal(
		group,
		`${label}: the service received the image URL(s)${cleared ? " (the item leaves the link's token out)" : ''}`,
		sentUrls,
		expected.itemImageUrls ?? expected.imageUrls,
	);
	if (expected.input)
		equal(
			group,
			`${label}: the service received exactly these fields${cleared ? " (the item leaves the link's token out)" : ''}`,
			input,
			expected.itemInput ?? expected.input,
		);
	if (expected.presetId) equal(group, `${label}: presetId`, input.presetId, expected.presetId);
	if (expected.imageSize) equal(group, `${label}: imageSize`, input.imageSize, expected.imageSize);
	if (expected.emptyType) {
		equal(group, `${label}: emptyType`, input.emptyType, expected.emptyType);
		check(
			group,
			`${label}: no mask URL sent (whole house, or mask as base64)`,
			input.maskUrl === undefined,
			`maskUrl ${String(input.maskUrl)}`,
		);
	}
}

/**
 * A finished task's result: its URL, its size, and the binary if downloaded. Returns the rest of
 * the item's summary line.
 */
async function checkResult(
	ctx: Context,
	group: string,
	label: string,
	item: Item,
	expected: TaskExpectation,
	idOk: boolean,
): Promise<string> {
	const { json } = item;
	const output = json.output ?? {};
	const file = resultFile(expected.kind);
	if (idOk)
		equal(
			group,
			`${label}: resultUrl`,
			output.resultUrl,
			`${ctx.base}/results/${String(json.id)}.${file.extension}`,
		);
	const want = expectedSize(expected);
	const [ow, oh] = [output.width ?? -1, output.height ?? -1];
	if (want) {
		check(
			group,
			`${label}: output size ${want.join('x')}`,
			Math.abs(ow - want[0]) <= 1 && Math.abs(oh - want[1]) <= 1,
			`got ${ow}x${oh}`,
		);
	} else {
		equal(
			group,
			`${label}: output width and height null (a 3D model)`,
			[output.width, output.height],
			[null, null],
		);
	}
	const size = want ? `${ow}x${oh}` : '3D model';
	let line = ` ${size.padEnd(10)} ${String(json.creditsCharged)} cr`;
	if (expected.binary) {
		line += await checkDownload(
			group,
			label,
			item,
			expected.binary,
			String(output.resultUrl),
			want ? [ow, oh] : undefined,
		);
	} else {
		check(
			group,
			`${label}: no binary (Download Result off)`,
			item.binary === undefined,
			`binary keys: ${Object.keys(item.binary ?? {}).join(', ')}`,
		);
	}
	return `${line}  ${String(output.resultUrl)}`;
}

function expectedSize(expected: TaskExpectation): [number, number] | undefined {
	if (!expected.source) return undefined;
	const [w, h] = expected.source;
	if (expected.kind !== 'photoEnhancer') return [w, h];
	const edge = PHOTO_SIZES[expected.imageSize ?? '4K'];
	return w >= h ? [edge, Math.round((h * edge) / w)] : [Math.round((w * edge) / h), edge];
}

/**
 * Download Result: the binary's metadata, and the bytes n8n stored compared with the service's
 * result file: a PNG of the output size (`pixels`), or without one a binary glTF model. Returns
 * the summary line's part about the binary.
 */
async function checkDownload(
	group: string,
	label: string,
	item: Item,
	key: string,
	resultUrl: string,
	pixels: [number, number] | undefined,
): Promise<string> {
	const meta = item.binary?.[key];
	if (
		!check(
			group,
			`${label}: binary "${key}" present`,
			!!meta,
			`binary keys: ${Object.keys(item.binary ?? {}).join(', ') || 'none'}`,
		)
	)
		return '';
	const file = Buffer.from(await (await fetch(resultUrl)).arrayBuffer());
	const expected = pixels ? RESULT_FILES.png : RESULT_FILES.glb;
	equal(group, `${label}: binary mimeType`, meta!.mimeType, expected.mimeType);
	equal(group, `${label}: binary fileExtension`, meta!.fileExtension, expected.extension);
	equal(group, `${label}: binary fileName`, meta!.fileName, basename(resultUrl));
	equal(group, `${label}: binary size = the result file's size`, binarySize(meta!), file.length);
	const stored = storedBinary(meta!);
	check(
		group,
		`${label}: stored binary is the result file byte for byte`,
		stored !== undefined && stored.equals(file),
		stored
			? `stored ${stored.length} bytes, result ${file.length} bytes`
			: `cannot read binary ${meta!.id}`,
	);
	if (pixels) {
		equal(group, `${label}: stored PNG is ${pixels.join('x')}`, stored && pngSize(stored), pixels);
	} else {
		equal(
			group,
			`${label}: stored file is a binary glTF 2.0 model (magic "glTF", version 2)`,
			stored && glbHeader(stored),
			{ magic: 'glTF', version: 2, length: stored?.length },
		);
	}
	return `  ${key}: ${meta!.mimeType} ${binarySize(meta!)} B (${meta!.id ? 'filesystem' : 'inline'})`;
}

/**
 * Notes the id as emitted (a task emitted twice would be a second task for one item), and queues
 * the checks against the service's final record.
 */
function recordEmitted(
	ctx: Context,
	group: string,
	label: string,
	id: string,
	json: Item['json'],
	expected: TaskExpectation,
): void {
	check(group, `${label}: task id not emitted twice`, !ctx.emitted.has(id), `id ${id} seen before`);
	ctx.emitted.set(id, {
		kind: expected.kind,
		node: `${group} / ${label}`,
		status: String(json.status),
		credits: json.creditsCharged,
	});
	ctx.later.push(async () => {
		const task = ctx.stats?.tasks.find((candidate) => candidate.id === id);
		if (
			!check(
				group,
				`${label}: id ${id} is in the service's task list`,
				!!task,
				'not found in /__admin/stats',
			)
		)
			return;
		equal(
			group,
			`${label}: service task kind and key`,
			[task!.kind, task!.apiKey],
			[expected.kind, API_KEY],
		);
		equal(
			group,
			`${label}: the service charged the credits the item reports`,
			task!.cost,
			json.creditsCharged,
		);
		if (expected.input) await checkServiceAnswer(ctx, group, label, id, json, expected);
		if (json.status === 'Success') {
			equal(
				group,
				`${label}: output size matches the service's`,
				[json.output?.width, json.output?.height],
				[task!.output?.width, task!.output?.height],
			);
		}
	});
}

/**
 * The task as the service itself answers it (its result endpoint, the test's key): the same id,
 * status, input and output as the item, and the input exactly as expected.
 */
async function checkServiceAnswer(
	ctx: Context,
	group: string,
	label: string,
	id: string,
	json: Item['json'],
	expected: TaskExpectation,
): Promise<void> {
	const response = await fetch(
		`${ctx.base}/api/v1/${expected.kind}/result?taskId=${encodeURIComponent(id)}`,
		{ headers: { APIKEY: API_KEY } },
	);
	const text = await response.text();
	// The id is a 64-bit integer in the JSON: read as a number it would lose its last digits.
	const answered = /"id":\s*"?(\d+)/.exec(text)?.[1];
	const body = JSON.parse(text) as {
		code?: number;
		data?: { status?: string; input?: unknown; output?: unknown };
	};
	equal(
		group,
		`${label}: the service's own answer for the task: code 0, the same id`,
		[response.status, body.code, answered],
		[200, 0, id],
	);
	equal(
		group,
		`${label}: the service's own answer: status, input and output as in the item${expected.itemInput ? " (the item's input without the link's token)" : ''}`,
		[
			body.data?.status,
			expected.itemInput ? expected.itemInput : body.data?.input,
			body.data?.output,
		],
		[json.status, json.input, json.output],
	);
	equal(
		group,
		`${label}: the service's own record of the input: exactly the expected fields`,
		body.data?.input,
		expected.input,
	);
}

// ---------------------------------------------------------------------------------------------
// Binaries

function pngSize(bytes: Buffer): [number, number] | undefined {
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) return undefined;
	return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** The header of a binary glTF file: its magic, its version and the length it declares. */
function glbHeader(bytes: Buffer): { magic: string; version: number; length: number } | undefined {
	if (bytes.length < 12) return undefined;
	return {
		magic: bytes.subarray(0, 4).toString('latin1'),
		version: bytes.readUInt32LE(4),
		length: bytes.readUInt32LE(8),
	};
}

/**
 * The stored bytes of a binary: in filesystem mode (n8n 2.x's default) the file behind
 * `filesystem-v2:<path under the storage folder>`; in the default mode of n8n 1.x, inline base64.
 */
export function storedBinary(meta: BinaryMeta): Buffer | undefined {
	if (!meta.id && meta.data !== undefined) return Buffer.from(meta.data, 'base64');
	const match = /^filesystem(?:-v2)?:(.+)$/.exec(meta.id ?? '');
	if (!match) return undefined;
	for (const root of [
		join(USER_FOLDER, '.n8n', 'storage'),
		join(USER_FOLDER, '.n8n', 'binaryData'),
	]) {
		const path = join(root, match[1]);
		if (existsSync(path)) return readFileSync(path);
	}
	return undefined;
}

/** The size n8n recorded (2.x), or the size of the stored bytes where it records none (1.x). */
export function binarySize(meta: BinaryMeta): number | undefined {
	return meta.bytes ?? storedBinary(meta)?.length;
}

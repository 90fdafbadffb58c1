/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console */
/**
 * End-to-end test in the real n8n app, as a user gets the package. run.sh (`npm run test:n8n`)
 * has already installed n8n, built and packed this package, and installed the tarball into
 * N8N_USER_FOLDER/.n8n/nodes the way n8n's own community-package install does. This script:
 *
 *  1. starts the local service (fast tasks, fixed seed) on a free port;
 *  2. `n8n export:nodes`: our two node types are known, the loader complained about nothing;
 *  3. `n8n import:credentials`: an "Ideal House API" credential pointing at the service;
 *  4. `n8n import:workflow`: examples/*.json, with the sample base URL replaced;
 *  5. `n8n execute --id=… --rawOutput` for each example, then checks every item the nodes
 *     emitted against the service's own record (`/__admin/stats`): exact 64-bit task ids,
 *     statuses, result URLs and sizes, credits, and the downloaded files byte for byte;
 *  6. `n8n start`: the editor serves our node types, credential type and icons, and the
 *     credential's Test button (REST /rest/credentials/test) passes for the right key and fails
 *     with our messages for a wrong key and for plain http to another host.
 *
 * Prints one summary; exits 1 if any check failed. Logs of every n8n command stay in E2E_WORK.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { type RunningService, startService } from '../../service/server.ts';
import {
	type CommandResult,
	freePort,
	logFile,
	n8nEnv,
	parseLogLines,
	type RestSession,
	activateWorkflow,
	runN8nCommand,
	setUpOwner,
	startN8nProcess,
	untilReady,
} from './n8n-process.ts';
import { importCredential, importWorkflows } from './imports.ts';
import {
	n8nVersion,
	PACKAGE,
	Report,
	requiredEnv,
	runMain,
	runSettings,
	localCredential,
	SAMPLE_BASE_URL,
} from './report.ts';

// ---------------------------------------------------------------------------------------------
// Settings

const RUNNER = 'test/n8n-app/run.sh';
const {
	repo: REPO,
	work: WORK,
	userFolder: USER_FOLDER,
	n8nApp: N8N_APP,
	n8nBin: N8N_BIN,
} = runSettings('E2E', RUNNER);
const NODE_TYPES = [`${PACKAGE}.photoEnhancer`, `${PACKAGE}.objectRemover`];
const CREDENTIAL = localCredential('IdealHouseLocal1');
const API_KEY = 'n8n-e2e-key';
const START_CREDITS = 1000;
const SERVICE_OPTIONS = {
	taskDurationMs: 300,
	workers: 4,
	seed: 20261122,
	accounts: { [API_KEY]: START_CREDITS },
};
const COMMAND_TIMEOUT_MS = 180_000;
/** A test workflow (not an example): a long task waited on, then stopped. */
const STOP_WORKFLOW = { id: 'ihStopWhileWaiting', file: 'stop.json' };
const TWO_POW_53 = BigInt(2) ** BigInt(53);
const PHOTO_SIZES: Record<string, number> = { '512': 512, '1K': 1024, '2K': 2048, '4K': 4096 };

// ---------------------------------------------------------------------------------------------
// Checks and the summary

const report = new Report();
const check = report.check.bind(report);
const equal = report.equal.bind(report);
const timed = report.timed.bind(report);
const taskLines: string[] = [];

// ---------------------------------------------------------------------------------------------
// Helpers: ports, n8n commands, logs

let env: NodeJS.ProcessEnv = {};

/** Runs one n8n CLI command; its output is kept as E2E_WORK/logs/<step>.log. */
async function n8n(step: string, args: string[]): Promise<CommandResult> {
	const result = await runN8nCommand(N8N_BIN, args, {
		env,
		cwd: WORK,
		logFile: logFile(WORK, step),
		timeoutMs: COMMAND_TIMEOUT_MS,
	});
	checkLoaderAndLogs(step, result);
	return result;
}

/**
 * Every n8n command loads the community packages first: each must load ours, without a complaint.
 * `provoked`: complaints the step caused on purpose (listed in the summary, not failures).
 */
function checkLoaderAndLogs(step: string, result: CommandResult, provoked?: RegExp): void {
	report.checkPackageLog(`log ${step}`, `${result.stdout}\n${result.stderr}`, {
		n8nAppDir: N8N_APP,
		provoked,
	});
}

// ---------------------------------------------------------------------------------------------
// Run data of `n8n execute --rawOutput`

interface BinaryMeta {
	mimeType: string;
	fileExtension?: string;
	fileName?: string;
	id?: string;
	bytes?: number;
	fileSize?: string;
	/** n8n's default binary mode on 1.x keeps the bytes inline, as base64. */
	data?: string;
}

interface Item {
	json: Record<string, unknown> & {
		id?: unknown;
		status?: unknown;
		input?: Record<string, unknown>;
		output?: { resultUrl?: string; width?: number; height?: number } | null;
		creditsCharged?: unknown;
	};
	binary?: Record<string, BinaryMeta>;
	pairedItem?: unknown;
}

interface NodeRun {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: { main?: Item[][] };
}

interface RunOutput {
	status?: string;
	finished?: boolean;
	data: { resultData: { error?: { message?: string }; runData: Record<string, NodeRun[]> } };
}

/** With N8N_LOG_FORMAT=json, the run data is the message of one info line. */
function runOutput(result: CommandResult): RunOutput | undefined {
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

// ---------------------------------------------------------------------------------------------
// Expectations per example workflow

interface ServiceTask {
	id: string;
	apiKey: string;
	kind: string;
	status: string;
	cost: number;
	refunded: boolean;
	output: { width: number; height: number } | null;
}

interface Context {
	base: string;
	stats?: { tasks: ServiceTask[] };
	/** Every task id a node output, with the node type that made it. */
	emitted: Map<string, { kind: string; node: string; status: string; credits: unknown }>;
	/** Checks that need the service's final record, run after all workflows. */
	later: Array<() => Promise<void>>;
}

interface TaskExpectation {
	kind: 'photoEnhancer' | 'objectRemover';
	imageUrls: string[];
	presetId?: string;
	imageSize?: string;
	emptyType?: string;
	/** Source size; the object remover keeps it, the enhancer scales its long edge. */
	source: [number, number];
	binary?: string;
	/** Statuses allowed (default: Success only). */
	statuses?: string[];
}

const SOURCES: Record<string, [number, number]> = {
	'living-room.png': [1600, 1200],
	'kitchen.png': [1280, 960],
	'exterior.png': [1920, 1280],
	'bracket-1.png': [1200, 800],
};

function sample(ctx: Context, name: string): string {
	return `${ctx.base}/samples/${name}`;
}

function pngSize(bytes: Buffer): [number, number] | undefined {
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature)) return undefined;
	return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** Checks one emitted task item against what the workflow asked for and what the service did. */
async function checkTaskItem(
	ctx: Context,
	group: string,
	node: string,
	index: number,
	item: Item,
	expected: TaskExpectation,
): Promise<void> {
	const label = `${node}[${index}]`;
	const { json } = item;
	const id = json.id;
	const idOk = check(
		group,
		`${label}: id is a string of digits above 2^53 (exact 64-bit id)`,
		typeof id === 'string' && /^\d+$/.test(id) && BigInt(id) > TWO_POW_53,
		`id ${JSON.stringify(id)} (${typeof id})`,
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
	const credits = expected.kind === 'photoEnhancer' ? 10 : 1;
	equal(group, `${label}: creditsCharged`, json.creditsCharged, credits);

	const input = json.input ?? {};
	const sentUrls = Array.isArray(input.imageUrls) ? input.imageUrls : [input.imageUrl];
	equal(group, `${label}: the service received the image URL(s)`, sentUrls, expected.imageUrls);
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

	let line = `${label.padEnd(46)} ${String(id).padEnd(20)} ${String(json.status).padEnd(11)}`;
	if (json.status === 'Success') {
		const output = json.output ?? {};
		if (idOk)
			equal(
				group,
				`${label}: resultUrl`,
				output.resultUrl,
				`${ctx.base}/results/${String(id)}.png`,
			);
		const [w, h] = expected.source;
		let want: [number, number];
		if (expected.kind === 'objectRemover') want = [w, h];
		else {
			const edge = PHOTO_SIZES[expected.imageSize ?? '4K'];
			want = w >= h ? [edge, Math.round((h * edge) / w)] : [Math.round((w * edge) / h), edge];
		}
		const [ow, oh] = [output.width ?? -1, output.height ?? -1];
		check(
			group,
			`${label}: output size ${want.join('x')}`,
			Math.abs(ow - want[0]) <= 1 && Math.abs(oh - want[1]) <= 1,
			`got ${ow}x${oh}`,
		);
		line += ` ${`${ow}x${oh}`.padEnd(10)} ${String(json.creditsCharged)} cr`;

		if (expected.binary) {
			const meta = item.binary?.[expected.binary];
			if (
				check(
					group,
					`${label}: binary "${expected.binary}" present`,
					!!meta,
					`binary keys: ${Object.keys(item.binary ?? {}).join(', ') || 'none'}`,
				)
			) {
				const file = Buffer.from(await (await fetch(String(output.resultUrl))).arrayBuffer());
				equal(group, `${label}: binary mimeType`, meta!.mimeType, 'image/png');
				equal(group, `${label}: binary fileExtension`, meta!.fileExtension, 'png');
				equal(
					group,
					`${label}: binary fileName`,
					meta!.fileName,
					basename(String(output.resultUrl)),
				);
				equal(
					group,
					`${label}: binary size = the result file's size`,
					binarySize(meta!),
					file.length,
				);
				const stored = storedBinary(meta!);
				check(
					group,
					`${label}: stored binary is the result file byte for byte`,
					stored !== undefined && stored.equals(file),
					stored
						? `stored ${stored.length} bytes, result ${file.length} bytes`
						: `cannot read binary ${meta!.id}`,
				);
				equal(group, `${label}: stored PNG is ${ow}x${oh}`, stored && pngSize(stored), [ow, oh]);
				line += `  ${expected.binary}: ${meta!.mimeType} ${binarySize(meta!)} B (${meta!.id ? 'filesystem' : 'inline'})`;
			}
		} else {
			check(
				group,
				`${label}: no binary (Download Result off)`,
				item.binary === undefined,
				`binary keys: ${Object.keys(item.binary ?? {}).join(', ')}`,
			);
		}
		line += `  ${String(output.resultUrl)}`;
	}
	taskLines.push(line);

	if (typeof id === 'string') {
		check(
			group,
			`${label}: task id not emitted twice`,
			!ctx.emitted.has(id),
			`id ${id} seen before`,
		);
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
}

/**
 * The stored bytes of a binary: in filesystem mode (n8n 2.x's default) the file behind
 * `filesystem-v2:<path under the storage folder>`; in the default mode of n8n 1.x, inline base64.
 */
function storedBinary(meta: BinaryMeta): Buffer | undefined {
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
function binarySize(meta: BinaryMeta): number | undefined {
	return meta.bytes ?? storedBinary(meta)?.length;
}

function nodeItems(group: string, run: RunOutput, node: string, count: number): Item[] {
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

interface Example {
	file: string;
	id: string;
	verify: (ctx: Context, group: string, run: RunOutput) => Promise<void>;
}

/**
 * Examples that need more than this test starts, run by the other real-n8n tests: a chat model and
 * an MCP client (test/n8n-agent), or an MLS feed, a CRM and PostgreSQL (test/n8n-automation).
 */
const RUN_ELSEWHERE = [
	'ai-agent-photo-assistant.json',
	'mcp-photo-tools.json',
	'scheduled-mls-enhance.json',
	'crm-webhook-enhance.json',
];

const EXAMPLES: Example[] = [
	{
		file: 'enhance-listing-photos.json',
		id: 'ihEnhanceListing',
		verify: async (ctx, group, run) => {
			const photos: Array<[string, string]> = [
				['living-room.png', 'interior-enhancement-interior-photo'],
				['kitchen.png', 'image-optimization-mls-photo-enhancement'],
				['exterior.png', 'sky-replacement-sunset-sky'],
			];
			const items = nodeItems(group, run, 'Enhance photos', 3);
			for (const [index, item] of items.entries()) {
				const [name, presetId] = photos[index] ?? photos[0];
				await checkTaskItem(ctx, group, 'Enhance photos', index, item, {
					kind: 'photoEnhancer',
					imageUrls: [sample(ctx, name)],
					presetId,
					imageSize: '1K',
					source: SOURCES[name],
					binary: 'data',
				});
			}
		},
	},
	{
		file: 'hdr-merge.json',
		id: 'ihHdrMerge',
		verify: async (ctx, group, run) => {
			const brackets = [1, 2, 3].map((n) => sample(ctx, `bracket-${n}.png`));
			for (const [node, binary] of [
				['HDR merge (URLs typed in)', undefined],
				['HDR merge (URL list from an expression)', 'hdr'],
			] as const) {
				const items = nodeItems(group, run, node, 1);
				if (items[0]) {
					await checkTaskItem(ctx, group, node, 0, items[0], {
						kind: 'photoEnhancer',
						imageUrls: brackets,
						presetId: 'hdr-merge-hdr-merge',
						imageSize: '2K',
						source: SOURCES['bracket-1.png'],
						binary,
					});
				}
			}
		},
	},
	{
		file: 'empty-room.json',
		id: 'ihEmptyRoom',
		verify: async (ctx, group, run) => {
			const room = sample(ctx, 'living-room.png');
			const whole = nodeItems(group, run, 'Empty the whole room', 1);
			if (whole[0]) {
				await checkTaskItem(ctx, group, 'Empty the whole room', 0, whole[0], {
					kind: 'objectRemover',
					imageUrls: [room],
					emptyType: 'whole_house',
					source: SOURCES['living-room.png'],
				});
			}
			const mask = nodeItems(group, run, 'Download the mask', 1)[0];
			equal(
				group,
				'Download the mask: binary "mask" is a PNG (the input of the mask-from-binary path)',
				mask?.binary?.mask?.mimeType,
				'image/png',
			);
			const single = nodeItems(group, run, 'Remove the masked furniture', 1);
			if (single[0]) {
				await checkTaskItem(ctx, group, 'Remove the masked furniture', 0, single[0], {
					kind: 'objectRemover',
					imageUrls: [room],
					emptyType: 'single_furniture',
					source: SOURCES['living-room.png'],
					binary: 'emptied',
				});
			}
		},
	},
	{
		file: 'create-then-get-result.json',
		id: 'ihCreateThenGet',
		verify: async (ctx, group, run) => {
			const created = nodeItems(group, run, 'Create the task', 1)[0];
			const id = created?.json.id;
			if (created) {
				check(
					group,
					'Create the task: id is a string of digits above 2^53',
					typeof id === 'string' && /^\d+$/.test(id) && BigInt(id) > TWO_POW_53,
					`id ${JSON.stringify(id)}`,
				);
				equal(
					group,
					'Create the task: status Unprocessed, 10 credits, linked to item 0',
					[created.json.status, created.json.creditsCharged, created.pairedItem],
					['Unprocessed', 10, { item: 0 }],
				);
				taskLines.push(
					`${'Create the task[0]'.padEnd(46)} ${String(id).padEnd(20)} ${String(created.json.status)}`,
				);
			}
			const result = nodeItems(group, run, 'Get the result', 1)[0];
			if (result) {
				equal(group, 'Get the result: the same task id as created, exactly', result.json.id, id);
				// Get Result reads the task once: it may still be waiting or running.
				await checkTaskItem(ctx, group, 'Get the result', 0, result, {
					kind: 'photoEnhancer',
					imageUrls: [sample(ctx, 'exterior.png')],
					presetId: 'virtual-twilight-luxury-twilight',
					imageSize: '512',
					source: SOURCES['exterior.png'],
					binary: result.json.status === 'Success' ? 'data' : undefined,
					statuses: ['Unprocessed', 'Processing', 'Success'],
				});
			}
		},
	},
];

/** Runs in `n8n start`, published, through its form's production URL with a file upload. */
const FORM_EXAMPLE = {
	file: 'empty-room-form.json',
	id: 'ihEmptyRoomForm',
	formPath: 'empty-a-room',
	trigger: 'Room photo and mask',
	node: 'Remove the masked furniture',
};

// ---------------------------------------------------------------------------------------------
// The examples: static checks, then the copies n8n imports

interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: Array<{
		name: string;
		type: string;
		typeVersion: number;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
	}>;
	connections: Record<string, unknown>;
}

interface PropertyDescription {
	name: string;
	type: string;
	options?: Array<{ name: string; value?: unknown }>;
}

/** The node descriptions as n8n loaded them (`n8n export:nodes`), to check the examples' parameters. */
function loadedDescriptions(): Record<string, { properties: PropertyDescription[] }> {
	const file = join(WORK, 'nodes.json');
	const descriptions: Record<string, { properties: PropertyDescription[] }> = {};
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
	descriptions: Record<string, { properties: PropertyDescription[] }>,
	trigger = 'n8n-nodes-base.manualTrigger',
): void {
	const group = `example ${file}`;
	const text = readFileSync(join(REPO, 'examples', file), 'utf8');
	check(
		group,
		`uses the sample base URL ${SAMPLE_BASE_URL}`,
		text.includes(SAMPLE_BASE_URL),
		'placeholder not found',
	);
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
	check(
		group,
		'has a sticky note explaining it (what it does, the credential, the local service)',
		notes.some((note) => {
			const content = String((note.parameters as { content?: unknown }).content ?? '');
			return content.length > 200 && /credential/i.test(content) && /npm run service/.test(content);
		}),
		`${notes.length} sticky note(s)`,
	);
	const ours = workflow.nodes.filter((node) => node.type.startsWith(`${PACKAGE}.`));
	check(group, 'uses our nodes', ours.length > 0, 'none');
	for (const node of ours) {
		const description = descriptions[node.type];
		if (!check(group, `${node.name}: type ${node.type} exists`, !!description, 'unknown type'))
			continue;
		equal(group, `${node.name}: typeVersion`, node.typeVersion, 1);
		equal(group, `${node.name}: credential`, node.credentials, {
			idealHouseApi: { id: CREDENTIAL.id, name: CREDENTIAL.name },
		});
		const problems: string[] = [];
		for (const [name, value] of Object.entries(node.parameters)) {
			const properties = description.properties.filter((property) => property.name === name);
			if (properties.length === 0) {
				problems.push(`unknown parameter "${name}"`);
				continue;
			}
			const isExpression = typeof value === 'string' && value.startsWith('=');
			for (const property of properties) {
				if (
					property.type === 'options' &&
					!isExpression &&
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
		check(
			group,
			`${node.name}: every parameter is one of the node's, with a valid value`,
			problems.length === 0,
			problems.join('; '),
		);
	}
}

// ---------------------------------------------------------------------------------------------
// n8n start: the editor's view of the package, and the credential test

/**
 * The form example as users run it: published, then a submission to its production URL with the
 * mask as an uploaded file; the execution is read back over REST (run data in n8n's flatted form).
 */
async function checkFormExample(
	ctx: Context,
	service: RunningService,
	base: string,
	session: RestSession,
): Promise<void> {
	const group = `workflow ${FORM_EXAMPLE.id} (form upload, in n8n start)`;
	const activated = await activateWorkflow(session, FORM_EXAMPLE.id);
	if (!check(group, 'published over REST', activated.active, activated.detail)) return;

	// Publishing registers the form's webhook a moment later (n8n applies it from an outbox).
	const formUrl = `${base}/form/${FORM_EXAMPLE.formPath}`;
	const formDeadline = Date.now() + 30_000;
	let formPage = await fetch(formUrl);
	while (!formPage.ok && Date.now() < formDeadline) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		formPage = await fetch(formUrl);
	}
	if (
		!check(
			group,
			`the form is served at /form/${FORM_EXAMPLE.formPath}, with its two fields`,
			formPage.ok && /Photo URL/.test(await formPage.text()),
			`HTTP ${formPage.status}`,
		)
	)
		return;

	const tasksBefore = service.stats().tasks.length;
	const mask = Buffer.from(
		await (await fetch(`${service.baseUrl}/samples/living-room-mask.png`)).arrayBuffer(),
	);
	const form = new FormData();
	form.append('field-0', sample(ctx, 'living-room.png'));
	form.append('field-1', new Blob([mask], { type: 'image/png' }), 'living-room-mask.png');
	const submitted = await fetch(formUrl, {
		method: 'POST',
		body: form,
	});
	if (
		!check(
			group,
			`the form at /form/${FORM_EXAMPLE.formPath} accepts the photo URL and the mask file`,
			submitted.ok,
			`HTTP ${submitted.status}: ${(await submitted.text()).slice(0, 300)}`,
		)
	)
		return;

	const filter = encodeURIComponent(JSON.stringify({ workflowId: FORM_EXAMPLE.id }));
	let executionId: string | undefined;
	const deadline = Date.now() + 90_000;
	while (!executionId && Date.now() < deadline) {
		const list = await session.rest(`/rest/executions?filter=${filter}`);
		const results = (list.json.data?.results ?? []) as Array<{ id: string; status: string }>;
		executionId = results.find(
			(entry) => !['new', 'running', 'waiting'].includes(entry.status),
		)?.id;
		if (!executionId) await new Promise((resolve) => setTimeout(resolve, 500));
	}
	if (!check(group, 'one execution finished', !!executionId, 'none within 90 s')) return;
	const execution = (await session.rest(`/rest/executions/${executionId}`)).json.data ?? {};
	const appRequire = createRequire(join(N8N_APP, 'node_modules', 'n8n', 'package.json'));
	const flatted = appRequire('flatted') as { parse(text: string): RunOutput['data'] };
	const run: RunOutput = {
		status: String(execution.status),
		finished: execution.finished as boolean | undefined,
		data: flatted.parse(String(execution.data)),
	};
	check(
		group,
		'execution finished with status success',
		run.status === 'success' && !run.data.resultData.error,
		`status ${run.status}: ${run.data.resultData.error?.message ?? ''}`,
	);
	const upload = nodeItems(group, run, FORM_EXAMPLE.trigger, 1)[0];
	equal(
		group,
		`${FORM_EXAMPLE.trigger}: the uploaded mask is the item's binary "Mask" (size, type)`,
		[upload?.binary?.Mask?.mimeType, upload?.binary?.Mask && binarySize(upload.binary.Mask)],
		['image/png', mask.length],
	);
	const items = nodeItems(group, run, FORM_EXAMPLE.node, 1);
	if (items[0]) {
		await checkTaskItem(ctx, group, FORM_EXAMPLE.node, 0, items[0], {
			kind: 'objectRemover',
			imageUrls: [sample(ctx, 'living-room.png')],
			emptyType: 'single_furniture',
			source: SOURCES['living-room.png'],
			binary: 'emptied',
		});
	}
	// The service's record: exactly one more task, the one the node emitted.
	ctx.stats = service.stats() as unknown as Context['stats'];
	const newTasks = ctx.stats!.tasks.slice(tasksBefore);
	equal(
		group,
		'the service created exactly one task for the submission, the id the node emitted',
		newTasks.map((task) => task.id),
		[items[0]?.json.id],
	);
	for (const later of ctx.later.splice(0)) await later();
}

/**
 * Stop, as a user presses it: a workflow waits on a long task (called through its production
 * webhook, which answers at once), then the execution is stopped over REST. The node must end
 * its wait within one poll interval and send no further status checks.
 */
async function checkStop(
	service: RunningService,
	base: string,
	session: RestSession,
): Promise<void> {
	const group = `workflow ${STOP_WORKFLOW.id} (Stop while waiting, in n8n start)`;
	const pollSeconds = 3;
	const activated = await activateWorkflow(session, STOP_WORKFLOW.id);
	if (!check(group, 'activated over REST', activated.active, activated.detail)) return;
	const previous = service.stats().tasks.length;
	service.configure({ taskDurationMs: 600_000 });
	try {
		const until = async (what: () => Promise<boolean> | boolean, ms: number) => {
			const deadline = Date.now() + ms;
			while (Date.now() < deadline) {
				if (await what()) return true;
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
			return false;
		};
		let called = false;
		await until(
			async () =>
				(called = (await fetch(`${base}/webhook/ideal-house-stop`, { method: 'POST' })).ok),
			30_000,
		);
		if (!check(group, 'the production webhook answered', called, 'no 2xx within 30 s')) return;
		const created = await until(() => service.stats().tasks.length > previous, 30_000);
		if (!check(group, 'the node created its task', created, 'no task within 30 s')) return;
		const task = service.stats().tasks[previous];
		const filter = encodeURIComponent(JSON.stringify({ workflowId: STOP_WORKFLOW.id }));
		const listed = await session.rest(`/rest/executions?filter=${filter}`);
		const running = (
			(listed.json.data?.results ?? []) as Array<{ id: string; status: string }>
		).find((entry) => entry.status === 'running');
		if (
			!check(
				group,
				'its execution is listed as running',
				!!running,
				JSON.stringify(listed.json).slice(0, 300),
			)
		)
			return;
		const pollsOf = () =>
			service.stats().requests.byEndpoint['/api/v1/photoEnhancer/result']?.total ?? 0;
		await until(() => pollsOf() > 0, 3 * pollSeconds * 1000);
		const stoppedAt = Date.now();
		const stop = await session.rest(`/rest/executions/${running!.id}/stop`, {});
		check(
			group,
			'Stop accepted over REST',
			stop.status === 200,
			`HTTP ${stop.status} ${JSON.stringify(stop.json).slice(0, 300)}`,
		);
		let status = '';
		const ended = await until(async () => {
			status = String(
				(await session.rest(`/rest/executions/${running!.id}`)).json.data?.status ?? '',
			);
			return !['new', 'running', 'waiting'].includes(status);
		}, 30_000);
		const seconds = (Date.now() - stoppedAt) / 1000;
		check(
			group,
			`the execution ended after Stop (status ${status})`,
			ended && ['canceled', 'error'].includes(status),
			`status ${status}`,
		);
		check(
			group,
			`it ended within one poll interval (${seconds.toFixed(1)} s ≤ ${pollSeconds + 1} s)`,
			seconds <= pollSeconds + 1,
			`${seconds.toFixed(1)} s`,
		);
		const pollsAtEnd = pollsOf();
		await new Promise((resolve) => setTimeout(resolve, 2 * pollSeconds * 1000));
		equal(
			group,
			`no status check after the execution ended (${2 * pollSeconds} s watched)`,
			pollsOf(),
			pollsAtEnd,
		);
		equal(
			group,
			'one task created, and not created again',
			service.stats().tasks.length - previous,
			1,
		);
		taskLines.push(
			`stop: task ${task.id} waited on, execution ${running!.id} ${status} ${seconds.toFixed(1)} s after Stop`,
		);
	} finally {
		service.configure({ taskDurationMs: SERVICE_OPTIONS.taskDurationMs });
	}
}

async function checkRunningApp(ctx: Context, service: RunningService, port: number): Promise<void> {
	const group = 'n8n start (editor + credential test)';
	const base = `http://127.0.0.1:${port}`;
	const app = startN8nProcess(N8N_BIN, ['start'], { env, cwd: WORK });
	try {
		if (
			!check(
				group,
				'editor ready (/healthz/readiness)',
				await untilReady(`${base}/healthz/readiness`, app.child, 90_000),
				app.output().slice(-2000),
			)
		)
			return;

		let session: RestSession;
		try {
			session = await setUpOwner(base);
		} catch (error) {
			check(group, 'owner account set up (REST login)', false, (error as Error).message);
			return;
		}
		check(group, 'owner account set up (REST login)', true);
		const rest = session.rest;
		// The editor's catalogue, as the browser loads it (after login).
		const nodeTypes = (await rest('/types/nodes.json')).json as unknown as Array<{
			name: string;
			iconUrl?: unknown;
		}>;
		const credentialTypes = (await rest('/types/credentials.json')).json as unknown as Array<{
			name: string;
			iconUrl?: unknown;
		}>;
		const iconsOf = (entry: { iconUrl?: unknown }) =>
			entry.iconUrl && typeof entry.iconUrl === 'object'
				? Object.values(entry.iconUrl)
				: [entry.iconUrl];
		for (const [label, list, name] of [
			...NODE_TYPES.map((type) => ['node type', nodeTypes, type] as const),
			['credential type', credentialTypes, CREDENTIAL.type] as const,
		]) {
			const entry = Array.isArray(list)
				? list.find((candidate) => candidate.name === name)
				: undefined;
			if (
				!check(
					group,
					`the editor lists the ${label} ${name}`,
					!!entry,
					Array.isArray(list) ? 'missing' : `not a list: ${JSON.stringify(list).slice(0, 200)}`,
				)
			)
				continue;
			for (const iconUrl of iconsOf(entry!)) {
				const response = await fetch(`${base}/${String(iconUrl)}`);
				const body = await response.text();
				check(
					group,
					`${name}: icon ${String(iconUrl)} is served as SVG`,
					response.ok && body.includes('<svg'),
					`HTTP ${response.status}`,
				);
			}
		}

		// What the editor sends when Test is clicked on the saved credential: its data with the
		// secret redacted, which n8n fills in from the database.
		const stored = await rest(`/rest/credentials/${CREDENTIAL.id}?includeData=true`);
		const storedData = stored.json.data?.data as Record<string, unknown> | undefined;
		check(
			group,
			'the imported credential is readable, with the service URL',
			storedData?.baseUrl === service.baseUrl,
			`HTTP ${stored.status} ${JSON.stringify(stored.json).slice(0, 300)}`,
		);
		const test = async (data: Record<string, unknown>) =>
			(
				await rest('/rest/credentials/test', {
					credentials: { id: CREDENTIAL.id, name: CREDENTIAL.name, type: CREDENTIAL.type, data },
				})
			).json.data ?? {};
		const ok = await test(storedData ?? {});
		equal(group, 'credential test of the saved credential: OK', ok.status, 'OK');
		const wrongKey = await test({ ...storedData, apiKey: 'not-the-key' });
		check(
			group,
			'credential test with a wrong key: Error naming code 5002',
			wrongKey.status === 'Error' &&
				/5002/.test(String(wrongKey.message)) &&
				!String(wrongKey.message).includes('not-the-key'),
			JSON.stringify(wrongKey),
		);
		const plainHttp = await test({ ...storedData, baseUrl: 'http://api.ideal.house.invalid' });
		check(
			group,
			'credential test with plain http to another host: Error asking for https',
			plainHttp.status === 'Error' && /https/.test(String(plainHttp.message)),
			JSON.stringify(plainHttp),
		);
		taskLines.push(
			`credential test: saved → ${String(ok.status)}; wrong key → ${String(wrongKey.status)}: ${String(wrongKey.message)}`,
		);
		await checkFormExample(ctx, service, base, session);
		await checkStop(service, base, session);
	} catch (error) {
		check(group, 'checks ran', false, (error as Error).stack);
	} finally {
		await app.stop();
		const output = app.output();
		writeFileSync(logFile(WORK, 'start'), output);
		// The plain-http credential test makes n8n log the credential's refusal (with its stack), and
		// the Stop check calls its webhook until n8n has registered it (n8n 2.x does so a moment
		// after activation, logging each early call as unknown).
		checkLoaderAndLogs(
			'start',
			{ code: app.child.exitCode, stdout: output, stderr: '', lines: parseLogLines(output) },
			/must start with https:\/\/|webhook "POST ideal-house-stop" is not registered/,
		);
	}
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
	mkdirSync(join(WORK, 'logs'), { recursive: true });
	env = n8nEnv(USER_FOLDER, { broker: await freePort(), http: await freePort() });

	// What the tarball publishes: the package's own files and nothing else.
	{
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

	// The package as installed: ours, and no second n8n-workflow next to n8n's own.
	{
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

	const service = await startService({ port: 0, host: '127.0.0.1', ...SERVICE_OPTIONS });
	const ctx: Context = { base: service.baseUrl, emitted: new Map(), later: [] };
	console.log(
		`Local service on ${service.baseUrl} (tasks ${SERVICE_OPTIONS.taskDurationMs} ms, seed ${SERVICE_OPTIONS.seed})`,
	);
	const runs: Array<{ example: Example; seconds: number; status: string }> = [];
	try {
		const exported = await timed(
			'n8n export:nodes',
			async () =>
				await n8n('export-nodes', ['export:nodes', `--output=${join(WORK, 'nodes.json')}`]),
		);
		{
			const group = 'n8n export:nodes';
			check(group, 'exit code 0', exported.code === 0, `exit ${exported.code}`);
			const names = existsSync(join(WORK, 'nodes.json'))
				? (
						JSON.parse(readFileSync(join(WORK, 'nodes.json'), 'utf8')) as Array<{ name: string }>
					).map((node) => node.name)
				: [];
			for (const type of NODE_TYPES)
				check(
					group,
					`lists ${type}`,
					names.includes(type),
					`${names.filter((name) => name.startsWith(PACKAGE)).join(', ') || 'none of ours'}`,
				);
		}

		const imports = { report, work: WORK, n8n };
		await importCredential({ ...imports, group: 'n8n import:credentials' }, CREDENTIAL, {
			apiKey: API_KEY,
			baseUrl: service.baseUrl,
		});

		const descriptions = loadedDescriptions();
		const workflowFiles: Array<{ file: string; text: string }> = [];
		workflowFiles.push({
			file: STOP_WORKFLOW.file,
			text: readFileSync(join(REPO, 'test', 'n8n-app', 'workflows', STOP_WORKFLOW.file), 'utf8'),
		});
		for (const example of [...EXAMPLES, FORM_EXAMPLE]) {
			const text = readFileSync(join(REPO, 'examples', example.file), 'utf8');
			const workflow = JSON.parse(text) as WorkflowJson;
			equal(`example ${example.file}`, 'workflow id', workflow.id, example.id);
			checkExampleStatically(
				example.file,
				workflow,
				descriptions,
				example === FORM_EXAMPLE ? 'n8n-nodes-base.formTrigger' : undefined,
			);
			workflowFiles.push({ file: example.file, text });
		}
		const others = readdirSync(join(REPO, 'examples')).filter(
			(file) =>
				file.endsWith('.json') &&
				file !== FORM_EXAMPLE.file &&
				!RUN_ELSEWHERE.includes(file) &&
				!EXAMPLES.some((example) => example.file === file),
		);
		check(
			'examples',
			'every examples/*.json is run by this test',
			others.length === 0,
			`not covered: ${others.join(', ')}`,
		);
		await importWorkflows(
			{ ...imports, group: 'n8n import:workflow' },
			workflowFiles,
			service.baseUrl,
		);

		for (const example of EXAMPLES) {
			const group = `workflow ${example.id}`;
			const start = Date.now();
			const result = await timed(
				`n8n execute --id=${example.id}`,
				async () =>
					await n8n(`execute-${example.id}`, ['execute', `--id=${example.id}`, '--rawOutput']),
			);
			const run = runOutput(result);
			runs.push({
				example,
				seconds: (Date.now() - start) / 1000,
				status: run?.status ?? `exit ${result.code}`,
			});
			check(group, 'exit code 0', result.code === 0, `exit ${result.code}`);
			if (
				!check(
					group,
					'run data printed (--rawOutput)',
					!!run,
					`no run data in the output; see logs/execute-${example.id}.log`,
				)
			)
				continue;
			check(
				group,
				'execution finished with status success',
				run!.status === 'success' && run!.finished === true && !run!.data.resultData.error,
				`status ${run!.status}: ${run!.data.resultData.error?.message ?? ''}`,
			);
			try {
				await example.verify(ctx, group, run!);
			} catch (error) {
				check(group, 'checks ran', false, (error as Error).stack);
			}
		}

		// The service's own record: every task it made is one the nodes emitted, and vice versa.
		const stats = (await (await fetch(`${service.baseUrl}/__admin/stats`)).json()) as {
			tasks: ServiceTask[];
			credits: { charged: number; refunded: number };
			balances: Record<string, number>;
			requests: { byCode: Record<string, number>; byStatus: Record<string, number> };
		};
		ctx.stats = stats;
		for (const later of ctx.later.splice(0)) await later();
		{
			const group = 'service record (/__admin/stats)';
			const serviceIds = stats.tasks.map((task) => task.id).sort();
			const emittedIds = [...ctx.emitted.keys()].sort();
			equal(
				group,
				`the ${serviceIds.length} task ids the service created = the ids the nodes emitted`,
				emittedIds,
				serviceIds,
			);
			check(
				group,
				'every task ended Success and none was refunded',
				stats.tasks.every((task) => task.status === 'Success' && !task.refunded),
				JSON.stringify(stats.tasks.filter((task) => task.status !== 'Success' || task.refunded)),
			);
			const expectedCredits = [...ctx.emitted.values()].reduce(
				(sum, task) => sum + (task.kind === 'photoEnhancer' ? 10 : 1),
				0,
			);
			equal(
				group,
				"credits charged = the nodes' creditsCharged summed",
				stats.credits.charged,
				expectedCredits,
			);
			equal(group, 'balance', stats.balances[API_KEY], START_CREDITS - expectedCredits);
			equal(
				group,
				'every API answer was code 0 over HTTP 200 (no error, no retry)',
				[Object.keys(stats.requests.byCode), Object.keys(stats.requests.byStatus)],
				[['0'], ['200']],
			);
		}

		await timed(
			'n8n start (editor, credential test)',
			async () => await checkRunningApp(ctx, service, Number(env.N8N_PORT)),
		);
	} finally {
		await service.close();
	}

	return report.print({
		title: 'n8n end-to-end summary',
		header: [
			`n8n ${n8nVersion(N8N_APP)} on Node ${process.version}; package ${process.env.E2E_TARBALL ?? PACKAGE}`,
			`work folder: ${WORK}`,
		],
		shellSteps: process.env.E2E_SHELL_STEPS,
		sections: [
			[
				'Workflows:',
				runs.map(
					(run) =>
						`${run.example.id.padEnd(18)} ${run.example.file.padEnd(30)} ${run.status.padEnd(8)} ${run.seconds.toFixed(1)} s`,
				),
			],
			['Items (node[item], task id, status, size, credits, binary, result URL):', taskLines],
		],
	});
}

runMain('n8n end-to-end test', main);

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The form upload through the queue: the main receives the form (a browser's multipart
 * submission to the published form's production URL), a worker runs the Ideal House AI node on
 * the uploaded photo (n8n's own link to it, which the main serves; the task; the download of the
 * result), and the form ending hands the result back. Checks where each part ran, the bytes at
 * every hop (what the service fetched from the main through n8n's link, the
 * service's record, the binary data read back through n8n's REST API) and where n8n kept the
 * binary data: the run's binary data mode, for real.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RunningService } from '../../service/server.ts';
import {
	type FormUpload,
	publishPhotoForm,
	finishEndingPage,
	sha256,
	submitPhoto,
} from '../n8n-app/form-upload.ts';
import { checkThroughN8nLink, type FrontProxy, shownLink } from '../n8n-app/n8n-link.ts';
import type { BinaryMeta } from '../n8n-app/report.ts';
import { binaryRows, binaryRowsOfExecution } from './database.ts';
import { createdInLog, type Instance, logMessages, startedBy } from './processes.ts';
import {
	binaryData,
	execution,
	type ExecutionRecord,
	executionsOf,
	mainConnection,
	nodeItems,
	rest,
	type Item,
	until,
} from './rest.ts';
import { API_KEY, BINARY_FOLDER, BINARY_MODE, USER_FOLDER } from './settings.ts';
import { check, equal, figures, report, timed } from './summary.ts';

const VIRTUAL_STAGING_CREDITS = 1;

/** A binary of the run, by where it is in the run data, with the bytes it must hold. */
interface ExpectedBinary {
	label: string;
	meta: BinaryMeta | undefined;
	bytes: Buffer;
}

/** `proxy`: the main's public address, which every process's WEBHOOK_URL names. */
export async function runFormUploadOnWorker(
	example: FormUpload,
	service: RunningService,
	proxy: FrontProxy,
	mainInstance: Instance,
	workers: Instance[],
): Promise<void> {
	const group = `form upload on a worker (${example.file}, on n8n's own link, binary data mode ${BINARY_MODE})`;
	const ending = example.ending!;
	const resultProperty = example.resultProperty!;
	await checkBinaryModeSetting(group);
	const { base, session } = mainConnection();
	const formUrl = await publishPhotoForm(report, group, base, session, example);
	if (!formUrl) return;
	const tasksBefore = service.stats().tasks.length;
	const balanceBefore = service.balance(API_KEY);
	const photo = Buffer.from(
		await (await fetch(`${service.baseUrl}/samples/living-room.png`)).arrayBuffer(),
	);
	const known = new Set((await executionsOf(example.id)).map((record) => record.id));

	const record = await timed(
		`form upload on a worker, ${example.id} (submission to the end)`,
		async () => {
			const waitingUrl = await submitPhoto(report, group, formUrl, photo);
			if (!waitingUrl) return undefined;
			const paused = await nextExecution(example.id, known, ['new', 'running']);
			if (
				!check(
					group,
					`the execution reached "${ending}" and waits for the browser`,
					paused.status === 'waiting',
					`status ${paused.status}: ${await errorOf(paused.id)}`,
				)
			)
				return undefined;
			// The page is served by the main.
			const returned = await finishEndingPage(report, group, waitingUrl, ending);
			const ended = await nextExecution(example.id, known, ['new', 'running', 'waiting']);
			return { full: await execution(ended.id), returned };
		},
	);
	if (!record) return;
	const { full, returned } = record;
	check(
		group,
		'execution finished with status success',
		full.status === 'success' && !full.data?.resultData.error,
		`status ${full.status}: ${full.data?.resultData.error?.message ?? ''}`,
	);
	checkWhereItRan(group, full.id, mainInstance, workers);

	const task = service.stats().tasks.slice(tasksBefore);
	const item = nodeItems(full.data, example.node)?.[0];
	equal(
		group,
		'the service created exactly one task for the submission, the id the node emitted, Success, 1 credit',
		task.map((entry) => [entry.id, entry.kind, entry.status, entry.cost, entry.refunded]),
		[[item?.json.id, 'virtualStaging', 'Success', VIRTUAL_STAGING_CREDITS, false]],
	);
	equal(
		group,
		'credits spent: 1',
		balanceBefore - service.balance(API_KEY),
		VIRTUAL_STAGING_CREDITS,
	);
	const sentUrl = String(task[0]?.imageUrl ?? '');
	// Only the main is behind the proxy: what it passed back, the main served.
	checkThroughN8nLink(report, group, proxy, sentUrl, photo);

	const resultUrl = String(item?.json.output?.resultUrl ?? '');
	const result = Buffer.from(await (await fetch(resultUrl)).arrayBuffer());
	checkTaskItem(
		example,
		group,
		item,
		shownLink(sentUrl),
		`${service.baseUrl}/results/${String(item?.json.id)}.png`,
	);
	const staged = item?.binary?.[resultProperty];
	const endingItem = nodeItems(full.data, ending)?.[0];
	equal(
		group,
		`${ending}: passes the staged photo on as the node attached it`,
		endingItem?.binary?.[resultProperty],
		staged,
	);
	check(
		group,
		`${ending}: the submitter gets the staged photo, byte for byte the service's result, as <id>.png`,
		!!returned &&
			returned.bytes.equals(result) &&
			returned.fileName === resultUrl.split('/').pop() &&
			returned.type === 'image/png',
		returned
			? `${returned.bytes.length} bytes (result ${result.length}), ${returned.fileName}, ${returned.type}`
			: 'no file',
	);

	const binaries: [ExpectedBinary, ExpectedBinary] = [
		{
			label: `${example.trigger}: the uploaded photo (binary "${example.fileProperty}")`,
			meta: nodeItems(full.data, example.trigger)?.[0]?.binary?.[example.fileProperty],
			bytes: photo,
		},
		{
			label: `${example.node}: the staged photo (binary "${resultProperty}")`,
			meta: staged,
			bytes: result,
		},
	];
	figures.push(
		`form upload on a worker (${example.id}): photo ${photo.length} B through ${new URL(sentUrl || 'http://-').pathname} → staged ${result.length} B, ` +
			`binary data mode ${BINARY_MODE}; ${describeRuns(full.id, mainInstance, workers)}`,
	);
	await checkReadBack(group, binaries);
	checkWhereBinaryDataWent(group, full, binaries);
}

/** What an execution that ended in error says: its error's message and description. */
async function errorOf(executionId: string): Promise<string> {
	const error = (await execution(executionId)).data?.resultData.error as
		| { message?: string; description?: string }
		| undefined;
	return error ? `${error.message ?? ''} (${error.description ?? ''})` : 'no error';
}

/** n8n's own setting, as its editor reads it: the main's binary data mode. */
async function checkBinaryModeSetting(group: string): Promise<void> {
	const settings = await rest('/rest/settings');
	equal(
		group,
		`the main's binary data mode (GET /rest/settings: binaryDataMode) is ${BINARY_MODE}`,
		settings.json.data?.binaryDataMode,
		BINARY_MODE,
	);
}

/** The first execution of the workflow not in `known` once its status is none of `passing`. */
async function nextExecution(
	workflowId: string,
	known: Set<string>,
	passing: string[],
): Promise<ExecutionRecord> {
	return await until('the form upload execution', 180_000, async () => {
		const fresh = (await executionsOf(workflowId)).find((record) => !known.has(record.id));
		return fresh && !passing.includes(fresh.status) ? fresh : undefined;
	});
}

/**
 * The main enqueued it, and a worker, not the main, ran the node: its log names the task it
 * created for this execution, and says it started the execution.
 */
function checkWhereItRan(
	group: string,
	executionId: string,
	mainInstance: Instance,
	workers: Instance[],
): void {
	check(
		group,
		'the main enqueued it (its log: "Enqueued execution")',
		logMessages(mainInstance, new RegExp(`^Enqueued execution ${executionId} `)).length >= 1,
		'no "Enqueued execution" line in the main log',
	);
	const creators = workers.filter((worker) => createdInLog(worker, executionId).length > 0);
	check(
		group,
		'the task was created on exactly one worker, once, and not on the main (the logs name it)',
		creators.length === 1 &&
			createdInLog(creators[0], executionId).length === 1 &&
			createdInLog(mainInstance, executionId).length === 0,
		`workers: ${creators.map((worker) => worker.name).join(', ') || 'none'}; main: ${createdInLog(mainInstance, executionId).length}`,
	);
	check(
		group,
		'that worker\'s log says "Worker started execution"',
		creators.length === 1 && startedBy(creators[0]).includes(executionId),
		creators.map((worker) => `${worker.name}: ${startedBy(worker).join(', ')}`).join('; '),
	);
}

/** Which process did what, for the summary. */
function describeRuns(executionId: string, mainInstance: Instance, workers: Instance[]): string {
	const enqueued = logMessages(mainInstance, new RegExp(`^Enqueued execution ${executionId} `));
	const started = workers.map(
		(worker) =>
			`${worker.name} started it ${startedBy(worker).filter((id) => id === executionId).length}×` +
			(createdInLog(worker, executionId).length ? ' (created the task)' : ''),
	);
	return `execution ${executionId}: enqueued ${enqueued.length}× by the main; ${started.join(', ')}`;
}

/** The item; `shownUrl`: the link as it says it was sent (n8n's link without its token). */
function checkTaskItem(
	example: FormUpload,
	group: string,
	item: Item | undefined,
	shownUrl: string,
	resultUrl: string,
): void {
	const json = item?.json;
	const binary = item?.binary?.[example.resultProperty!];
	equal(
		group,
		`${example.node}: the item (status, credits, input as sent without the link's token, result URL, binary's type and name)`,
		[
			json?.status,
			json?.creditsCharged,
			json?.input,
			json?.output?.resultUrl,
			binary?.mimeType,
			binary?.fileName,
		],
		[
			'Success',
			VIRTUAL_STAGING_CREDITS,
			{ imageUrl: shownUrl, prompt: example.prompt },
			resultUrl,
			'image/png',
			resultUrl.split('/').pop(),
		],
	);
}

/**
 * The staged photo read back through n8n's REST API, as the editor downloads it from the
 * execution's output: byte for byte. The uploaded photo too where n8n serves it: n8n stores it as
 * the form arrives, before the execution exists, and in `database` mode its REST API serves no
 * file whose row is not tied to an execution (2.41 answers 404). Its bytes are checked in n8n's
 * storage (checkWhereBinaryDataWent) either way.
 */
async function checkReadBack(
	group: string,
	[upload, result]: [ExpectedBinary, ExpectedBinary],
): Promise<void> {
	const read = await readThroughRest(result.meta);
	check(
		group,
		`${result.label}: read back through n8n's REST API (/rest/binary-data), byte for byte`,
		read?.status === 200 && read.bytes.equals(result.bytes),
		read
			? `HTTP ${read.status}, ${read.bytes.length} bytes, expected ${result.bytes.length}`
			: 'neither an id nor inline data',
	);
	const uploaded = await readThroughRest(upload.meta);
	if (uploaded?.status === 200)
		check(
			group,
			`${upload.label}: read back through n8n's REST API (/rest/binary-data), byte for byte`,
			uploaded.bytes.equals(upload.bytes),
			`${uploaded.bytes.length} bytes, expected ${upload.bytes.length}`,
		);
	else
		figures.push(
			`  ${upload.label} through /rest/binary-data: HTTP ${uploaded?.status ?? '-'} (not served)`,
		);
}

/**
 * A binary's bytes as n8n's REST API gives them: downloaded by its id (/rest/binary-data), or,
 * kept in memory (`default` mode), inline in the execution record the API returned.
 */
async function readThroughRest(
	meta: BinaryMeta | undefined,
): Promise<{ status: number; bytes: Buffer } | undefined> {
	if (meta?.id) return await binaryData(meta.id);
	if (meta?.data !== undefined) return { status: 200, bytes: Buffer.from(meta.data, 'base64') };
	return undefined;
}

/**
 * Where n8n kept the binary data: for `database`, rows of its `binary_data` table holding the
 * exact bytes and no file on disk; for `filesystem`, files in the folder the main and the
 * workers share, and no row.
 */
function checkWhereBinaryDataWent(
	group: string,
	full: ExecutionRecord,
	binaries: ExpectedBinary[],
): void {
	if (BINARY_MODE === 'default') {
		check(
			group,
			'the binary data is kept in the execution record (no id, the bytes inline)',
			binaries.every(({ meta }) => !meta?.id && meta?.data !== undefined),
			binaries.map(({ meta }) => meta?.id ?? 'inline').join(', '),
		);
		checkNoRows(group, full.id);
		checkNothingOnDisk(group);
		return;
	}
	const prefix = BINARY_MODE === 'filesystem' ? 'filesystem-v2:' : `${BINARY_MODE}:`;
	const ids = binaries.map(({ meta }) => meta?.id ?? '');
	check(
		group,
		`the binary data ids say mode ${BINARY_MODE} (${prefix}…)`,
		ids.every((id) => id.startsWith(prefix)),
		ids.join(', '),
	);
	const fileIds = ids.map((id) => id.slice(id.indexOf(':') + 1));
	if (BINARY_MODE === 'database') {
		const rows = binaryRows(fileIds);
		equal(
			group,
			"n8n's database holds each file (table binary_data: its size and bytes)",
			fileIds.map((fileId) => {
				const row = rows.find((candidate) => candidate.fileId === fileId);
				return row && [row.fileSize, row.sha256];
			}),
			binaries.map(({ bytes }) => [bytes.length, sha256(bytes)]),
		);
		checkNothingOnDisk(group);
		figures.push(
			`  binary_data rows: ${rows.map((row) => `${row.sourceType} ${row.sourceId}, ${row.fileSize} B`).join('; ')}`,
		);
	} else {
		const files = fileIds.map((fileId) => join(BINARY_FOLDER, fileId));
		equal(
			group,
			`each file is in the folder the main and the workers share (${BINARY_FOLDER}), byte for byte`,
			files.map((file) => existsSync(file) && sha256(readFileSync(file))),
			binaries.map(({ bytes }) => sha256(bytes)),
		);
		checkNoRows(group, full.id);
	}
}

function checkNoRows(group: string, executionId: string): void {
	equal(
		group,
		"no row of the execution in n8n's binary_data table",
		binaryRowsOfExecution(executionId),
		0,
	);
}

function checkNothingOnDisk(group: string): void {
	const onDisk = binaryFilesUnder(join(USER_FOLDER, '.n8n'));
	check(
		group,
		`no binary data file on disk (under the user folder's .n8n)`,
		onDisk.length === 0,
		onDisk.join('\n'),
	);
}

/** Binary data files under `root`: filesystem mode keeps them in `…/executions/<id>/binary_data/`. */
function binaryFilesUnder(root: string): string[] {
	if (!existsSync(root)) return [];
	return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((path) =>
		path.split(/[/\\]/).slice(0, -1).includes('binary_data'),
	);
}

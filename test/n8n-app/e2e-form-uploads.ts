/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The forms that take the room photo itself as a file, in `n8n start` (e2e-app.ts): the example
 * on n8n's own link, the link without waiting (the task outlives the execution), and the link
 * refused when n8n's address is on loopback and the service is not. n8n's public address
 * (`WEBHOOK_URL`) is the recording proxy of n8n-link.ts, so the checks see what the service
 * fetched from n8n, byte for byte.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { RunningService } from '../../service/server.ts';
import type { RestSession } from './n8n-process.ts';
import { sleep } from './report.ts';
import {
	API_KEY,
	check,
	type Context,
	equal,
	N8N_APP,
	report,
	runLaterChecks,
	taskLines,
	tasksSince,
} from './e2e-shared.ts';
import {
	binarySize,
	checkTaskItem,
	CREDITS,
	isExact64BitId,
	nodeItems,
	type RunOutput,
	storedBinary,
} from './e2e-items.ts';
import { FORM_UPLOAD_LATER, PHOTO_LINK_PUBLIC_API, SOURCES } from './e2e-examples.ts';
import {
	finishEndingPage,
	type FormUpload,
	publishPhotoForm,
	sha256,
	submitPhoto,
} from './form-upload.ts';
import {
	checkThroughN8nLink,
	type FrontProxy,
	openLink,
	shownLink,
	SIGNED_PATH,
} from './n8n-link.ts';

/**
 * A form example's execution once it has finished, over REST. n8n stores run data in its
 * flatted form, read here with n8n's own copy of flatted.
 */
export async function finishedFormExecution(
	group: string,
	session: RestSession,
	workflowId: string,
): Promise<(RunOutput & { id: string }) | undefined> {
	const executionId = (await executionIn(session, workflowId, ['new', 'running', 'waiting']))?.id;
	if (!check(group, 'one execution finished', !!executionId, 'none within 90 s')) return undefined;
	const execution = (await session.rest(`/rest/executions/${executionId}`)).json.data ?? {};
	const appRequire = createRequire(join(N8N_APP, 'node_modules', 'n8n', 'package.json'));
	const flatted = appRequire('flatted') as { parse(text: string): RunOutput['data'] };
	return {
		id: executionId!,
		status: String(execution.status),
		finished: execution.finished as boolean | undefined,
		data: flatted.parse(String(execution.data)),
	};
}

/** The finished execution, checked to have succeeded (and returned either way, for more checks). */
export async function succeededFormExecution(
	group: string,
	session: RestSession,
	workflowId: string,
): Promise<(RunOutput & { id: string }) | undefined> {
	const run = await finishedFormExecution(group, session, workflowId);
	if (!run) return undefined;
	check(
		group,
		'execution finished with status success',
		run.status === 'success' && !run.data.resultData.error,
		`status ${run.status}: ${run.data.resultData.error?.message ?? ''}`,
	);
	return run;
}

/**
 * The workflow's first execution whose status is not one of `passing` (within 90 s), as the
 * executions list shows it.
 */
export async function executionIn(
	session: RestSession,
	workflowId: string,
	passing: string[],
): Promise<{ id: string; status: string } | undefined> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const deadline = Date.now() + 90_000;
	while (Date.now() < deadline) {
		const list = await session.rest(`/rest/executions?filter=${filter}`);
		const results = (list.json.data?.results ?? []) as Array<{ id: string; status: string }>;
		const found = results.find((entry) => !passing.includes(entry.status));
		if (found) return found;
		await sleep(500);
	}
	return undefined;
}

/** What a node's error in a finished execution said: its message and description. */
export function errorAt(run: RunOutput, node: string): string {
	const nodeRun = run.data.resultData.runData[node]?.[0] as
		| { error?: { message?: string; description?: string } }
		| undefined;
	return `${nodeRun?.error?.message ?? ''} ${nodeRun?.error?.description ?? ''}`;
}

/** The service's sample room photo, as the forms' file. */
export async function samplePhoto(service: RunningService): Promise<Buffer> {
	return Buffer.from(
		await (await fetch(`${service.baseUrl}/samples/living-room.png`)).arrayBuffer(),
	);
}

/** n8n's own setting, as its editor reads it: the binary data mode files get ids in. */
export async function checkBinaryDataMode(
	group: string,
	session: RestSession,
	expected: string,
): Promise<void> {
	const settings = await session.rest('/rest/settings');
	equal(
		group,
		`n8n's binary data mode (GET /rest/settings: binaryDataMode) is ${expected}`,
		settings.json.data?.binaryDataMode,
		expected,
	);
}

// ---------------------------------------------------------------------------------------------
// The form example, waiting for the task, on n8n's link

/**
 * The form that takes the room photo as a file, as users run it: published, the photo submitted,
 * the form ending's page read as the browser gets it (with the staged photo to save) and then
 * posted back, as its script does, so that the execution ends. The service must have fetched the
 * uploaded file's own bytes from n8n itself, through n8n's signed link; and the staged photo must
 * reach both the item and the submitter.
 */
export async function checkFormUpload(
	ctx: Context,
	service: RunningService,
	proxy: FrontProxy,
	base: string,
	session: RestSession,
	example: FormUpload,
): Promise<void> {
	const ending = example.ending!;
	const resultProperty = example.resultProperty!;
	const group = `workflow ${example.id} (a photo file on n8n's own link, in n8n start)`;
	const formUrl = await publishPhotoForm(report, group, base, session, example);
	if (!formUrl) return;
	const tasksBefore = service.stats().tasks.length;
	const photo = await samplePhoto(service);

	const waitingUrl = await submitPhoto(report, group, formUrl, photo);
	if (!waitingUrl) return;
	// The ending page is served once the execution waits there, the staged photo in hand.
	const paused = await executionIn(session, example.id, ['new', 'running']);
	const waiting = paused?.status === 'waiting';
	if (
		!check(
			group,
			`the execution reached "${ending}" and waits for the browser`,
			waiting,
			waiting ? undefined : await whyNotWaiting(group, session, example.id, paused),
		)
	)
		return;
	const handed = await finishEndingPage(report, group, waitingUrl, ending);

	const run = await succeededFormExecution(group, session, example.id);
	if (!run) return;
	const upload = nodeItems(group, run, example.trigger, 1)[0];
	const file = upload?.binary?.[example.fileProperty];
	equal(
		group,
		`${example.trigger}: the uploaded photo is the item's binary "${example.fileProperty}" (size, type)`,
		[file?.mimeType, file && binarySize(file)],
		['image/png', photo.length],
	);

	const newTasks = tasksSince(ctx, service, tasksBefore);
	const item = nodeItems(group, run, example.node, 1)[0];
	equal(
		group,
		'the service created exactly one task for the submission, the id the node emitted',
		newTasks.map((task) => task.id),
		[item?.json.id],
	);
	const sentUrl = String(newTasks[0]?.imageUrl ?? '');
	if (item) {
		const shown = shownLink(sentUrl);
		await checkTaskItem(ctx, group, example.node, 0, item, {
			kind: 'virtualStaging',
			imageUrls: [sentUrl],
			input: { imageUrl: sentUrl, prompt: example.prompt },
			itemImageUrls: [shown],
			itemInput: { imageUrl: shown, prompt: example.prompt },
			source: SOURCES['living-room.png'],
			binary: resultProperty,
		});
	}
	const claims = checkThroughN8nLink(report, group, proxy, sentUrl, photo);
	// n8n 2.x moves the form's file from its `temp` id when the run ends (restoreBinaryDataId),
	// so a link to that id then opens nothing; 1.x moves only a binary property named `data`.
	// n8n's doing, not the node's: noted, not checked.
	const after = await openLink(sentUrl);
	const route = `n8n's link (${claims.id ?? 'no id'}, valid ${claims.lifetimeSeconds ?? '?'} s; after the run: HTTP ${after.status})`;

	const endingItem = nodeItems(group, run, ending, 1)[0];
	const staged = item?.binary?.[resultProperty];
	equal(
		group,
		`${ending}: passes the staged photo on as the node attached it`,
		endingItem?.binary?.[resultProperty],
		staged,
	);
	const result = String(item?.json.output?.resultUrl ?? '');
	const resultBytes = Buffer.from(await (await fetch(result)).arrayBuffer());
	check(
		group,
		`${ending}: the submitter gets the staged photo, byte for byte the service's result`,
		!!handed && handed.bytes.equals(resultBytes),
		handed ? `${handed.bytes.length} bytes, result ${resultBytes.length} bytes` : 'no file',
	);
	equal(
		group,
		`${ending}: saved as the result's file name and type`,
		[handed?.fileName, handed?.type],
		[result.split('/').pop(), 'image/png'],
	);
	const kept = staged && storedBinary(staged);
	check(
		group,
		`${ending}: the file handed over is the one n8n stored for the item`,
		!!kept && !!handed && kept.equals(handed.bytes),
		kept ? `stored ${kept.length} bytes` : 'stored binary not readable',
	);
	taskLines.push(
		`form upload ${example.id}: photo ${photo.length} B via ${route} → staged ${resultBytes.length} B handed back`,
	);
	await runLaterChecks(ctx);
}

/** What an execution that did not reach the form ending says: its status, error and description. */
async function whyNotWaiting(
	group: string,
	session: RestSession,
	workflowId: string,
	paused: { status: string } | undefined,
): Promise<string> {
	if (!paused) return 'no execution within 90 s';
	const ended = await finishedFormExecution(group, session, workflowId);
	const error = ended?.data.resultData.error as
		| { message?: string; description?: string }
		| undefined;
	return `status ${paused.status}: ${error?.message ?? ''} (${error?.description ?? ''})`;
}

// ---------------------------------------------------------------------------------------------
// n8n's link without waiting

/**
 * The photo on n8n's link with Wait for Completion off: the execution ends as soon as the task is
 * created, and n8n then moves the form's file from its `temp` id. The service must still have
 * fetched the file's bytes from n8n, and the link it holds must still open them after the
 * execution has ended (a task that waits in the service's queue fetches its photo late): the
 * node links a copy stored under the execution's own id.
 */
export async function checkFormUploadLater(
	service: RunningService,
	proxy: FrontProxy,
	base: string,
	session: RestSession,
): Promise<void> {
	const example = FORM_UPLOAD_LATER;
	const group = `workflow ${example.id} (n8n's link, Wait for Completion off, in n8n start)`;
	const formUrl = await publishPhotoForm(report, group, base, session, example);
	if (!formUrl) return;
	const tasksBefore = service.stats().tasks.length;
	const balanceBefore = service.balance(API_KEY);
	const photo = await samplePhoto(service);
	if (!(await submitPhoto(report, group, formUrl, photo, false))) return;

	const run = await succeededFormExecution(group, session, example.id);
	if (!run) return;
	const item = nodeItems(group, run, example.node, 1)[0];
	const id = item?.json.id;
	check(
		group,
		`${example.node}: id is a string of digits above 2^53`,
		isExact64BitId(id),
		`id ${JSON.stringify(id)}`,
	);
	equal(
		group,
		`${example.node}: output at once, Unprocessed, ${CREDITS.virtualStaging} credit, linked to item 0`,
		[item?.json.status, item?.json.creditsCharged, item?.pairedItem],
		['Unprocessed', CREDITS.virtualStaging, { item: 0 }],
	);
	const newTasks = service.stats().tasks.slice(tasksBefore);
	equal(
		group,
		'the service created exactly one task for the submission, the id the node emitted',
		newTasks.map((task) => task.id),
		[id],
	);
	const sentUrl = String(newTasks[0]?.imageUrl ?? '');
	const claims = checkThroughN8nLink(report, group, proxy, sentUrl, photo);
	const trigger = nodeItems(group, run, example.trigger, 1)[0]?.binary?.[example.fileProperty];
	check(
		group,
		`the link opens a copy of the file stored under the execution's own id (…/executions/${run.id}/…), not the form's file (${trigger?.id ?? 'no id'})`,
		!!claims.id && claims.id.includes(`/executions/${run.id}/`) && claims.id !== trigger?.id,
		`the link opens ${claims.id ?? 'nothing readable'}`,
	);

	const said = item?.json.photoLink as { address?: unknown; expiresAt?: unknown } | undefined;
	const saidExpiry = Date.parse(String(said?.expiresAt));
	check(
		group,
		"the item says where the task fetches its photo and until when (photoLink: n8n's public address, and the link's own expiry)",
		said?.address === new URL(proxy.url).origin &&
			claims.expiresAt !== undefined &&
			Math.abs(saidExpiry - claims.expiresAt) <= 5_000,
		`photoLink ${JSON.stringify(said)}; the link expires ${claims.expiresAt ? new Date(claims.expiresAt).toISOString() : '?'}`,
	);

	// The execution has ended (n8n has moved the form's file): the link still opens the photo.
	const after = await openLink(sentUrl);
	check(
		group,
		`after the execution has ended, the link still opens the photo, byte for byte (GET ${SIGNED_PATH} through n8n's public address)`,
		after.status === 200 && sha256(after.bytes) === sha256(photo),
		`HTTP ${after.status}, ${after.bytes.length} bytes (photo ${photo.length})`,
	);
	const ended = await waitForTaskEnd(service, String(id));
	equal(
		group,
		"the service's task ended Success (its photo fetched from n8n), 1 credit spent",
		[ended?.status, ended?.refunded, balanceBefore - service.balance(API_KEY)],
		['Success', false, CREDITS.virtualStaging],
	);
	taskLines.push(
		`form upload ${example.id}: task ${String(id)} ${String(item?.json.status)} at the end of the run; ` +
			`link ${claims.id ?? 'no id'} (valid ${claims.lifetimeSeconds ?? '?'} s): HTTP ${after.status} after the run; task ${ended?.status ?? '?'}`,
	);
}

/** The service's record of a task once it has ended (within 20 s). */
async function waitForTaskEnd(
	service: RunningService,
	id: string,
): Promise<{ status: string; refunded: boolean } | undefined> {
	const deadline = Date.now() + 20_000;
	for (;;) {
		const task = service.stats().tasks.find((entry) => entry.id === id);
		if (!task || ['Success', 'Failed'].includes(task.status) || Date.now() > deadline) return task;
		await sleep(200);
	}
}

// ---------------------------------------------------------------------------------------------
// n8n's link refused: n8n on loopback, the service public

/**
 * n8n's address (WEBHOOK_URL, the links' host) is on loopback while the credential's base URL is
 * public: the service could not open the link. The node must refuse before anything is sent,
 * saying to set WEBHOOK_URL; a request sent anyway would fail on a name that never resolves
 * (`.invalid`), with another message.
 */
export async function checkPublicApiRefused(
	service: RunningService,
	proxy: FrontProxy,
	base: string,
	session: RestSession,
): Promise<void> {
	const example = PHOTO_LINK_PUBLIC_API;
	const group = `workflow ${example.id} (n8n's link refused: n8n on loopback, the service public)`;
	const formUrl = await publishPhotoForm(report, group, base, session, example);
	if (!formUrl) return;
	const fetchesBefore = proxy.fetches.length;
	const photo = await samplePhoto(service);
	if (!(await submitPhoto(report, group, formUrl, photo, false))) return;
	const run = await finishedFormExecution(group, session, example.id);
	if (!run) return;
	const message = errorAt(run, example.node);
	check(
		group,
		`the execution ended in error at ${example.node}, whose message names WEBHOOK_URL`,
		run.status === 'error' && /WEBHOOK_URL/.test(message),
		`status ${run.status}: ${message.slice(0, 400)}`,
	);
	equal(group, 'nobody fetched an n8n link', proxy.fetches.length - fetchesBefore, 0);
	taskLines.push(`refused ${example.id}: ${message.trim().slice(0, 200)}`);
}

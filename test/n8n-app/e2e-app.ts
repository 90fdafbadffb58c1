/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * `n8n start`, where users meet the package: the editor's catalogue (our node types, credential
 * types and icons), the credential's Test button, the form examples published and submitted, and
 * Stop while a node waits on its task. n8n's log of it all gets the checks of every n8n command.
 */
import { writeFileSync } from 'node:fs';

import type { RunningService } from '../../service/server.ts';
import type { PrivateBucket } from './private-bucket.ts';
import {
	activateWorkflow,
	logFile,
	type N8nProcess,
	parseLogLines,
	type RestSession,
	setUpOwner,
	untilReady,
} from './n8n-process.ts';
import { sleep } from './report.ts';
import {
	check,
	checkLoaderAndLogs,
	type Context,
	CREDENTIAL,
	equal,
	n8nLine,
	report,
	NODE_TYPES,
	runLaterChecks,
	sample,
	SERVICE_OPTIONS,
	startN8n,
	taskLines,
	WORK,
} from './e2e-shared.ts';
import { binarySize, checkTaskItem, nodeItems } from './e2e-items.ts';
import { FORM_EXAMPLE, FORM_UPLOAD_EXAMPLE, SOURCES, STOP_WORKFLOW } from './e2e-examples.ts';
import {
	checkBinaryDataMode,
	checkFormUpload,
	checkFormUploadLater,
	checkPublicApiRefused,
	succeededFormExecution,
} from './e2e-form-uploads.ts';
import { type FrontProxy, startFrontProxy } from './n8n-link.ts';
import { checkRecipes } from './e2e-recipe.ts';
import { publishForm } from './form-upload.ts';
import { checkQuickStart } from './e2e-quick-start.ts';

/** How often the nodes ask the service for a task's status, in seconds. */
const POLL_SECONDS = 3;

export async function checkRunningApp(
	ctx: Context,
	service: RunningService,
	bucket: PrivateBucket,
	port: number,
): Promise<void> {
	const group = 'n8n start (editor + credential test)';
	const base = `http://127.0.0.1:${port}`;
	// n8n's public address, which its links carry: a reverse proxy in front of it (n8n-link.ts).
	const proxy = await startFrontProxy(port);
	// n8n 1.x keeps files in memory by default, where n8n's link cannot reach them.
	const onFiles: Record<string, string> = n8nLine().startsWith('1.')
		? { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' }
		: {};
	const app = startN8n(['start'], { WEBHOOK_URL: proxy.url, ...onFiles });
	try {
		const session = await readySession(group, base, app);
		if (!session) return;
		await checkCatalogue(group, base, session);
		await checkBinaryDataMode(group, session, 'filesystem');
		await checkCredentialTest(group, service, session);
		await checkQuickStart(ctx, service, session);
		await checkFormExample(ctx, service, base, session);
		await checkFormUpload(ctx, service, proxy, base, session, FORM_UPLOAD_EXAMPLE);
		await checkFormUploadLater(service, proxy, base, session);
		await checkPublicApiRefused(service, proxy, base, session);
		await checkRecipes(ctx, n8nLine(), { service, proxy, bucket, base, session });
		await checkStop(service, base, session);
	} catch (error) {
		check(group, 'checks ran', false, (error as Error).stack);
	} finally {
		await stopAndCheckLog(app, proxy);
		await proxy.close();
	}
}

/** Waits for the editor, then sets up the owner of the fresh instance and logs in over REST. */
async function readySession(
	group: string,
	base: string,
	app: N8nProcess,
): Promise<RestSession | undefined> {
	if (
		!check(
			group,
			'editor ready (/healthz/readiness)',
			await untilReady(`${base}/healthz/readiness`, app.child, 90_000),
			app.output().slice(-2000),
		)
	)
		return undefined;
	let session: RestSession;
	try {
		session = await setUpOwner(base);
	} catch (error) {
		check(group, 'owner account set up (REST login)', false, (error as Error).message);
		return undefined;
	}
	check(group, 'owner account set up (REST login)', true);
	return session;
}

/** The editor's catalogue, as the browser loads it (after login), and the icons it points to. */
async function checkCatalogue(group: string, base: string, { rest }: RestSession): Promise<void> {
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
}

/**
 * What the editor sends when Test is clicked on the saved credential: its data with the secret
 * redacted, which n8n fills in from the database.
 */
async function checkCredentialTest(
	group: string,
	service: RunningService,
	{ rest }: RestSession,
): Promise<void> {
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
}

async function stopAndCheckLog(app: N8nProcess, proxy: FrontProxy): Promise<void> {
	await app.stop();
	const output = app.output();
	writeFileSync(logFile(WORK, 'start'), output);
	// Whoever holds a link's token can open the file: n8n's log (the nodes' lines in it) must not.
	const tokens = [...new Set(proxy.fetches.map((entry) => entry.token).filter(Boolean))];
	check(
		'n8n start (editor + credential test)',
		`the ${tokens.length} link token(s) the service used appear nowhere in n8n's log`,
		tokens.length > 0 && tokens.every((token) => !output.includes(token)),
		tokens.length ? 'a token is in the log' : 'no link was fetched',
	);
	// The plain-http credential test makes n8n log the credential's refusal (with its stack), the
	// Stop check calls its webhook until n8n has registered it (n8n 2.x does so a moment after
	// activation, logging each early call as unknown), and n8n 2.x logs the error of the
	// production execution whose link the node refuses (PHOTO_LINK_PUBLIC_API).
	checkLoaderAndLogs(
		'start',
		{ code: app.child.exitCode, stdout: output, stderr: '', lines: parseLogLines(output) },
		/must start with https:\/\/|webhook "POST ideal-house-stop" is not registered|which Ideal House cannot reach to fetch the photo/,
	);
}

// ---------------------------------------------------------------------------------------------
// The form example

/**
 * The form example as users run it: published, then a submission to its production URL with the
 * mask as an uploaded file; the execution is read back over REST.
 */
async function checkFormExample(
	ctx: Context,
	service: RunningService,
	base: string,
	session: RestSession,
): Promise<void> {
	const group = `workflow ${FORM_EXAMPLE.id} (form upload, in n8n start)`;
	const formUrl = await publishForm(
		report,
		group,
		base,
		session,
		FORM_EXAMPLE,
		/Photo URL/,
		'its two fields',
	);
	if (!formUrl) return;
	const tasksBefore = service.stats().tasks.length;
	const mask = await submitForm(ctx, group, service, formUrl);
	if (!mask) return;
	const run = await succeededFormExecution(group, session, FORM_EXAMPLE.id);
	if (!run) return;
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
	await runLaterChecks(ctx);
}

/** Submits the sample photo's URL and its mask as a file; returns the mask's bytes if accepted. */
async function submitForm(
	ctx: Context,
	group: string,
	service: RunningService,
	formUrl: string,
): Promise<Buffer | undefined> {
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
		return undefined;
	return mask;
}

// ---------------------------------------------------------------------------------------------
// Stop while waiting

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
	const activated = await activateWorkflow(session, STOP_WORKFLOW.id);
	if (!check(group, 'activated over REST', activated.active, activated.detail)) return;
	const previous = service.stats().tasks.length;
	service.configure({ taskDurationMs: 600_000 });
	try {
		if (!(await startLongTask(group, service, base, previous))) return;
		const task = service.stats().tasks[previous];
		const running = await runningExecution(group, session);
		if (!running) return;
		const pollsOf = () =>
			service.stats().requests.byEndpoint['/api/v1/photoEnhancer/result']?.total ?? 0;
		await until(() => pollsOf() > 0, 3 * POLL_SECONDS * 1000);
		const { status, seconds } = await stopExecution(group, session, running.id);
		const pollsAtEnd = pollsOf();
		await sleep(2 * POLL_SECONDS * 1000);
		equal(
			group,
			`no status check after the execution ended (${2 * POLL_SECONDS} s watched)`,
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
			`stop: task ${task.id} waited on, execution ${running.id} ${status} ${seconds.toFixed(1)} s after Stop`,
		);
	} finally {
		service.configure({ taskDurationMs: SERVICE_OPTIONS.taskDurationMs });
	}
}

/**
 * Calls the production webhook until n8n has registered it, then waits for the node to create
 * its task (the `previous`-th of the service). Returns whether it did.
 */
async function startLongTask(
	group: string,
	service: RunningService,
	base: string,
	previous: number,
): Promise<boolean> {
	let called = false;
	await until(
		async () => (called = (await fetch(`${base}/webhook/ideal-house-stop`, { method: 'POST' })).ok),
		30_000,
	);
	if (!check(group, 'the production webhook answered', called, 'no 2xx within 30 s')) return false;
	const created = await until(() => service.stats().tasks.length > previous, 30_000);
	return check(group, 'the node created its task', created, 'no task within 30 s');
}

async function runningExecution(
	group: string,
	session: RestSession,
): Promise<{ id: string; status: string } | undefined> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: STOP_WORKFLOW.id }));
	const listed = await session.rest(`/rest/executions?filter=${filter}`);
	const running = ((listed.json.data?.results ?? []) as Array<{ id: string; status: string }>).find(
		(entry) => entry.status === 'running',
	);
	if (
		!check(
			group,
			'its execution is listed as running',
			!!running,
			JSON.stringify(listed.json).slice(0, 300),
		)
	)
		return undefined;
	return running;
}

/** Presses Stop and waits for the execution to end; returns its status and the seconds it took. */
async function stopExecution(
	group: string,
	session: RestSession,
	executionId: string,
): Promise<{ status: string; seconds: number }> {
	const stoppedAt = Date.now();
	const stop = await session.rest(`/rest/executions/${executionId}/stop`, {});
	check(
		group,
		'Stop accepted over REST',
		stop.status === 200,
		`HTTP ${stop.status} ${JSON.stringify(stop.json).slice(0, 300)}`,
	);
	let status = '';
	const ended = await until(async () => {
		status = String(
			(await session.rest(`/rest/executions/${executionId}`)).json.data?.status ?? '',
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
		`it ended within one poll interval (${seconds.toFixed(1)} s ≤ ${POLL_SECONDS + 1} s)`,
		seconds <= POLL_SECONDS + 1,
		`${seconds.toFixed(1)} s`,
	);
	return { status, seconds };
}

/** Whether `what` holds within `ms`, asked every 200 ms. */
async function until(what: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (Date.now() < deadline) {
		if (await what()) return true;
		await sleep(200);
	}
	return false;
}

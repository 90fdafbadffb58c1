/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console */
/**
 * End-to-end test in the real n8n app, as a user gets the package. run.sh (`npm run test:n8n`)
 * has already installed n8n, built and packed this package, and installed the tarball into
 * N8N_USER_FOLDER/.n8n/nodes the way n8n's own community-package install does. This script:
 *
 *  1. checks the tarball and the install, then starts the local service (fast tasks, fixed seed)
 *     on a free port;
 *  2. `n8n export:nodes`: our three node types and their tool variants are known, the loader
 *     complained about nothing;
 *  3. `n8n import:credentials`: an "Ideal House API" credential pointing at the service, and, for
 *     the recipe through the user's own bucket, an AWS credential pointing at a private bucket on
 *     loopback (s3rver behind a proxy that answers as a private bucket does);
 *  4. `n8n import:workflow`: examples/*.json, each checked as a file first, with the sample base
 *     URL replaced;
 *  5. `n8n execute --id=… --rawOutput` for each example, then checks every item the nodes
 *     emitted against the service's own record (`/__admin/stats`): exact 64-bit task ids,
 *     statuses, result URLs and sizes, credits, and the downloaded files byte for byte;
 *  6. `n8n start`: the editor serves our node types, credential type and icons, the
 *     credential's Test button (REST /rest/credentials/test) passes for the right key and fails
 *     with our messages for a wrong key and for plain http to another host, the form examples
 *     take an upload (the mask; the photo itself, on n8n's own link, staged and handed back; the
 *     photo through the private bucket, the recipe), and Stop ends a node's wait.
 *
 * Prints one summary; exits 1 if any check failed. Logs of every n8n command stay in E2E_WORK.
 *
 * The steps live in e2e-setup.ts (1–4), e2e-examples.ts and e2e-items.ts (what 5 expects), and
 * e2e-app.ts (6); e2e-shared.ts holds the settings, the report and the n8n CLI they share.
 */
import { type RunningService, startService } from '../../service/server.ts';
import { startPrivateBucket } from './private-bucket.ts';
import { exampleForLocalSetUp } from '../helpers/local-examples.ts';
import { n8nVersion, PACKAGE, runMain } from './report.ts';
import {
	API_KEY,
	check,
	type Context,
	editorPort,
	equal,
	N8N_APP,
	n8n,
	n8nLine,
	prepareN8n,
	report,
	runLaterChecks,
	SERVICE_OPTIONS,
	type ServiceTask,
	START_CREDITS,
	taskLines,
	timed,
	WORK,
} from './e2e-shared.ts';
import {
	checkInstall,
	checkTarball,
	checkWorkflowFiles,
	exportNodes,
	importMoreCredentials,
	importServiceCredential,
	importTestWorkflows,
} from './e2e-setup.ts';
import { EXAMPLES, type Example, PHOTO_LINK_IN_MEMORY } from './e2e-examples.ts';
import { CREDITS, nodeItems, runOutput } from './e2e-items.ts';
import { checkRunningApp } from './e2e-app.ts';
import {
	RECIPE_BUCKET_NAME,
	RECIPE_PREFIX,
	RECIPE_S3_NODE,
	recipeCredentials,
} from './e2e-recipe.ts';

/** One `n8n execute` as the summary lists it. */
interface ExampleRun {
	example: Example;
	seconds: number;
	status: string;
}

async function main(): Promise<number> {
	await prepareN8n();
	checkTarball();
	checkInstall();

	const service = await startService({ port: 0, host: '127.0.0.1', ...SERVICE_OPTIONS });
	const ctx: Context = { base: service.baseUrl, emitted: new Map(), later: [] };
	console.log(
		`Local service on ${service.baseUrl} (tasks ${SERVICE_OPTIONS.taskDurationMs} ms, seed ${SERVICE_OPTIONS.seed})`,
	);
	const bucket = await startPrivateBucket(RECIPE_BUCKET_NAME, RECIPE_PREFIX);
	console.log(
		`Private bucket (s3rver behind a proxy, reads open under ${RECIPE_PREFIX}) on ${bucket.endpoint}, bucket ${bucket.bucket}`,
	);
	const runs: ExampleRun[] = [];
	try {
		await exportNodes();
		await importServiceCredential(service.baseUrl);
		await importMoreCredentials(recipeCredentials(bucket));
		const recipeBucket = { name: bucket.bucket, url: `${bucket.endpoint}/${bucket.bucket}` };
		// The test workflow of the recipe's variant names the same placeholder bucket.
		const files = checkWorkflowFiles().map((workflow) =>
			workflow.file === RECIPE_S3_NODE.file
				? {
						...workflow,
						text: exampleForLocalSetUp(workflow.text, {
							service: service.baseUrl,
							bucket: recipeBucket,
						}),
					}
				: workflow,
		);
		await importTestWorkflows(files, service.baseUrl, recipeBucket);

		for (const example of EXAMPLES) runs.push(await executeExample(ctx, example));
		await checkServiceRecord(ctx, service.baseUrl);
		await executeInMemoryMode(service);

		await timed(
			'n8n start (editor, credential test, forms)',
			async () => await checkRunningApp(ctx, service, bucket, editorPort()),
		);
	} finally {
		await bucket.close();
		await service.close();
	}
	return printSummary(runs);
}

/** `n8n execute` of one example: it ran and succeeded, then what the example's nodes output. */
async function executeExample(ctx: Context, example: Example): Promise<ExampleRun> {
	const group = `workflow ${example.id}`;
	const start = Date.now();
	const result = await timed(
		`n8n execute --id=${example.id}`,
		async () =>
			await n8n(`execute-${example.id}`, ['execute', `--id=${example.id}`, '--rawOutput']),
	);
	const run = runOutput(result);
	const executed: ExampleRun = {
		example,
		seconds: (Date.now() - start) / 1000,
		status: run?.status ?? `exit ${result.code}`,
	};
	check(group, 'exit code 0', result.code === 0, `exit ${result.code}`);
	if (
		!check(
			group,
			'run data printed (--rawOutput)',
			!!run,
			`no run data in the output; see logs/execute-${example.id}.log`,
		)
	)
		return executed;
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
	return executed;
}

/**
 * n8n's link where n8n keeps files in memory (n8n 1.x's default binary data mode, `default`; 2.x
 * still has it, deprecated, when set): such a file has no id for n8n to sign, so the node must
 * refuse the item before anything is sent, naming the setting. `n8n execute` of a workflow that
 * downloads the photo as a file, then stages it on n8n's link (the node continues on fail).
 */
async function executeInMemoryMode(service: RunningService): Promise<void> {
	const workflow = PHOTO_LINK_IN_MEMORY;
	const line = n8nLine();
	// 1.x is in this mode unless told otherwise, as users run it; 2.x only when set.
	const inMemory: Record<string, string> = line.startsWith('1.')
		? {}
		: { N8N_DEFAULT_BINARY_DATA_MODE: 'default' };
	const group = `workflow ${workflow.id} (n8n's link, binary data in memory${line.startsWith('1.') ? ", n8n 1.x's default" : ''})`;
	const before = service.stats();
	const result = await timed(
		`n8n execute --id=${workflow.id}`,
		async () =>
			await n8n(
				`execute-${workflow.id}`,
				['execute', `--id=${workflow.id}`, '--rawOutput'],
				inMemory,
			),
	);
	const run = runOutput(result);
	if (!check(group, 'run data printed (--rawOutput)', !!run, `exit ${result.code}`)) return;
	const photo = nodeItems(group, run!, workflow.download, 1)[0]?.binary?.photo;
	check(
		group,
		`${workflow.download}: the photo is a file kept in memory (no id, the bytes inline)`,
		!!photo && !photo.id && typeof photo.data === 'string' && photo.data.length > 0,
		JSON.stringify({ id: photo?.id, inline: typeof photo?.data }),
	);
	const item = nodeItems(group, run!, workflow.node, 1)[0];
	// Continue on fail: the item carries the error's message and its description.
	const message = String(item?.json.error ?? '');
	const description = String(
		(item?.json.details as { description?: unknown } | undefined)?.description ?? '',
	);
	check(
		group,
		`${workflow.node}: the item fails, its error (message or description) naming N8N_DEFAULT_BINARY_DATA_MODE`,
		message !== '' &&
			/N8N_DEFAULT_BINARY_DATA_MODE/.test(`${message} ${description}`) &&
			item?.json.id === undefined,
		JSON.stringify(item?.json ?? null).slice(0, 400),
	);
	const after = service.stats();
	equal(
		group,
		'nothing was sent to the service (no task created, no API request)',
		[after.tasks.length - before.tasks.length, after.requests.total - before.requests.total],
		[0, 0],
	);
	taskLines.push(`refused ${workflow.id}: ${message.slice(0, 200)}`);
}

/**
 * The service's own record: first the per-item checks that waited for it, then that every task it
 * made is one the nodes emitted, and vice versa, with the credits and answers that go with them.
 */
async function checkServiceRecord(ctx: Context, serviceUrl: string): Promise<void> {
	const stats = (await (await fetch(`${serviceUrl}/__admin/stats`)).json()) as {
		tasks: ServiceTask[];
		credits: { charged: number; refunded: number };
		balances: Record<string, number>;
		requests: { byCode: Record<string, number>; byStatus: Record<string, number> };
	};
	ctx.stats = stats;
	await runLaterChecks(ctx);

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
		(sum, task) => sum + CREDITS[task.kind as keyof typeof CREDITS],
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

function printSummary(runs: ExampleRun[]): number {
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

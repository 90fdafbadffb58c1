/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The CRM example in a live n8n: its webhook called for several listings at once, one photo the
 * service rejects before creating a task and one whose task fails; checked against what the CRM
 * stand-in received, the webhook's answers and the service's own task list.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { creditsOf } from '../helpers/prices.ts';
import { activateWorkflow } from '../n8n-app/n8n-process.ts';
import { type Context, executionsOf, settings, TERMINAL, until, WORKFLOWS } from './setup.ts';

const GROUP = 'CRM webhook (concurrent calls, live n8n)';
/** How long a call may take: the tasks' 1.5 s, the nodes' first poll after about 4 s, both nodes. */
const ANSWER_BUDGET_MS = 60_000;

interface Photo {
	mediaKey: string;
	url: string;
	emptyRoom?: boolean;
}

interface Call {
	listingId: string;
	photos: Photo[];
}

/** Each URL carries the listing and photo, so that every task the service made maps to one photo. */
function calls(ctx: Context): Call[] {
	const sample = (name: string, listing: string, n: number, extra = '') =>
		`${ctx.service.baseUrl}/samples/${name}?listing=${listing}&photo=${n}${extra}`;
	return [
		{
			listingId: 'L-2001',
			photos: [
				{ mediaKey: 'L-2001-1', url: sample('exterior.png', 'L-2001', 1) },
				{ mediaKey: 'L-2001-2', url: sample('kitchen.png', 'L-2001', 2) },
			],
		},
		{
			listingId: 'L-2002',
			photos: [
				{ mediaKey: 'L-2002-1', url: sample('kitchen.png', 'L-2002', 1) },
				{ mediaKey: 'L-2002-2', url: sample('living-room.png', 'L-2002', 2), emptyRoom: true },
			],
		},
		{
			listingId: 'L-2003',
			photos: [
				// 64 px: the service refuses it before creating a task (below its 128 px minimum).
				{ mediaKey: 'L-2003-1', url: sample('tiny.png', 'L-2003', 1), emptyRoom: true },
				// The local service fails the task of a URL that says "fail" (and refunds it).
				{ mediaKey: 'L-2003-2', url: sample('exterior.png', 'L-2003', 2, '&shot=fail') },
				{ mediaKey: 'L-2003-3', url: sample('living-room.png', 'L-2003', 3), emptyRoom: true },
			],
		},
		{
			listingId: 'L-2004',
			photos: [{ mediaKey: 'L-2004-1', url: sample('kitchen.png', 'L-2004', 1), emptyRoom: true }],
		},
	];
}

interface Answer {
	call: Call;
	status: number;
	ms: number;
	body: unknown;
}

/**
 * Activates (publishes) the example. n8n 2.x registers the webhook a moment later (its
 * publication outbox), so a GET is sent until n8n answers that the path takes POST only.
 */
export async function activateCrm(ctx: Context): Promise<void> {
	const { report, session } = ctx;
	const activated = await activateWorkflow(session, WORKFLOWS.crm.id);
	report.check(GROUP, 'activated (REST)', activated.active, activated.detail);
}

async function untilRegistered(ctx: Context): Promise<boolean> {
	return await until('the CRM webhook to be registered', 60_000, async () => {
		const probe = await fetch(`${ctx.n8nBase}/webhook/${WORKFLOWS.crm.path}`);
		return (await probe.text()).includes('POST') ? true : undefined;
	}).catch(() => false);
}

export async function runCrm(ctx: Context): Promise<void> {
	ctx.report.check(
		GROUP,
		'its production webhook is registered for POST',
		await untilRegistered(ctx),
		'GET never answered that the path takes POST',
	);
	const before = new Set(ctx.service.stats().tasks.map((task) => task.id));
	const started = Date.now();
	const answers: Answer[] = await Promise.all(
		calls(ctx).map(async (call) => {
			const start = Date.now();
			const response = await fetch(`${ctx.n8nBase}/webhook/${WORKFLOWS.crm.path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(call),
				signal: AbortSignal.timeout(ANSWER_BUDGET_MS + 30_000),
			});
			const text = await response.text();
			let body: unknown = text;
			try {
				body = JSON.parse(text);
			} catch {
				// kept as text for the failure message
			}
			return { call, status: response.status, ms: Date.now() - start, body };
		}),
	);
	const wall = (Date.now() - started) / 1000;
	// What the CRM was told and sent, for reading after a run (KEEP_WORK=1).
	writeFileSync(
		join(settings.work, 'logs', 'crm-answers.json'),
		JSON.stringify({ answers, writes: ctx.crm.writes() }, null, 2),
	);
	checkCrm(ctx, answers, before, wall);
	// Every photo's item went on to the end: no execution of the listing calls ended in error.
	const executions = await until('the CRM executions to end', 60_000, async () => {
		const list = await executionsOf(ctx.session, WORKFLOWS.crm.id);
		return list.length >= answers.length && list.every((entry) => TERMINAL.includes(entry.status))
			? list
			: undefined;
	}).catch(() => []);
	ctx.report.equal(
		GROUP,
		`one execution per call (${answers.length}), each ended "success"`,
		executions.map((entry) => entry.status),
		answers.map(() => 'success'),
	);
}

interface ServiceTask {
	id: string;
	kind: string;
	imageUrl: unknown;
	status: string;
}

function checkCrm(ctx: Context, answers: Answer[], before: Set<string>, wall: number): void {
	const { report, service, crm } = ctx;
	const base = service.baseUrl;
	const tasks = service.stats().tasks.filter((task) => !before.has(task.id)) as ServiceTask[];
	const taskFor = (kind: string, url: string | null) =>
		tasks.filter((task) => task.kind === kind && task.imageUrl === url);
	const resultUrl = (task: ServiceTask | undefined) =>
		task ? `${base}/results/${task.id}.png` : null;

	let creditsExpected = 0;
	const expectedWrites: Array<{ listingId: string; body: unknown }> = [];
	for (const answer of answers) {
		const { call } = answer;
		const summary = answer.body as {
			failed?: Array<{ mediaKey: string; error: string; taskId: string | null; step: string }>;
		} | null;
		const photos = call.photos.map((photo) => {
			const [enhance] = taskFor('photoEnhancer', photo.url);
			const enhanced = enhance?.status === 'Success' ? resultUrl(enhance) : null;
			const [remove] = photo.emptyRoom && enhanced ? taskFor('objectRemover', enhanced) : [];
			const failed = !enhanced;
			creditsExpected += (enhanced ? 10 : 0) + (remove?.status === 'Success' ? 1 : 0);
			return {
				photo,
				enhance,
				remove,
				row: {
					mediaKey: photo.mediaKey,
					status: failed ? 'failed' : remove ? 'emptied' : 'enhanced',
					enhancedUrl: enhanced,
					emptiedUrl: remove?.status === 'Success' ? resultUrl(remove) : null,
					// The reason's text is checked on the two failures below; the write must carry it.
					error: failed
						? (summary?.failed?.find((entry) => entry.mediaKey === photo.mediaKey)?.error ??
							'<missing from the summary>')
						: null,
				},
			};
		});
		expectedWrites.push({
			listingId: call.listingId,
			body: { photos: photos.map((entry) => entry.row) },
		});

		report.check(
			GROUP,
			`${call.listingId}: HTTP 200 within ${ANSWER_BUDGET_MS / 1000} s`,
			answer.status === 200 && answer.ms < ANSWER_BUDGET_MS,
			`HTTP ${answer.status} after ${answer.ms} ms: ${JSON.stringify(answer.body).slice(0, 400)}`,
		);
		const failed = photos.filter((entry) => entry.row.status === 'failed');
		report.equal(
			GROUP,
			`${call.listingId}: the summary's counts and credits`,
			{
				...(answer.body as Record<string, unknown>),
				failed: undefined,
			},
			{
				listingId: call.listingId,
				photos: call.photos.length,
				enhanced: photos.filter((entry) => entry.row.enhancedUrl).length,
				emptied: photos.filter((entry) => entry.row.emptiedUrl).length,
				failed: undefined,
				credits: photos.reduce(
					(sum, entry) => sum + (entry.row.enhancedUrl ? 10 : 0) + (entry.row.emptiedUrl ? 1 : 0),
					0,
				),
			},
		);
		report.equal(
			GROUP,
			`${call.listingId}: the summary's failed photos, with the step and the task id (null when none was created)`,
			(summary?.failed ?? []).map(({ mediaKey, step, taskId }) => ({ mediaKey, step, taskId })),
			failed.map((entry) => ({
				mediaKey: entry.photo.mediaKey,
				step: 'enhance',
				taskId: entry.enhance?.id ?? null,
			})),
		);
	}

	// The two failures, each with its reason.
	const reasons = Object.fromEntries(
		answers.flatMap((answer) =>
			((answer.body as { failed?: Array<{ mediaKey: string; error: string }> })?.failed ?? []).map(
				(entry) => [entry.mediaKey, entry.error],
			),
		),
	);
	const rejected = String(reasons['L-2003-1'] ?? '');
	report.check(
		GROUP,
		"L-2003-1 (64 px photo): reported with the service's 1011 and its reason, no task created",
		/1011/.test(rejected) &&
			/128/.test(rejected) &&
			taskFor('photoEnhancer', calls(ctx)[2].photos[0].url).length === 0,
		rejected,
	);
	const [failedTask] = taskFor('photoEnhancer', calls(ctx)[2].photos[1].url);
	const failedText = String(reasons['L-2003-2'] ?? '');
	report.check(
		GROUP,
		'L-2003-2 (task failed): reported with the task id and the refund',
		!!failedTask &&
			failedTask.status === 'Failed' &&
			failedText.includes(failedTask.id) &&
			/refunded/i.test(failedText),
		`${failedText} (task ${failedTask?.id} ${failedTask?.status})`,
	);

	// What the CRM received: one write per listing, exactly the photos and their results.
	const writes = crm.writes();
	report.equal(
		GROUP,
		`the CRM received exactly one write per listing (${answers.length}), with every photo and its result URLs`,
		writes
			.map(({ listingId, body }) => ({ listingId, body }))
			.sort((a, b) => a.listingId.localeCompare(b.listingId)),
		expectedWrites.sort((a, b) => a.listingId.localeCompare(b.listingId)),
	);
	report.equal(GROUP, 'the CRM refused no request', crm.refused(), []);

	const photos = answers.reduce((sum, answer) => sum + answer.call.photos.length, 0);
	const enhanceTasks = tasks.filter((task) => task.kind === 'photoEnhancer');
	const removeTasks = tasks.filter((task) => task.kind === 'objectRemover');
	report.equal(
		GROUP,
		'the service created one enhancer task per photo it accepted and one remover task per room asked for',
		[enhanceTasks.length, removeTasks.length],
		[photos - 1, 2 + 1],
	);
	const charged = tasks.reduce(
		(sum, task) => sum + (task.status === 'Success' ? creditsOf(task.kind) : 0),
		0,
	);
	report.equal(
		GROUP,
		'credits in the summaries = credits of the tasks that succeeded',
		creditsExpected,
		charged,
	);
	ctx.figures.push(
		`CRM: ${answers.length} webhook calls at once, ${photos} photos, ${enhanceTasks.length} enhancer + ${removeTasks.length} remover tasks, ` +
			`${Object.keys(reasons).length} failed photos reported, ${charged} credits; answers in ${answers.map((answer) => (answer.ms / 1000).toFixed(1)).join('/')} s (${wall.toFixed(1)} s for all)`,
	);
}

/**
 * The listing workflow run to the end: through the queue (several webhook calls at once, on the
 * workers), then once in regular mode, whose items must be the same as the queue's.
 */
import type { RunningService } from '../../service/server.ts';
import type { CommandResult } from '../n8n-app/n8n-process.ts';
import { checkListingItems, checkServiceRecord, snapshot } from './checks.ts';
import { type Instance, logMessages, n8nCommand, startedBy } from './processes.ts';
import {
	startRuns,
	execution,
	type ExecutionRecord,
	executionsOf,
	type RunData,
	TERMINAL,
	until,
} from './rest.ts';
import { type Job, type Kind, LISTING_RUNS, TASK_MS, WORKFLOWS } from './settings.ts';
import { check, equal, figures, timed } from './summary.ts';

interface QueueRun {
	id: string;
	worker?: string;
	seconds: number;
}

/**
 * Calls the listing webhook LISTING_RUNS times at once and checks every execution, its items and
 * the tasks the service created. Returns each execution's item signatures, for regular mode.
 */
export async function runListingThroughQueue(
	service: RunningService,
	mainInstance: Instance,
	workers: Instance[],
	jobs: Job[],
): Promise<string[][]> {
	const group = `listing workflow through the queue (${LISTING_RUNS} webhook calls at once)`;
	const before = snapshot(service);
	const known = new Set((await executionsOf(WORKFLOWS.listing.id)).map((record) => record.id));
	const t0 = Date.now();
	await callListingWebhook(group);
	const finished = await timed(
		`listing workflow × ${LISTING_RUNS} in the queue (until all finished)`,
		async () => await untilListingRunsFinished(known),
	);
	const wallSeconds = (Date.now() - t0) / 1000;
	equal(group, 'executions started', finished.length, LISTING_RUNS);
	const emitted: Array<{ id: string; kind: Kind }> = [];
	const queueRuns: QueueRun[] = [];
	const queueSignatures: string[][] = [];
	for (const record of finished) {
		const checked = await checkQueuedExecution(
			`${group}: execution ${record.id}`,
			record.id,
			service.baseUrl,
			mainInstance,
			workers,
			jobs,
		);
		emitted.push(...checked.emitted);
		queueSignatures.push(checked.signatures);
		queueRuns.push(checked.run);
	}
	checkServiceRecord(`${group}: service record`, service, before, emitted);
	const used = new Set(queueRuns.map((run) => run.worker).filter(Boolean));
	check(
		group,
		`the ${LISTING_RUNS} executions were spread over both workers`,
		used.size === Math.min(2, LISTING_RUNS),
		queueRuns.map((run) => `${run.id} → ${run.worker ?? '?'}`).join(', '),
	);
	addQueueFigures(service, workers, jobs, emitted, queueRuns, wallSeconds);
	return queueSignatures;
}

async function callListingWebhook(group: string): Promise<void> {
	const bodies = Array.from({ length: LISTING_RUNS }, (_, run) => ({ run }));
	if (!(await startRuns(group, WORKFLOWS.listing.path, bodies))) {
		throw new Error('the listing webhook did not start the workflow');
	}
}

async function untilListingRunsFinished(known: Set<string>): Promise<ExecutionRecord[]> {
	return await until('the listing executions to finish', 180_000, async () => {
		const fresh = (await executionsOf(WORKFLOWS.listing.id)).filter(
			(record) => !known.has(record.id),
		);
		return fresh.length >= LISTING_RUNS && fresh.every((record) => TERMINAL.includes(record.status))
			? fresh
			: undefined;
	});
}

/** One queued execution: its status, its items, and which process did what (their logs). */
async function checkQueuedExecution(
	group: string,
	id: string,
	base: string,
	mainInstance: Instance,
	workers: Instance[],
	jobs: Job[],
): Promise<{ emitted: Array<{ id: string; kind: Kind }>; signatures: string[]; run: QueueRun }> {
	const full = await execution(id);
	check(
		group,
		'status success, mode webhook',
		full.status === 'success' && full.mode === 'webhook' && !full.data?.resultData.error,
		`${full.status} ${full.mode} ${full.data?.resultData.error?.message ?? ''}`,
	);
	const signatures: string[] = [];
	const emitted = checkListingItems(group, base, full.data, jobs, signatures);
	const ranOn = workers.filter((worker) => startedBy(worker).includes(id));
	check(
		group,
		'ran on exactly one worker (its log: "Worker started execution")',
		ranOn.length === 1,
		`workers naming it: ${ranOn.map((worker) => worker.name).join(', ') || 'none'}`,
	);
	check(
		group,
		'enqueued by the main (its log: "Enqueued execution"), so not run there',
		logMessages(mainInstance, new RegExp(`^Enqueued execution ${id} `)).length === 1,
		'no "Enqueued execution" line in the main log',
	);
	const seconds =
		full.startedAt && full.stoppedAt
			? (Date.parse(full.stoppedAt) - Date.parse(full.startedAt)) / 1000
			: Number.NaN;
	return { emitted, signatures, run: { id, worker: ranOn[0]?.name, seconds } };
}

function addQueueFigures(
	service: RunningService,
	workers: Instance[],
	jobs: Job[],
	emitted: Array<{ id: string; kind: Kind }>,
	queueRuns: QueueRun[],
	wallSeconds: number,
): void {
	const used = new Set(queueRuns.map((run) => run.worker).filter(Boolean));
	figures.push(
		`listing workflow through the queue: ${LISTING_RUNS} executions × ${jobs.length} jobs = ${emitted.length} task items ` +
			`(${emitted.filter((task) => task.kind === 'photoEnhancer').length} Photo Enhancer + ` +
			`${emitted.filter((task) => task.kind === 'objectRemover').length} Object Remover), ` +
			`${service.stats().credits.charged} credits; wall time ${wallSeconds.toFixed(1)} s from the webhook calls to the last execution finished (tasks of ${TASK_MS / 1000} s, poll interval 3 s)`,
	);
	figures.push(`workers used: ${used.size} of 2`);
	for (const worker of workers) {
		const mine = queueRuns.filter((run) => run.worker === worker.name);
		figures.push(
			`  ${worker.name}: ${mine.length} execution(s), ${mine.length * jobs.length * 2} task items` +
				(mine.length
					? ` (${mine.map((run) => `execution ${run.id}: ${run.seconds.toFixed(1)} s`).join(', ')})`
					: ''),
		);
	}
}

/**
 * `n8n execute` in regular mode against the same database: the same checks as through the
 * queue, and every item the same as in each queue execution (only the task ids differ).
 */
export async function runListingInRegularMode(
	service: RunningService,
	jobs: Job[],
	queueSignatures: string[][],
): Promise<void> {
	const group = 'the same workflow in regular mode (n8n execute)';
	const before = snapshot(service);
	const result = await timed(
		'n8n execute (regular mode)',
		async () =>
			await n8nCommand(
				'execute-regular',
				['execute', `--id=${WORKFLOWS.listing.id}`, '--rawOutput'],
				{
					EXECUTIONS_MODE: 'regular',
				},
			),
	);
	check(
		group,
		'exit code 0',
		result.code === 0,
		`exit ${result.code}; see logs/execute-regular.log`,
	);
	const run = printedRunData(result);
	if (!check(group, 'run data printed', !!run, 'no run data in the output')) return;
	const signatures: string[] = [];
	const emitted = checkListingItems(group, service.baseUrl, run, jobs, signatures);
	checkServiceRecord(`${group}: service record`, service, before, emitted);
	for (const [index, queued] of queueSignatures.entries()) {
		const differences = signatures
			.map((line, item) =>
				line === queued[item] ? undefined : `regular ${line}\n   queue ${queued[item]}`,
			)
			.filter(Boolean);
		check(
			group,
			`queue execution ${index + 1}: every item the same as in regular mode (fields, status, credits, size, pairedItem order)`,
			signatures.length === queued.length && differences.length === 0,
			`${signatures.length} vs ${queued.length} items\n${differences.slice(0, 4).join('\n')}`,
		);
	}
}

/** The run data `n8n execute --rawOutput` prints among its log lines. */
function printedRunData(result: CommandResult): RunData | undefined {
	let run: RunData | undefined;
	for (const line of result.lines) {
		if (!line.message.startsWith('{')) continue;
		try {
			const parsed = JSON.parse(line.message) as { data?: RunData };
			if (parsed.data?.resultData?.runData) run = parsed.data;
		} catch {
			// another message
		}
	}
	return run;
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Workers killed mid-run: (a) the listing workflow while the Photo Enhancer waits inside the node,
 * (b) the recovery workflow during its Wait node. What n8n does with the two executions, that
 * nothing is run or charged twice, and every created task found again (the log for (a), the data
 * table for (b)) and finished with Get Result on a worker started after the kills.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';

import type { RunningService } from '../../service/server.ts';
import { parseLogLines } from '../n8n-app/n8n-process.ts';
import { sleep } from '../n8n-app/report.ts';
import { resultPolls, type ServiceTask, serviceTasks, snapshot } from './checks.ts';
import {
	createdInLog,
	type Instance,
	type LoggedTask,
	logMessages,
	ready,
	sigkill,
	startedBy,
	startInstance,
} from './processes.ts';
import {
	execution,
	type ExecutionRecord,
	insertTaskRows,
	type Item,
	nodeItems,
	savedTaskIds,
	startExecution,
	type TaskRow,
	taskRows,
	TERMINAL,
	until,
} from './rest.ts';
import {
	API_KEY,
	type Job,
	KILL_TASK_MS,
	type Kind,
	LOCK,
	MAX_STALLED_COUNT,
	N8N_LINE,
	USER_FOLDER,
	WORK,
	WORKFLOWS,
} from './settings.ts';
import { check, equal, figures, findings } from './summary.ts';

const GROUP = 'worker killed mid-run';

interface KilledRun {
	executionId: string;
	/** The worker that ran it, killed. */
	holder: Instance;
	/** The tasks the service had created for it at the kill. */
	created: ServiceTask[];
	/** Its execution record right after the kill. */
	recordAtKill: ExecutionRecord;
}

export async function killAndRecover(
	service: RunningService,
	mainInstance: Instance,
	workers: Instance[],
	jobs: Job[],
	recoverJobs: Job[],
): Promise<void> {
	service.configure({ taskDurationMs: KILL_TASK_MS });
	const a = await killDuringWaitForCompletion(service, workers, jobs);
	const b = await killDuringWaitNode(service, workers, a.holder);
	const tasksAtKills = serviceTasks(service).length;

	const worker3 = await startWorkerAfterKills();
	const ended = await untilN8nEndsThem(mainInstance, worker3, a, b);
	await checkNothingRanTwice(service, [worker3, ...workers], ended, tasksAtKills);
	checkCreatedOnce(a, jobs);

	checkWhereTheIdsAre(a, b, ended.records, jobs);
	await writeLoggedIdsToTable(a, jobs);
	const rowsB = await checkTableRowsOfB(b, recoverJobs);
	await finishWithGetResult(service, worker3, a, b);

	figures.push(
		`worker kill: ${a.created.length + b.created.length} tasks created in the two killed executions, all recovered and finished with Get Result: ` +
			`${a.logged.length} from the killed worker's log (Wait for Completion on), ${rowsB.length} from the data table the workflow wrote; ` +
			`n8n ended the killed executions about ${ended.seconds.toFixed(0)} s after the last kill ` +
			`(Bull lock ${LOCK.duration / 1000} s, stalled-job check every ${LOCK.stalledInterval / 1000} s)`,
	);
}

function holderOf(workers: Instance[], executionId: string): Instance | undefined {
	return workers.find((worker) => startedBy(worker).includes(executionId));
}

/** (a) The listing workflow, killed while the Photo Enhancer waits inside the node. */
async function killDuringWaitForCompletion(
	service: RunningService,
	workers: Instance[],
	jobs: Job[],
): Promise<KilledRun & { logged: LoggedTask[] }> {
	const before = snapshot(service);
	const pollsBefore = resultPolls(service, 'photoEnhancer');
	const executionId = await startExecution(WORKFLOWS.listing, { run: 'killed while waiting' });
	await until('the Photo Enhancer tasks of the first run to be created and polled', 60_000, () =>
		serviceTasks(service).filter((task) => !before.ids.has(task.id)).length >= jobs.length &&
		resultPolls(service, 'photoEnhancer') >= pollsBefore + jobs.length
			? true
			: undefined,
	);
	const holder = await until(`the worker of execution ${executionId}`, 10_000, () =>
		holderOf(workers, executionId),
	);
	await sigkill(holder);
	const created = serviceTasks(service).filter((task) => !before.ids.has(task.id));
	const recordAtKill = await execution(executionId);
	const logged = createdInLog(holder, executionId);
	findings.push(
		`(a) listing workflow (Wait for Completion on), execution ${executionId}: SIGKILL to ${holder.name} while its ` +
			`Photo Enhancer polled ${created.length} created tasks (${created.length * 10} credits); record at the kill: status ` +
			`${recordAtKill.status}, nodes saved: ${Object.keys(recordAtKill.data?.resultData.runData ?? {}).join(', ') || 'none'}`,
	);
	return { executionId, holder, created, recordAtKill, logged };
}

/**
 * (b) The recovery workflow: tasks created without waiting, their ids written to a data table
 * (and saved with the execution's progress), then a Wait node before Get Result.
 */
async function killDuringWaitNode(
	service: RunningService,
	workers: Instance[],
	killedBefore: Instance,
): Promise<KilledRun & { idsAtKill: string[] }> {
	const survivor = workers.find((worker) => worker !== killedBefore)!;
	const before = snapshot(service);
	const executionId = await startExecution(WORKFLOWS.recover, { run: 'killed while waiting' });
	await until('the created task ids to be saved with the execution progress', 60_000, async () => {
		const record = await execution(executionId);
		return nodeItems(record.data, 'Save room task ids')?.length ? record : undefined;
	});
	const holder = await until(`the worker of execution ${executionId}`, 10_000, () =>
		holderOf(workers, executionId),
	);
	check(
		GROUP,
		`(b) execution ${executionId} ran on the surviving worker`,
		holder === survivor,
		holder.name,
	);
	await sigkill(holder);
	const created = serviceTasks(service).filter((task) => !before.ids.has(task.id));
	const recordAtKill = await execution(executionId);
	const idsAtKill = [
		...savedTaskIds(recordAtKill.data, 'Create photo tasks'),
		...savedTaskIds(recordAtKill.data, 'Create room tasks'),
	];
	findings.push(
		`(b) recovery workflow (create without waiting, ids to a data table), execution ${executionId}: SIGKILL to ${holder.name} ` +
			`during "Wait for the tasks"; ${created.length} tasks created; record at the kill: status ${recordAtKill.status}, ` +
			`${idsAtKill.length} task ids saved with the progress (nodes: ${Object.keys(recordAtKill.data?.resultData.runData ?? {}).join(', ')})`,
	);
	check(
		GROUP,
		`(b) while stalled, the execution record holds the ${created.length} created ids (saved progress)`,
		JSON.stringify([...idsAtKill].sort()) === JSON.stringify(created.map((task) => task.id).sort()),
		`${idsAtKill.length} ids in the record, ${created.length} created`,
	);
	return { executionId, holder, created, recordAtKill, idsAtKill };
}

/**
 * Bull's check for stalled jobs runs in the workers, so nobody notices the killed jobs until one
 * is running. With QUEUE_FRESH_WORKER_FOLDER=1 it gets a user folder of its own (a copy of the
 * package install), as a worker on another host would, instead of the shared one.
 */
async function startWorkerAfterKills(): Promise<Instance> {
	let folder = USER_FOLDER;
	if (process.env.QUEUE_FRESH_WORKER_FOLDER === '1') {
		folder = join(WORK, 'user-worker-3');
		cpSync(join(USER_FOLDER, '.n8n', 'nodes'), join(folder, '.n8n', 'nodes'), {
			recursive: true,
		});
	}
	findings.push(
		`worker-3 (started after the kills) uses ${folder === USER_FOLDER ? 'the shared user folder' : 'a user folder of its own'}; ` +
			`Bull's maxStalledCount ${MAX_STALLED_COUNT} (${N8N_LINE.startsWith('1.') ? 'QUEUE_WORKER_MAX_STALLED_COUNT' : 'fixed by n8n 2.x'})`,
	);
	const worker3 = await startInstance('worker-3', 'worker', folder);
	check(
		GROUP,
		'worker-3 started after the kills is ready',
		await ready(worker3),
		worker3.proc.output().slice(-1500),
	);
	return worker3;
}

interface Ended {
	/** The killed executions, (a) then (b). */
	ids: string[];
	/** Their records once n8n has ended them. */
	records: ExecutionRecord[];
	/** How long after the last kill they had their final status. */
	seconds: number;
}

/**
 * The main ends a stalled job's execution after a grace period: waits for its log line and a
 * final status of both records, noting how their statuses changed and what n8n logged. Where Bull
 * hands a stalled job to a live worker once more instead (n8n 1.x's default maxStalledCount, 1),
 * the main logs nothing: there the wait is for both records to be final and for a stalled-job
 * check past the lock's expiry (the one that re-delivers the job) to have run.
 */
async function untilN8nEndsThem(
	mainInstance: Instance,
	worker3: Instance,
	a: KilledRun,
	b: KilledRun,
): Promise<Ended> {
	const ids = [a.executionId, b.executionId];
	const killedAt = Math.max(a.holder.killedAt ?? 0, b.holder.killedAt ?? 0);
	const problem = (id: string) =>
		logMessages(mainInstance, new RegExp(`^Problem with execution ${id}:`));
	// How the records' statuses change, seconds after the last kill.
	const transitions: string[] = [];
	const lastStatus = new Map<string, string>();
	await until(
		'n8n to end the two killed executions',
		240_000,
		async () => {
			for (const id of ids) {
				const { status } = await execution(id);
				if (lastStatus.get(id) !== status) {
					lastStatus.set(id, status);
					transitions.push(
						`${id}: "${status}" at +${((Date.now() - killedAt) / 1000).toFixed(0)} s`,
					);
				}
			}
			if (MAX_STALLED_COUNT > 0)
				return [...lastStatus.values()].every((status) => TERMINAL.includes(status)) &&
					Date.now() > killedAt + LOCK.duration + 2 * LOCK.stalledInterval
					? true
					: undefined;
			return problem(a.executionId).length && problem(b.executionId).length ? true : undefined;
		},
		1000,
	);
	const records = await until('the killed executions to have a final status', 60_000, async () => {
		const all = await Promise.all(ids.map(async (id) => await execution(id)));
		return all.every((record) => TERMINAL.includes(record.status)) ? all : undefined;
	});
	const seconds = (Date.now() - killedAt) / 1000;
	for (const record of records)
		if (lastStatus.get(record.id) !== record.status)
			transitions.push(`${record.id}: "${record.status}" at +${seconds.toFixed(0)} s`);
	findings.push(`statuses of the killed executions after the last kill: ${transitions.join('; ')}`);
	for (const line of parseLogLines(worker3.proc.output()).filter((entry) =>
		/Found unfinished executions|\[Recovery\]/.test(entry.message),
	)) {
		const id = line.metadata?.executionId;
		findings.push(
			`worker-3 at start-up: ${line.message.split('\n')[0].slice(0, 200)}${id ? ` (execution ${String(id)})` : ''}`,
		);
	}
	for (const id of ids)
		for (const message of [
			...problem(id),
			...logMessages(mainInstance, new RegExp(`stalled.*\\(execution ${id}\\)`)),
		])
			findings.push(`main log: ${message.split('\n')[0].slice(0, 220)}`);
	for (const record of records) {
		findings.push(
			`execution ${record.id}: ended about ${seconds.toFixed(0)} s after the last kill with status "${record.status}" ` +
				`(finished ${String(record.finished)}); nodes left in its record: ${Object.keys(record.data?.resultData.runData ?? {}).join(', ') || 'none'}; ` +
				`error: ${record.data?.resultData.error?.message?.slice(0, 120) ?? 'none'}`,
		);
	}
	return { ids, records, seconds };
}

/** Anything re-run would show as a worker starting the execution again, or as new tasks. */
async function checkNothingRanTwice(
	service: RunningService,
	workers: Instance[],
	{ ids, records }: Ended,
	tasksAtKills: number,
): Promise<void> {
	check(
		GROUP,
		'n8n ended both killed executions as failed (not success, not left running)',
		records.every((record) => ['error', 'crashed'].includes(record.status)),
		records.map((record) => `${record.id}: ${record.status}`).join(', '),
	);
	// Past the next stalled-job check, which would be the one to re-deliver a job.
	await sleep(LOCK.stalledInterval + 2000);
	const starts = ids.map(
		(id) =>
			workers.flatMap((worker) => startedBy(worker).filter((started) => started === id)).length,
	);
	equal(
		GROUP,
		'neither killed execution was run again (each started once, on one worker)',
		starts,
		[1, 1],
	);
	equal(
		GROUP,
		'no task was created after the kills (nothing re-delivered, nothing charged twice)',
		serviceTasks(service).length,
		tasksAtKills,
	);
}

function checkCreatedOnce(a: KilledRun, jobs: Job[]): void {
	check(
		GROUP,
		`(a) the ${jobs.length} Photo Enhancer tasks of execution ${a.executionId} were created once each`,
		a.created.length === jobs.length && a.created.every((task) => task.kind === 'photoEnhancer'),
		`${a.created.length} tasks: ${a.created.map((task) => task.kind).join(', ')}`,
	);
}

/**
 * With Wait for Completion on, (a)'s created ids exist only inside the waiting node, and in the
 * log line the node writes for each task it creates.
 */
function checkWhereTheIdsAre(
	a: KilledRun & { logged: LoggedTask[] },
	b: KilledRun & { idsAtKill: string[] },
	[finalA, finalB]: ExecutionRecord[],
	jobs: Job[],
): void {
	const idsInRecordA =
		savedTaskIds(a.recordAtKill.data, 'Enhance photos').length +
		savedTaskIds(finalA.data, 'Enhance photos').length;
	findings.push(
		`(a) task ids of execution ${a.executionId} in its execution record: ${idsInRecordA} of ${a.created.length} ` +
			`(the node was killed before it output anything); in the killed worker's log: ${a.logged.length} of ${a.created.length}`,
	);
	equal(
		GROUP,
		`(a) the killed worker's log names each of the ${a.created.length} tasks execution ${a.executionId} created, once, with its node`,
		a.logged.map((entry) => `${entry.taskId}:${entry.kind}:${entry.node}`).sort(),
		a.created.map((task) => `${task.id}:${task.kind}:Enhance photos`).sort(),
	);
	equal(
		GROUP,
		`(a) one log line per item, items 0 to ${jobs.length - 1}`,
		a.logged.map((entry) => entry.itemIndex).sort((x, y) => x - y),
		jobs.map((_job, index) => index),
	);
	const idsInFinalB =
		savedTaskIds(finalB.data, 'Create photo tasks').length +
		savedTaskIds(finalB.data, 'Create room tasks').length;
	findings.push(
		`(b) task ids in the record of execution ${b.executionId}: ${b.idsAtKill.length} while it was stalled, ${idsInFinalB} after n8n ended it`,
	);
}

/**
 * (a): what an operator does with the log: the ids go to the data table the finish workflow reads
 * (the Split Out keeps the listing's order, so item i is job i), in job order: n8n 1.x's Data
 * table node returns rows in the order they were written (its Order By came with 2.x).
 */
async function writeLoggedIdsToTable(
	a: KilledRun & { logged: LoggedTask[] },
	jobs: Job[],
): Promise<void> {
	const inserted = await insertTaskRows(
		[...a.logged]
			.sort((x, y) => x.itemIndex - y.itemIndex)
			.map((entry) => ({
				executionId: a.executionId,
				job: jobs[entry.itemIndex].job,
				// The listing's nodes only: checkCreatedOnce compared these kinds with the service's.
				kind: entry.kind as Kind,
				taskId: entry.taskId,
			})),
	);
	check(
		GROUP,
		`(a) the ${a.logged.length} logged ids written to the data table (REST)`,
		inserted.status === 200,
		`HTTP ${inserted.status} ${JSON.stringify(inserted.json).slice(0, 300)}`,
	);
}

/** (b): the ids read back from the data table the workflow itself wrote. */
async function checkTableRowsOfB(b: KilledRun, recoverJobs: Job[]): Promise<TaskRow[]> {
	const rows = (await taskRows()).filter((row) => row.executionId === b.executionId);
	equal(
		GROUP,
		`(b) the data table rows of execution ${b.executionId} = the ${b.created.length} tasks the service created for it, each once`,
		rows.map((row) => `${row.taskId}:${row.kind}`).sort(),
		b.created.map((task) => `${task.id}:${task.kind}`).sort(),
	);
	equal(
		GROUP,
		`(b) one photo and one room task per job (${recoverJobs.length} jobs)`,
		(['photoEnhancer', 'objectRemover'] as Kind[]).map((kind) =>
			rows
				.filter((row) => row.kind === kind)
				.map((row) => row.job)
				.sort((x, y) => x - y),
		),
		[recoverJobs.map((job) => job.job), recoverJobs.map((job) => job.job)],
	);
	return rows;
}

/**
 * Both killed executions' tasks finished with the finish workflow's Get Result, through the queue
 * on the new worker, once the service has ended them (a result is only there then).
 */
async function finishWithGetResult(
	service: RunningService,
	worker3: Instance,
	a: KilledRun,
	b: KilledRun,
): Promise<void> {
	const recoveredIds = new Set([...a.created, ...b.created].map((task) => task.id));
	await until('the recovered tasks to end', 60_000, () =>
		serviceTasks(service).every(
			(task) => !recoveredIds.has(task.id) || ['Success', 'Failed'].includes(task.status),
		)
			? true
			: undefined,
	);
	let recovered = 0;
	for (const [label, killed] of [
		['(a)', a.executionId],
		['(b)', b.executionId],
	]) {
		const rows = (await taskRows()).filter((row) => row.executionId === killed);
		recovered += await finishOne(service, worker3, `${label} execution ${killed}`, killed, rows);
	}
	equal(
		GROUP,
		'every task created by the killed executions was finished with Get Result',
		recovered,
		a.created.length + b.created.length,
	);
}

/** Runs the finish workflow for one killed execution; returns how many tasks it got back. */
async function finishOne(
	service: RunningService,
	worker3: Instance,
	label: string,
	killed: string,
	rows: TaskRow[],
): Promise<number> {
	const base = service.baseUrl;
	const beforeFinish = snapshot(service);
	const executionF = await startExecution(WORKFLOWS.finish, { executionId: killed });
	const finishRecord = await until('the Get Result execution to finish', 120_000, async () => {
		const record = await execution(executionF);
		return TERMINAL.includes(record.status) ? record : undefined;
	});
	check(
		GROUP,
		`${label}: Get Result execution ${executionF}: status success, on worker-3`,
		finishRecord.status === 'success' && startedBy(worker3).includes(executionF),
		`${finishRecord.status} ${finishRecord.data?.resultData.error?.message ?? ''}; on worker-3: ${startedBy(worker3).includes(executionF)}`,
	);
	const byJob = (kind: Kind) =>
		rows
			.filter((row) => row.kind === kind)
			.sort((x, y) => x.job - y.job)
			.map((row) => row.taskId);
	const photos = nodeItems(finishRecord.data, 'Get photo results') ?? [];
	const rooms = nodeItems(finishRecord.data, 'Get room results') ?? [];
	equal(
		GROUP,
		`${label}: Get Result output the recovered task ids, in job order`,
		[photos.map((item) => item.json.id), rooms.map((item) => item.json.id)],
		[byJob('photoEnhancer'), byJob('objectRemover')],
	);
	const finishedOk = (item: Item, credits: number) =>
		item.json.status === 'Success' &&
		item.json.creditsCharged === credits &&
		item.json.output?.resultUrl === `${base}/results/${String(item.json.id)}.png`;
	check(
		GROUP,
		`${label}: every recovered task Success, with its result URL and the credits it cost`,
		photos.length + rooms.length === rows.length &&
			photos.every((item) => finishedOk(item, 10)) &&
			rooms.every((item) => finishedOk(item, 1)),
		JSON.stringify(
			[...photos, ...rooms]
				.map((item) => [item.json.id, item.json.status, item.json.creditsCharged])
				.slice(0, 6),
		),
	);
	equal(
		GROUP,
		`${label}: Get Result created no task and spent no credit`,
		[serviceTasks(service).length, service.balance(API_KEY)],
		[beforeFinish.ids.size, beforeFinish.balance],
	);
	return photos.length + rooms.length;
}

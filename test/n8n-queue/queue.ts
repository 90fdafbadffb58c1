/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The nodes in n8n's queue mode. run.sh (`npm run test:n8n-queue [-- --n8n 1.123]`) has installed
 * n8n and this package, and started a Redis and a PostgreSQL of its own. This script:
 *
 *  1. starts the local service and a second one that enforces a rate limit per key; imports the
 *     credentials, the workflows of test/n8n-queue/workflows and the form upload
 *     example into the PostgreSQL database;
 *  2. starts one n8n main (`n8n start`) and two workers (`n8n worker`) on that Redis and database,
 *     sets up the owner, activates the workflows and creates the data table for task ids (REST);
 *  3. calls the production webhook of the listing workflow (20 jobs: 20 Photo Enhancer tasks and
 *     20 Object Remover tasks, 40 task items) several times at once: the main enqueues the
 *     executions, the workers run them. Checks every item, that each task was created exactly once,
 *     the credits, and which worker ran which execution (the workers' log lines);
 *  4. runs the same workflow once with `n8n execute` in regular mode and compares its items with
 *     the queue's;
 *  5. submits the form upload example's form to the main as a browser does: a worker stages the
 *     uploaded photo, handing the service n8n's own link to it, which the main serves (every
 *     process's WEBHOOK_URL names the main, through a recording proxy). In the line's binary data
 *     mode (2.41: n8n's own choice for queue mode, `database`); checks the bytes at every hop and
 *     where n8n kept them;
 *  6. a throttled account: two workers each run an execution of 100 photos on one key against the
 *     rate-limited service (QUEUE_SKIP_THROTTLED=1 leaves it out);
 *  7. kills workers with SIGKILL mid-run: one while the Photo Enhancer waits inside the node
 *     (Wait for Completion on), one while the recovery workflow (create without waiting, task ids
 *     into a data table, wait, Get Result) waits. Reports what n8n does with the killed executions
 *     and their records, checks that nothing was run or charged twice, reads the task ids back
 *     (the first run's from the killed worker's log, the second's from the data table) and
 *     finishes them all with Get Result on a fresh worker.
 *
 * Prints one summary; exits 1 if any check failed. Logs of every n8n process stay in QUEUE_WORK.
 *
 * settings.ts holds what run.sh passes and the run's constants; setup.ts steps 1 and 2; runs.ts
 * steps 3 and 4; form-upload.ts step 5; throttled.ts step 6; worker-kill.ts step 7; checks.ts the
 * checks of a listing run; processes.ts, rest.ts and database.ts the n8n processes, the main's
 * REST API and n8n's tables; summary.ts the report.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { startFrontProxy } from '../n8n-app/n8n-link.ts';
import { runMain } from '../n8n-app/report.ts';
import { runFormUploadOnWorker } from './form-upload.ts';
import { checkProcessLogs, saveLogs, stopInstances, useQueueMode } from './processes.ts';
import { connectToMain } from './rest.ts';
import { runListingInRegularMode, runListingThroughQueue } from './runs.ts';
import { FORM_UPLOADS, jobsOf, THROTTLED, WORK, WORKFLOWS, workflowText } from './settings.ts';
import {
	activateWorkflows,
	checkWorkersSaidReady,
	createTaskTable,
	importIntoDatabase,
	startLocalService,
	startMainAndWorkers,
	startThrottledService,
} from './setup.ts';
import { check, figures, printSummary, timed } from './summary.ts';
import { runThrottledAccount } from './throttled.ts';
import { killAndRecover } from './worker-kill.ts';

/** A part whose failure to go on is one failed check, and does not keep the later parts from running. */
async function part(name: string, run: () => Promise<void>): Promise<void> {
	try {
		await run();
	} catch (error) {
		check(name, 'the part went through', false, (error as Error).stack ?? String(error));
	}
}

async function main(): Promise<number> {
	mkdirSync(join(WORK, 'logs'), { recursive: true });
	// The main's public address, which every process's WEBHOOK_URL names: a reverse proxy in front
	// of the main that records what the service fetched through n8n's links (n8n-link.ts).
	const proxy = await startFrontProxy();
	useQueueMode(proxy.url);
	const service = await startLocalService();
	const throttled = await startThrottledService();
	const jobs = jobsOf(workflowText(WORKFLOWS.listing.file, service.baseUrl));
	const recoverJobs = jobsOf(workflowText(WORKFLOWS.recover.file, service.baseUrl));
	try {
		await importIntoDatabase(service.baseUrl, throttled.service.baseUrl);
		const { mainInstance, workers } = await startMainAndWorkers();
		proxy.setTarget(mainInstance.port);
		await connectToMain(mainInstance);
		await createTaskTable();
		await activateWorkflows();
		checkWorkersSaidReady(workers);

		const queueSignatures = await runListingThroughQueue(service, mainInstance, workers, jobs);
		await runListingInRegularMode(service, jobs, queueSignatures);
		for (const example of FORM_UPLOADS)
			await part(`form upload on a worker (${example.file})`, async () => {
				await runFormUploadOnWorker(example, service, proxy, mainInstance, workers);
			});
		if (THROTTLED.skip) figures.push('throttled account: left out (QUEUE_SKIP_THROTTLED=1)');
		else
			await part('throttled account', async () => {
				await runThrottledAccount(throttled, mainInstance, workers);
			});
		await timed('workers killed mid-run, recovery', async () => {
			await killAndRecover(service, mainInstance, workers, jobs, recoverJobs);
		});
	} catch (error) {
		// A step that cannot go on is one failed check: the summary still shows all the others.
		check('run', 'the run went through', false, (error as Error).stack ?? String(error));
	} finally {
		// Pass or fail, no n8n process may outlive the run, and the logs are what explain a failure.
		await stopInstances();
		saveLogs();
		checkProcessLogs();
		await service.close();
		await throttled.service.close();
		await proxy.close();
	}
	return printSummary();
}

runMain('n8n queue mode test', main, saveLogs);

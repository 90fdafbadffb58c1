/**
 * A throttled account: two workers each run one execution of THROTTLED.photosPerExecution photos
 * on one key, against a service that answers HTTP 429 beyond THROTTLED.rateLimit requests a
 * second per key. Every item must succeed, every task be created exactly once and the credits be
 * exact; the summary reports the share of requests the service refused and the wall time against
 * the bound no client can beat.
 */
import type { ServiceStats } from '../../service/server.ts';
import { checkNodeItems, checkServiceRecord, snapshot } from './checks.ts';
import { type Instance, logMessages, startedBy } from './processes.ts';
import {
	startRuns,
	execution,
	type ExecutionRecord,
	executionsOf,
	nodeItems,
	TERMINAL,
	until,
} from './rest.ts';
import { type Job, jobsOf, TASK_MS, THROTTLED, WORKFLOWS, workflowText } from './settings.ts';
import type { ThrottledService } from './setup.ts';
import { check, equal, figures, timed } from './summary.ts';

const NODE = 'Enhance photos';

/**
 * The service's own count of the requests its per-key limit refused, in `GET /__admin/stats`:
 * the one place that names the field. Undefined when the service has no such limit.
 */
export function refusedByRateLimit(stats: ServiceStats): number | undefined {
	const count = (stats as unknown as { rateLimited?: { total?: unknown } }).rateLimited?.total;
	return typeof count === 'number' ? count : undefined;
}

/** The photos of one execution: the listing's jobs again and again, on the throttled service. */
function throttledJobs(base: string): Job[] {
	const listing = jobsOf(workflowText(WORKFLOWS.listing.file, base));
	return Array.from({ length: THROTTLED.photosPerExecution }, (_, index) => ({
		...listing[index % listing.length],
		job: index + 1,
		roomUrl: '',
	}));
}

export async function runThrottledAccount(
	{ service, limitRefused }: ThrottledService,
	mainInstance: Instance,
	workers: Instance[],
): Promise<void> {
	const { executions, photosPerExecution, rateLimit } = THROTTLED;
	const group = `throttled account: ${executions} workers × ${photosPerExecution} photos on one key, the service limited to ${rateLimit} requests/s per key`;
	const jobs = throttledJobs(service.baseUrl);
	const before = snapshot(service);
	const requestsBefore = service.stats().requests;
	const known = new Set((await executionsOf(WORKFLOWS.throttled.id)).map((record) => record.id));

	const called = Date.now();
	const bodies = Array.from({ length: executions }, (_, run) => ({ run, jobs }));
	if (!(await startRuns(group, WORKFLOWS.throttled.path, bodies))) return;
	const finished = await timed(
		`throttled account: ${executions} × ${photosPerExecution} photos (until all finished)`,
		async () =>
			await until('the throttled executions to finish', 600_000, async () => {
				const fresh = (await executionsOf(WORKFLOWS.throttled.id)).filter(
					(record) => !known.has(record.id),
				);
				return fresh.length >= executions &&
					fresh.every((record) => TERMINAL.includes(record.status))
					? fresh
					: undefined;
			}),
	);
	const observedSeconds = (Date.now() - called) / 1000;
	equal(group, 'executions started', finished.length, executions);

	const emitted: Array<{ id: string; kind: 'photoEnhancer' }> = [];
	const ranOn: string[] = [];
	const records: ExecutionRecord[] = [];
	for (const { id } of finished) {
		const full = await execution(id);
		records.push(full);
		const label = `${group}: execution ${id}`;
		check(
			label,
			'status success, mode webhook',
			full.status === 'success' && full.mode === 'webhook' && !full.data?.resultData.error,
			`${full.status} ${full.mode} ${full.data?.resultData.error?.message ?? ''}`,
		);
		const ids = checkNodeItems(label, service.baseUrl, full.data, NODE, 'photoEnhancer', jobs, []);
		emitted.push(...ids.map((taskId) => ({ id: taskId, kind: 'photoEnhancer' as const })));
		const workersNamingIt = workers.filter((worker) => startedBy(worker).includes(id));
		check(
			label,
			'enqueued by the main, run on exactly one worker (their logs)',
			logMessages(mainInstance, new RegExp(`^Enqueued execution ${id} `)).length === 1 &&
				workersNamingIt.length === 1,
			`workers naming it: ${workersNamingIt.map((worker) => worker.name).join(', ') || 'none'}`,
		);
		ranOn.push(workersNamingIt[0]?.name ?? '?');
	}
	check(
		group,
		`the ${executions} executions ran on ${executions} different workers at once`,
		new Set(ranOn).size === executions && !ranOn.includes('?'),
		ranOn.join(', '),
	);
	checkServiceRecord(`${group}: service record`, service, before, emitted);

	const stats = service.stats();
	const refused = refusedByRateLimit(stats);
	check(
		group,
		`the service enforced its limit of ${rateLimit} requests/s per key (its stats count the 429s it answered)`,
		!limitRefused && refused !== undefined,
		limitRefused
			? `the service refused the option, so it ran without a limit: ${limitRefused}`
			: 'GET /__admin/stats counts no rate-limited requests: this service has no rate limit per key',
	);
	const succeeded = records.flatMap(
		(record) =>
			nodeItems(record.data, NODE)?.filter((item) => item.json.status === 'Success') ?? [],
	).length;
	addThrottledFigures(stats, requestsBefore, records, observedSeconds, ranOn, succeeded);
}

function addThrottledFigures(
	stats: ServiceStats,
	requestsBefore: ServiceStats['requests'],
	records: ExecutionRecord[],
	observedSeconds: number,
	ranOn: string[],
	succeeded: number,
): void {
	const { executions, photosPerExecution, rateLimit } = THROTTLED;
	const tasks = executions * photosPerExecution;
	const requests = stats.requests.total - requestsBefore.total;
	const status429 = (stats.requests.byStatus['429'] ?? 0) - (requestsBefore.byStatus['429'] ?? 0);
	const starts = records.map((record) => Date.parse(record.startedAt ?? ''));
	const stops = records.map((record) => Date.parse(record.stoppedAt ?? ''));
	const wall = (Math.max(...stops) - Math.min(...starts)) / 1000;
	// Each task needs a create and at least one status check; none can end before it has run.
	const bound = Math.max(tasks / rateLimit + TASK_MS / 1000, (2 * tasks) / rateLimit);
	const refused = refusedByRateLimit(stats);
	figures.push(
		`throttled account: ${executions} executions × ${photosPerExecution} photos on one key (workers ${ranOn.join(', ')}), ` +
			`service limit ${rateLimit} requests/s per key, tasks of ${TASK_MS / 1000} s`,
		`  wall ${wall.toFixed(1)} s from the first execution's start to the last one's end ` +
			`(${observedSeconds.toFixed(1)} s from the webhook calls until both were seen finished); ` +
			`bound max(N/R + D, 2N/R) = ${bound.toFixed(1)} s for N = ${tasks}: ${(wall / bound).toFixed(2)}× the bound`,
		`  requests the service received: ${requests}, HTTP 429: ${status429} (${((100 * status429) / Math.max(1, requests)).toFixed(1)} %)` +
			(refused === undefined
				? '; the service counts no rate-limited requests'
				: `; its rate-limit count ${refused}`) +
			`; most in one second: ${stats.requests.peakPerSecond}; ${(requests / tasks).toFixed(2)} requests per task; ` +
			`items Success: ${succeeded} of ${tasks}`,
		`  by endpoint: ${Object.entries(stats.requests.byEndpoint)
			.map(([name, counters]) => `${name} ${counters.total} (${JSON.stringify(counters.byStatus)})`)
			.join(', ')}`,
	);
}

import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { KNOWN_STATUSES, TERMINAL_STATUSES } from '../catalog/service';
import { resultPath, type IdealHouseApi } from '../catalog/apis';
import { executionStopSignal, stoppedError } from '../core/cancellation';
import { clock } from '../core/clock';
import { IdealHouseItemError, toIdealHouseError } from '../core/errors';
import { limits, pollLimits } from '../core/limits';
import { pollPlanner, queueOf, type PollPlanner } from '../waiting/poll-planner';
import { taskFromResult, unknownStatusError, type Task } from '../catalog/task';
import { backoffMs, retryWaitMs } from '../http/retries';
import { apiRequest } from '../transport/send';
import type { ItemSettings } from './settings';

function pollIntervalMs(options: { pollInterval?: number }): number {
	const seconds = Number(options.pollInterval ?? pollLimits.intervalSeconds.default);
	const valid = Number.isFinite(seconds) ? seconds : pollLimits.intervalSeconds.default;
	return (
		Math.min(pollLimits.intervalSeconds.max, Math.max(pollLimits.intervalSeconds.min, valid)) * 1000
	);
}

/** The interval give or take the jitter, never outside the spec's 3–5 s. */
function jittered(interval: number): number {
	const value = interval + (clock.random() * 2 - 1) * pollLimits.firstCheckJitterMs;
	return Math.round(
		Math.min(
			pollLimits.intervalSeconds.max * 1000,
			Math.max(pollLimits.intervalSeconds.min * 1000, value),
		),
	);
}

function describe(task: Task | undefined): string {
	if (!task) return 'no status received yet';
	const parts = [`last status ${task.status}`];
	if (typeof task.percentage === 'number') parts.push(`${task.percentage}%`);
	if (typeof task.waitNumber === 'number' && task.waitNumber > 0)
		parts.push(`${task.waitNumber} tasks ahead`);
	return parts.join(', ');
}

function stopped(ctx: IExecuteSingleFunctions, taskId: string): IdealHouseItemError {
	return stoppedError(
		ctx,
		`Execution stopped while waiting for task ${taskId}`,
		`The task keeps running on the service. Fetch it later with the Get Result operation and task ID ${taskId}.`,
		{ kind: 'created', taskId },
	);
}

/** Waits `ms`; a queued task is woken when its queue's record learns something, to plan anew. */
async function pause(
	ms: number,
	stop: AbortSignal,
	planner: PollPlanner | undefined,
): Promise<'slept' | 'woken' | 'stopped'> {
	const wake = new AbortController();
	const off = planner?.onReplan(() => wake.abort());
	try {
		await clock.sleep(ms, planner ? AbortSignal.any([stop, wake.signal]) : stop);
		return 'slept';
	} catch {
		return wake.signal.aborted && !stop.aborted ? 'woken' : 'stopped';
	} finally {
		off?.();
	}
}

/** Withdraws a queued task's waiting check once its turn moved later: the slot serves another. */
function withdrawnWhenTurnMoves(planner: PollPlanner): { signal: AbortSignal; stop: () => void } {
	const withdraw = new AbortController();
	if (!planner.isQueued) return { signal: withdraw.signal, stop: () => undefined };
	const stop = planner.onReplan(() => {
		if (!withdraw.signal.aborted && planner.turnMovedLater(clock.now())) withdraw.abort();
	});
	return { signal: withdraw.signal, stop };
}

/**
 * Polls until Success or Failed. Passing faults are retried with backoff until the deadline: the
 * task is paid for, so only the service's verdict ends the wait early.
 */
export async function waitForTask(
	this: IExecuteSingleFunctions,
	api: IdealHouseApi,
	taskId: string,
	settings: ItemSettings,
): Promise<Task> {
	const { wait: options } = settings;
	const interval = pollIntervalMs(options);
	// A positive number: the item's settings checked it before the create.
	const timeoutSeconds = options.timeout;
	const deadline = clock.now() + timeoutSeconds * 1000;
	const signal = executionStopSignal(this);
	let last: Task | undefined;
	let faults = 0;
	let unknown = 0;
	/** Stop, whenever it comes: the task keeps running, and the error names it. */
	const stoppedWaiting = () => stopped(this, taskId);
	const record = queueOf(this, api.name);
	const planner = pollPlanner({
		createdAt: clock.now(),
		intervalMs: interval,
		firstWaitMs: jittered(interval),
		queue: record,
	});
	/** After a passing fault: the backoff, instead of the planner's wait. */
	let faultWait: number | undefined;
	/** Fires when the check now waiting for its slot is withdrawn because its turn moved. */
	let turnMoved: AbortSignal | undefined;

	for (;;) {
		const remaining = deadline - clock.now();
		if (remaining <= 0) {
			if (options.onTimeout === 'returnLastStatus') {
				return last ?? { id: taskId, status: 'Unprocessed', output: null };
			}
			throw new IdealHouseItemError(
				this.getNode(),
				`Task ${taskId} did not finish within ${timeoutSeconds} s (${describe(last)})`,
				{
					itemIndex: this.getItemIndex(),
					description: `The task was created and paid for and may still finish. Fetch it later with the Get Result operation and task ID ${taskId}, or raise the 'Timeout (Seconds)' option.`,
				},
				{ kind: 'created', taskId },
			);
		}
		try {
			const wait = Math.min(faultWait ?? planner.aimNextCheck(clock.now()), remaining);
			const queued = faultWait === undefined && planner.isQueued;
			// A long wait in a queue is planned again halfway, from what the tasks ahead showed.
			const slice = queued && wait > pollLimits.replanAboveMs ? Math.ceil(wait / 2) : wait;
			const paused = await pause(slice, signal, queued ? planner : undefined);
			if (paused === 'stopped') throw stoppedWaiting();
			if (paused === 'woken' || slice < wait) continue;
			// The Timeout bounds the check's answer too; one due at the deadline still gets a second.
			const left = deadline - clock.now();
			if (left < 0) continue;
			const withdrawal = withdrawnWhenTurnMoves(planner);
			turnMoved = withdrawal.signal;
			const data = await apiRequest
				.call(this, {
					method: 'GET',
					path: resultPath(api),
					qs: { taskId },
					timeoutMs: Math.min(Math.max(left, limits.pollLastCheckMs), limits.pollTimeoutMaxMs),
					rate: settings.maxRequestsPerSecond,
					priority: planner.priority(clock.now()),
					withdraw: withdrawal.signal,
					// A check held past this (a Retry-After) would only stretch the wait past the Timeout.
					sendBy: deadline + limits.pollLastCheckMs,
				})
				.finally(withdrawal.stop);
			last = taskFromResult(this, data, taskId);
			planner.observe(clock.now(), last);
			faults = 0;
			faultWait = undefined;
			if (TERMINAL_STATUSES.includes(last.status)) return last;
			unknown = KNOWN_STATUSES.includes(last.status) ? 0 : unknown + 1;
			if (unknown >= limits.unknownStatusGrace) throw unknownStatusError(this, last);
		} catch (error) {
			const failure = toIdealHouseError(this, error);
			const { outcome } = failure;
			if (outcome.kind === 'withdrawn' && !signal.aborted) {
				// Nothing was sent. Withdrawn as its turn moved: it is planned again, for the turn the
				// record now expects. Withdrawn at the deadline: no check can go out in time.
				if (!turnMoved?.aborted) faultWait = deadline - clock.now();
				continue;
			}
			if (signal.aborted || outcome.stopped) throw stoppedWaiting();
			const fault = outcome.retry;
			if (!fault) throw failure;
			faults++;
			const backoff = backoffMs(interval, faults, limits.pollBackoffMaxMs);
			// A Retry-After holds a check at most as long as a create: the task may be done by then.
			const retryAfter =
				fault.afterMs === undefined
					? undefined
					: Math.min(fault.afterMs, limits.createRetryAfterMaxMs);
			faultWait = retryWaitMs(retryAfter, backoff, faults);
		}
	}
}

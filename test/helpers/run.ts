/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * A run the test can stop at a moment it chooses (a request arriving, a wait beginning) rather
 * than after a fixed time, and a guard that turns a run that never ends into a clear failure.
 */
import { WorkflowExecute } from 'n8n-core';

import { runNode, type RunOptions, type RunResult } from './engine';
import { stopDuringWait } from './api';

export interface StartedRun {
	/** Presses Stop, as a user does in the editor. */
	stop(): void;
	result: Promise<RunResult>;
}

/** Starts `runNode` and keeps hold of its execution, to cancel it as the Stop button does. */
export function startRun(options: RunOptions): StartedRun {
	const original = WorkflowExecute.prototype.processRunExecutionData;
	let execution: ReturnType<typeof original> | undefined;
	const spy = jest
		.spyOn(WorkflowExecute.prototype, 'processRunExecutionData')
		.mockImplementation(function (this: WorkflowExecute, workflow) {
			execution = original.call(this, workflow);
			return execution;
		});
	let result: Promise<RunResult>;
	try {
		// runNode starts the execution before its first await.
		result = runNode(options);
	} finally {
		spy.mockRestore();
	}
	if (!execution) throw new Error('runNode did not start its execution at once');
	const started = execution;
	return { stop: () => started.cancel(), result };
}

/**
 * `work`, or a failure saying what never happened. Only a guard against a hang: the tests judge
 * by what happened and in which order, never by how long it took, and pass on any machine that
 * gets there before the guard.
 */
export async function settles<T>(work: Promise<T>, what: string, guardMs = 20_000): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const hang = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new Error(`Never happened: ${what}`)), guardMs);
	});
	try {
		return await Promise.race([work, hang]);
	} finally {
		clearTimeout(timer);
	}
}

/**
 * Runs the node on the clock of `stopDuringWait`: the first `waitsBefore` waits pass at once, and
 * Stop is pressed as the next one begins. Returns the run's result once it has ended.
 */
export async function runStoppedInWait(
	options: RunOptions,
	waitsBefore: number,
): Promise<RunResult> {
	stopDuringWait(waitsBefore, () => run.stop());
	const run = startRun(options);
	return await settles(run.result, `the run ends on Stop, pressed in wait ${waitsBefore + 1}`);
}

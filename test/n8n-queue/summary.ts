/* eslint-disable @n8n/community-nodes/no-restricted-globals */
/**
 * The run's one report: every check of every step, the figures measured, what n8n did with the
 * killed executions, and the summary printed at the end.
 */
import { n8nVersion, Report } from '../n8n-app/report.ts';
import { N8N_APP, RUN_START_MS, WORK } from './settings.ts';

export const report = new Report();
export const check = report.check.bind(report);
export const equal = report.equal.bind(report);
export const timed = report.timed.bind(report);
export const figures: string[] = [];
export const findings: string[] = [];

/** Prints the summary; returns the exit code (1 when a check failed). */
export function printSummary(): number {
	return report.print({
		title: 'n8n queue mode summary',
		header: [
			`n8n ${n8nVersion(N8N_APP)} on Node ${process.version}; package ${process.env.QUEUE_TARBALL ?? ''}`,
			`work folder: ${WORK}`,
		],
		shellSteps: process.env.QUEUE_SHELL_STEPS,
		startedAt: RUN_START_MS / 1000,
		sections: [
			['Figures:', figures],
			['Worker killed mid-run: what n8n did', findings],
		],
	});
}

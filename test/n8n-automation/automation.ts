/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The automations users run, in a live `n8n start` on PostgreSQL (run by run.sh):
 *   setup      the local service, the MLS feed and CRM stand-ins, the examples imported with
 *              n8n's CLI (the scheduled one on a seconds interval), n8n started (setup.ts);
 *   scheduled  the nightly example activated; the feed changes between its runs; each new or
 *              replaced photo must be enhanced once, and nothing else paid for (scheduled.ts);
 *   CRM        the webhook example called for four listings at once, with a rejected photo and
 *              a failed task among them (crm.ts);
 *   checks     n8n's log about the package and about PostgreSQL's version, then the summary
 *              with the measured figures.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { n8nVersion, Report, requiredEnv, runMain } from '../n8n-app/report.ts';
import { activateCrm, runCrm } from './crm.ts';
import { checkScheduled, runScheduled } from './scheduled.ts';
import { type Context, RUNNER, settings, setUp } from './setup.ts';

/** The Schedule Trigger's interval in the test: long enough that one run ends before the next. */
const INTERVAL_SECONDS = Number(process.env.AUTOMATION_INTERVAL_SECONDS ?? 10);

let ctx: Context | undefined;

async function main(): Promise<number> {
	mkdirSync(join(settings.work, 'logs'), { recursive: true });
	const report = new Report();
	ctx = { ...(await setUp(report, INTERVAL_SECONDS)), figures: [] };
	try {
		await activateCrm(ctx);
		const scheduled = await report.timed(
			'scheduled example: runs while the feed changes',
			async () => await runScheduled(ctx!, INTERVAL_SECONDS),
		);
		await report.timed('CRM example: concurrent webhook calls', async () => await runCrm(ctx!));
		await checkScheduled(ctx, scheduled);
	} finally {
		await stopAll();
	}
	report.checkPackageLog('n8n log', ctx.n8n.output(), {
		// Where n8n really lives (the install folder may be a link): its paths are cut from lines.
		n8nAppDir: realpathSync(settings.n8nApp),
		// The rejected photo and the failed task of the CRM run, on purpose.
		provoked: /Ideal House answered code 1011|ended with status "Failed"|refunded/i,
	});
	report.checkDatabaseVersion('n8n log', ctx.n8n.output());
	return report.print({
		title: 'n8n automations: a scheduled MLS feed and a CRM webhook in a live n8n',
		header: [
			`n8n ${n8nVersion(settings.n8nApp)} (n8n start, PostgreSQL), Node ${process.version}`,
			`package ${requiredEnv('AUTOMATION_TARBALL', RUNNER)}`,
			`work folder ${settings.work}`,
		],
		shellSteps: requiredEnv('AUTOMATION_SHELL_STEPS', RUNNER),
		startedAt: Number(requiredEnv('AUTOMATION_RUN_START', RUNNER)),
		sections: [['Figures:', ctx.figures]],
	});
}

async function stopAll(): Promise<void> {
	if (!ctx) return;
	await ctx.n8n.stop();
	writeFileSync(join(settings.work, 'logs', 'n8n-start.log'), ctx.n8n.output());
	await Promise.all([ctx.service.close(), ctx.feed.close(), ctx.crm.close()]);
}

runMain('n8n automation test', main, () => {
	if (ctx) writeFileSync(join(settings.work, 'logs', 'n8n-start.log'), ctx.n8n.output());
});

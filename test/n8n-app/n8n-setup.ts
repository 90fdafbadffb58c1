/**
 * How every real-n8n driver sets n8n up: its environment on fresh loopback ports, its CLI for the
 * imports (each step's output in the work folder's logs), and `n8n start` until it is ready.
 */
import {
	type CommandResult,
	freePort,
	logFile,
	n8nEnv,
	type N8nProcess,
	runN8nCommand,
	startN8nProcess,
	untilReady,
} from './n8n-process.ts';

/** n8n's environment for one user folder on a free editor port, and the address it serves. */
export async function n8nOnFreePorts(
	userFolder: string,
	extra: Record<string, string> = {},
): Promise<{ env: NodeJS.ProcessEnv; base: string }> {
	const env = n8nEnv(userFolder, { broker: await freePort(), http: await freePort() }, extra);
	return { env, base: `http://127.0.0.1:${env.N8N_PORT}` };
}

export type N8nCli = (step: string, args: string[]) => Promise<CommandResult>;

/** n8n's CLI in one environment, or in a fresh one for every command when `env` is a function. */
export function n8nCli(
	n8nBin: string,
	work: string,
	env: NodeJS.ProcessEnv | (() => Promise<NodeJS.ProcessEnv>),
	timeoutMs: number,
): N8nCli {
	return async (step, args) =>
		await runN8nCommand(n8nBin, args, {
			env: typeof env === 'function' ? await env() : env,
			cwd: work,
			logFile: logFile(work, step),
			timeoutMs,
		});
}

/** `n8n start` in the work folder; `ready` waits until its readiness check answers, or not. */
export function startN8nApp(
	n8nBin: string,
	work: string,
	env: NodeJS.ProcessEnv,
): { app: N8nProcess; ready: (timeoutMs: number) => Promise<boolean> } {
	const app = startN8nProcess(n8nBin, ['start'], { env, cwd: work });
	const base = `http://127.0.0.1:${env.N8N_PORT}`;
	return {
		app,
		ready: async (timeoutMs) => await untilReady(`${base}/healthz/readiness`, app.child, timeoutMs),
	};
}

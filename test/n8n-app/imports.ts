/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * How the real-n8n drivers put their credential and workflows into a fresh n8n: files written to
 * the work folder, then n8n's own CLI (`import:credentials`, `import:workflow`), with a check that
 * n8n says it imported exactly them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { exampleForLocalSetUp, type LocalSetUp } from '../helpers/local-examples.ts';
import { type CommandResult, logFile } from './n8n-process.ts';
import { type Report, SAMPLE_BASE_URL } from './report.ts';

/** Runs one n8n CLI command, its output logged as `<work>/logs/<step>.log`. */
export type N8nCommand = (step: string, args: string[]) => Promise<CommandResult>;

interface ImportContext {
	report: Report;
	group: string;
	work: string;
	n8n: N8nCommand;
}

/** A credential to import: its id, name and type, with plain data (n8n encrypts it on import). */
export interface CredentialImport {
	credential: { id: string; name: string; type: string };
	data: Record<string, unknown>;
}

/**
 * Imports one credential with plain data (n8n encrypts it on import): the "Ideal House API"
 * credential with the local service's key and address, or another one a driver needs.
 */
export async function importCredential(
	context: ImportContext,
	credential: CredentialImport['credential'],
	data: CredentialImport['data'],
): Promise<boolean> {
	return await importCredentials(context, [{ credential, data }]);
}

/** Imports several credentials with one n8n command (each command costs n8n's start-up). */
export async function importCredentials(
	{ report, group, work, n8n }: ImportContext,
	credentials: CredentialImport[],
): Promise<boolean> {
	// One file and log per import: a driver that imports several times keeps each one's output.
	const ids = credentials.map(({ credential }) => credential.id).join('-');
	const types = credentials.map(({ credential }) => credential.type).join(', ');
	const step = `import-credentials-${ids}`;
	const file = join(work, `credentials-${ids}.json`);
	writeFileSync(
		file,
		JSON.stringify(
			credentials.map(({ credential, data }) => ({ ...credential, data })),
			null,
			2,
		),
	);
	const result = await report.timed(
		`n8n import:credentials (${types})`,
		async () => await n8n(step, ['import:credentials', `--input=${file}`]),
	);
	const count = `${credentials.length} credential${credentials.length === 1 ? '' : 's'}`;
	return report.check(
		group,
		`import:credentials: exit 0, ${count} imported (${types})`,
		result.code === 0 && result.stdout.toLowerCase().includes(`imported ${count}.`),
		`exit ${result.code}; see ${logFile(work, step)}`,
	);
}

/**
 * An example of `examples/` as a driver imports it: rewritten for the local set-up (its public
 * sample photos, placeholder addresses and credentials: `test/helpers/local-examples.ts`).
 */
export function exampleFile(
	repo: string,
	file: string,
	local: LocalSetUp,
): { file: string; text: string } {
	return {
		file,
		text: exampleForLocalSetUp(readFileSync(join(repo, 'examples', file), 'utf8'), local),
	};
}

/**
 * Imports workflow files. The test workflows' sample base URL (the local service's usual address)
 * becomes `baseUrl`, the driver's own service; examples come rewritten (`exampleFile`).
 */
export async function importWorkflows(
	{ report, group, work, n8n }: ImportContext,
	workflows: Array<{ file: string; text: string }>,
	baseUrl: string,
): Promise<boolean> {
	const folder = join(work, 'workflows');
	mkdirSync(folder, { recursive: true });
	for (const { file, text } of workflows)
		writeFileSync(join(folder, file), text.split(SAMPLE_BASE_URL).join(baseUrl));
	const result = await report.timed(
		'n8n import:workflow',
		async () =>
			await n8n('import-workflows', ['import:workflow', '--separate', `--input=${folder}`]),
	);
	const count = `${workflows.length} workflow${workflows.length === 1 ? '' : 's'}`;
	return report.check(
		group,
		`import:workflow: exit 0, ${count} imported`,
		result.code === 0 && result.stdout.toLowerCase().includes(`imported ${count}.`),
		`exit ${result.code}; see ${logFile(work, 'import-workflows')}`,
	);
}

/**
 * The main's REST API, logged in as the owner, and its production webhooks: executions with their
 * run data, and the data table the recovery workflow writes its task ids to.
 */
import {
	activateWorkflow,
	readExecution,
	type RestSession,
	setUpOwner,
} from '../n8n-app/n8n-process.ts';
import { type Item, until } from '../n8n-app/report.ts';
import type { Instance } from './processes.ts';
import { type Kind, N8N_APP } from './settings.ts';
import { check } from './summary.ts';

export { type Item, until };

export interface NodeRun {
	executionStatus?: string;
	error?: { message?: string };
	data?: { main?: Item[][] };
}

export interface RunData {
	resultData: {
		error?: { message?: string };
		runData: Record<string, NodeRun[]>;
		lastNodeExecuted?: string;
	};
}

export interface ExecutionRecord {
	id: string;
	status: string;
	mode: string;
	finished: boolean;
	startedAt?: string;
	stoppedAt?: string;
	data?: RunData;
}

export interface TaskRow {
	executionId: string;
	job: number;
	kind: Kind;
	taskId: string;
}

export const TERMINAL = ['success', 'error', 'crashed', 'canceled'];

let session: RestSession;
let mainBase = '';
let projectId = '';
let dataTableId = '';

/** Sets up the owner: every REST call after this one is made with the owner's login. */
export async function connectToMain(main: Instance): Promise<void> {
	mainBase = `http://127.0.0.1:${main.port}`;
	session = await setUpOwner(mainBase);
}

export async function rest(
	path: string,
	body?: unknown,
	method?: string,
): ReturnType<RestSession['rest']> {
	return await session.rest(path, body, method);
}

/** The main's address and the owner's session, for what the n8n-app driver's helpers need. */
export function mainConnection(): { base: string; session: RestSession } {
	return { base: mainBase, session };
}

/** Activates (n8n 2.x: publishes) a workflow, so that its production webhooks are registered. */
export async function activate(id: string): Promise<{ active: boolean; detail: string }> {
	return await activateWorkflow(session, id);
}

/** A binary data file as the editor downloads it (`/rest/binary-data`), with the owner's login. */
export async function binaryData(
	id: string,
): Promise<{ status: number; bytes: Buffer; type: string | null }> {
	const query = new URLSearchParams({ id, action: 'download' });
	const response = await fetch(`${mainBase}/rest/binary-data?${query.toString()}`, {
		headers: { cookie: session.cookie, 'browser-id': 'e2e' },
	});
	return {
		status: response.status,
		bytes: Buffer.from(await response.arrayBuffer()),
		type: response.headers.get('content-type'),
	};
}

export function useTaskTable(project: string, dataTable: string): void {
	projectId = project;
	dataTableId = dataTable;
}

/** The rows of the task-id data table (REST, as the editor reads them). */
export async function taskRows(): Promise<TaskRow[]> {
	const { status, json } = await session.rest(
		`/rest/projects/${projectId}/data-tables/${dataTableId}/rows?take=500`,
	);
	if (status !== 200)
		throw new Error(`GET data table rows: HTTP ${status} ${JSON.stringify(json).slice(0, 300)}`);
	return ((json.data as { data?: TaskRow[] } | undefined)?.data ?? []).map((row) => ({
		...row,
		executionId: String(row.executionId),
		taskId: String(row.taskId),
	}));
}

export async function insertTaskRows(rows: TaskRow[]): ReturnType<RestSession['rest']> {
	// n8n 1.x requires returnType; 2.x defaults it to 'count'.
	return await session.rest(`/rest/projects/${projectId}/data-tables/${dataTableId}/insert`, {
		data: rows,
		returnType: 'count',
	});
}

export async function executionsOf(workflowId: string): Promise<ExecutionRecord[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { status, json } = await session.rest(`/rest/executions?filter=${filter}&limit=100`);
	if (status !== 200)
		throw new Error(`GET /rest/executions: HTTP ${status} ${JSON.stringify(json).slice(0, 300)}`);
	return ((json.data as { results?: ExecutionRecord[] } | undefined)?.results ?? []).map(
		(record) => ({
			...record,
			id: String(record.id),
		}),
	);
}

/** One execution with its run data. */
export async function execution(id: string): Promise<ExecutionRecord> {
	return await readExecution<ExecutionRecord>(session, N8N_APP, id);
}

export async function callWebhook(
	path: string,
	body: unknown,
): Promise<{ status: number; text: string }> {
	const response = await fetch(`${mainBase}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, text: await response.text() };
}

/**
 * Calls a production webhook once per body, all at once, as several CRM hooks would; checks that
 * every call started the workflow.
 */
export async function startRuns(group: string, path: string, bodies: unknown[]): Promise<boolean> {
	const answers = await Promise.all(bodies.map(async (body) => await callWebhook(path, body)));
	return check(
		group,
		'every webhook call answered 200 "Workflow was started"',
		answers.every((answer) => answer.status === 200 && /started/i.test(answer.text)),
		JSON.stringify(answers).slice(0, 600),
	);
}

/** Calls a production webhook and returns the id of the execution it started. */
export async function startExecution(
	workflow: { id: string; path: string },
	body: unknown,
): Promise<string> {
	const known = new Set((await executionsOf(workflow.id)).map((record) => record.id));
	const answer = await callWebhook(workflow.path, body);
	if (answer.status !== 200)
		throw new Error(`webhook ${workflow.path}: HTTP ${answer.status} ${answer.text}`);
	return await until(
		`the execution of ${workflow.id}`,
		30_000,
		async () => (await executionsOf(workflow.id)).find((record) => !known.has(record.id))?.id,
	);
}

export function nodeItems(run: RunData | undefined, node: string): Item[] | undefined {
	return run?.resultData.runData[node]?.[0]?.data?.main?.[0];
}

export function savedTaskIds(run: RunData | undefined, node: string): string[] {
	return (nodeItems(run, node) ?? []).map((item) => String(item.json.id));
}

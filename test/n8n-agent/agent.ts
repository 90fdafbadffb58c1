/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * The nodes as AI tools in a live `n8n start` (run through run.sh, `npm run test:n8n-agent`):
 *
 *  setup   the local service, the scripted chat model (chat-model/), n8n with the packed package,
 *          the two credentials and the examples ai-agent-photo-assistant.json and
 *          mcp-photo-tools.json imported with n8n's CLI, both workflows published;
 *  agent   three chats through the Chat Trigger's production chat endpoint: a preset by name, the
 *          furniture remover, and a prompt that fails the service's review (9010) and is
 *          rephrased by the model;
 *  mcp     the official MCP client over the MCP Server Trigger's Streamable HTTP transport: the
 *          tool list, a Photo Enhancer call, a call with a preset that does not exist;
 *  checks  what the model was sent (tool definitions, tool results, never the Ideal House key),
 *          the tasks the service received (fields read back from the service), the answers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

// The SDK's subpath exports (`./client/*.js`) are not followed by the lint's resolver; Node and tsx resolve them.
// eslint-disable-next-line import-x/no-unresolved
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
// eslint-disable-next-line import-x/no-unresolved
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { type RunningService, startService } from '../../service/server.ts';
import { type TaskSummary } from '../../service/stats.ts';
import { creditsOf } from '../helpers/prices.ts';
import { exampleFile, importCredential, importWorkflows } from '../n8n-app/imports.ts';
import { type N8nProcess, type RestSession, setUpOwner } from '../n8n-app/n8n-process.ts';
import { type N8nCli, n8nCli, n8nOnFreePorts, startN8nApp } from '../n8n-app/n8n-setup.ts';
import { localCredential, n8nVersion, Report, runMain, runFolders } from '../n8n-app/report.ts';
import {
	type ChatModelStub,
	type RecordedModelRequest,
	startChatModel,
} from './chat-model/server.ts';
import type { ChatMessage } from './chat-model/script.ts';

// ---------------------------------------------------------------------------------------------
// Settings

const RUNNER = 'test/n8n-agent/run.sh';
const { REPO, WORK, USER_FOLDER, N8N_APP, N8N_BIN } = runFolders('AGENT', RUNNER);
/** A fresh key per run, so that finding it anywhere it must not be is meaningful. */
const IDEAL_HOUSE_KEY = `ih-agent-${randomBytes(8).toString('hex')}`;
const START_CREDITS = 1000;
const MODEL_KEY = 'sk-scripted-model-key';
const IDEAL_HOUSE_CREDENTIAL = localCredential('IdealHouseLocal1');
const MODEL_CREDENTIAL = {
	id: 'ScriptedChatModel1',
	name: 'Chat model (scripted stand-in)',
	type: 'openAiApi',
};
const AGENT_EXAMPLE = { file: 'ai-agent-photo-assistant.json', id: 'ihAgentPhotoAssistant' };
const MCP_EXAMPLE = {
	file: 'mcp-photo-tools.json',
	id: 'ihMcpPhotoTools',
	path: 'ideal-house-photo-tools',
};
const TOOL_NAMES = ['Empty_room', 'Enhance_photo'];
const COMPACT_KEYS = ['creditsCharged', 'height', 'id', 'resultUrl', 'status', 'width'];
const report = new Report();

/** One chat: what the user writes, and what the service and the model must see. */
interface ChatScript {
	name: string;
	message: (sample: (file: string) => string) => string;
	/** Create calls the model should make (each one reaches the service unless it is refused). */
	toolCalls: number;
	/** The tasks the service must create, in order, with exactly these input fields. */
	tasks: Array<{
		kind: 'photoEnhancer' | 'objectRemover';
		input: (sample: (file: string) => string) => object;
	}>;
}

const CHATS: ChatScript[] = [
	{
		name: 'photo (preset by name)',
		message: (sample) =>
			`Please enhance ${sample('living-room.png')} with the preset "Sunset Sky".`,
		toolCalls: 1,
		tasks: [
			{
				kind: 'photoEnhancer',
				input: (sample) => ({
					imageUrl: sample('living-room.png'),
					presetId: 'sky-replacement-sunset-sky',
					imageSize: '2K',
				}),
			},
		],
	},
	{
		name: 'remover',
		message: (sample) => `Remove the furniture from ${sample('living-room.png')} please.`,
		toolCalls: 1,
		tasks: [
			{
				kind: 'objectRemover',
				input: (sample) => ({ imageUrl: sample('living-room.png'), emptyType: 'whole_house' }),
			},
		],
	},
	{
		name: 'prompt that fails review (9010), rephrased',
		message: (sample) =>
			`Enhance ${sample('exterior.png')} with the prompt "Make the garden look nsfw and lush"`,
		toolCalls: 2,
		tasks: [
			{
				kind: 'photoEnhancer',
				input: (sample) => ({
					imageUrl: sample('exterior.png'),
					prompt: 'Make the garden look and lush',
					imageSize: '2K',
				}),
			},
		],
	},
];

interface Context {
	service: RunningService;
	model: ChatModelStub;
	base: string;
	session: RestSession;
	app: N8nProcess;
	sample: (file: string) => string;
}

// ---------------------------------------------------------------------------------------------
// Setup

let n8n: N8nCli;

async function importEverything(service: RunningService, model: ChatModelStub): Promise<boolean> {
	const imports = { report, work: WORK, n8n };
	const ok =
		(await importCredential(
			{ ...imports, group: 'setup: Ideal House credential' },
			IDEAL_HOUSE_CREDENTIAL,
			{
				apiKey: IDEAL_HOUSE_KEY,
				baseUrl: service.baseUrl,
			},
		)) &&
		(await importCredential(
			{ ...imports, group: 'setup: chat model credential' },
			MODEL_CREDENTIAL,
			{
				apiKey: MODEL_KEY,
				url: model.baseUrl,
			},
		));
	if (!ok) return false;
	const workflows = [AGENT_EXAMPLE, MCP_EXAMPLE].map(({ file }) =>
		exampleFile(REPO, file, {
			service: service.baseUrl,
			credentials: { idealHouseApi: IDEAL_HOUSE_CREDENTIAL, openAiApi: MODEL_CREDENTIAL },
		}),
	);
	return await importWorkflows(
		{ ...imports, group: 'setup: workflows' },
		workflows,
		service.baseUrl,
	);
}

async function publish(session: RestSession, workflowId: string): Promise<boolean> {
	const stored = await session.rest(`/rest/workflows/${workflowId}`);
	const activated = await session.rest(`/rest/workflows/${workflowId}/activate`, {
		versionId: stored.json.data?.versionId,
	});
	return report.check(
		'setup: n8n start',
		`workflow ${workflowId} published`,
		activated.status === 200 && activated.json.data?.active === true,
		`HTTP ${activated.status} ${JSON.stringify(activated.json).slice(0, 400)}`,
	);
}

async function setup(): Promise<Context | undefined> {
	const service = await startService({
		port: 0,
		host: '127.0.0.1',
		taskDurationMs: 300,
		seed: 20261123,
		accounts: { [IDEAL_HOUSE_KEY]: START_CREDITS },
	});
	const model = await startChatModel();
	const sample = (file: string) => `${service.baseUrl}/samples/${file}`;
	const { env, base } = await n8nOnFreePorts(USER_FOLDER);
	n8n = n8nCli(N8N_BIN, WORK, env, 180_000);
	if (
		!(await report.timed(
			'import credentials and workflows',
			async () => await importEverything(service, model),
		))
	) {
		await Promise.all([service.close(), model.close()]);
		return undefined;
	}
	const { app, ready: untilAppReady } = startN8nApp(N8N_BIN, WORK, env);
	const ready = await report.timed(
		'n8n start until ready',
		async () => await untilAppReady(120_000),
	);
	const context = { service, model, base, app, sample } as Context;
	if (
		!report.check(
			'setup: n8n start',
			'ready (/healthz/readiness)',
			ready,
			app.output().slice(-2000),
		)
	)
		return context;
	context.session = await setUpOwner(base);
	const published =
		(await publish(context.session, AGENT_EXAMPLE.id)) &&
		(await publish(context.session, MCP_EXAMPLE.id));
	return published ? context : { ...context, session: undefined as never };
}

// ---------------------------------------------------------------------------------------------
// The agent, through the chat endpoint

interface ChatOutcome {
	status: number;
	answer: string;
	modelRequests: RecordedModelRequest[];
	newTasks: TaskSummary[];
	creditsSpent: number;
}

/**
 * Publishing registers the webhooks a moment later (n8n applies them from an outbox): waits
 * until n8n answers the production URL with anything but "not registered" (404).
 */
async function untilServed(url: string, init: RequestInit, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const response = await fetch(url, init).catch(() => undefined);
		await response?.body?.cancel();
		if (response && response.status !== 404) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

async function chat(
	ctx: Context,
	chatUrl: string,
	message: string,
	sessionId: string,
): Promise<ChatOutcome> {
	const requestsBefore = ctx.model.requests.length;
	const tasksBefore = ctx.service.stats().tasks.length;
	const balanceBefore = ctx.service.balance(IDEAL_HOUSE_KEY);
	const response = await fetch(chatUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput: message }),
	});
	const text = await response.text();
	let answer = text;
	try {
		const body = JSON.parse(text) as { output?: unknown } | Array<{ output?: unknown }>;
		answer = String((Array.isArray(body) ? body[0]?.output : body.output) ?? text);
	} catch {
		// not JSON: kept as text for the report
	}
	return {
		status: response.status,
		answer,
		modelRequests: ctx.model.requests.slice(requestsBefore),
		newTasks: ctx.service.stats().tasks.slice(tasksBefore),
		creditsSpent: balanceBefore - ctx.service.balance(IDEAL_HOUSE_KEY),
	};
}

/** A task as the service reports it to its owner: the input it received and the output. */
async function serviceTask(ctx: Context, task: TaskSummary) {
	const response = await fetch(
		`${ctx.service.baseUrl}/api/v1/${task.kind}/result?taskId=${task.id}`,
		{
			headers: { APIKEY: IDEAL_HOUSE_KEY },
		},
	);
	const body = (await response.json()) as {
		data?: { input?: Record<string, unknown>; output?: { resultUrl?: string } };
	};
	return { input: requestFields(body.data?.input), resultUrl: body.data?.output?.resultUrl };
}

/**
 * The request fields in the service's echo of a task's input, without what the service adds
 * (`imageUrls`, `model`, …) or fills in when a field was not sent (`prompt: ""`, `presetId: null`).
 */
function requestFields(input: Record<string, unknown> | undefined) {
	if (!input) return input;
	const sent = [
		'imageUrl',
		'presetId',
		'prompt',
		'imageSize',
		'emptyType',
		'maskUrl',
		'maskBase64',
	];
	return Object.fromEntries(
		Object.entries(input).filter(
			([key, value]) => sent.includes(key) && value !== null && value !== '',
		),
	);
}

function toolCallsOf(requests: RecordedModelRequest[]) {
	const last = requests[requests.length - 1]?.body?.messages ?? [];
	return last
		.filter((message) => message.role === 'assistant')
		.flatMap((message) => message.tool_calls ?? []);
}

function toolResultsOf(requests: RecordedModelRequest[]): ChatMessage[] {
	return (requests[requests.length - 1]?.body?.messages ?? []).filter(
		(message) => message.role === 'tool',
	);
}

function checkToolDefinitions(group: string, request: RecordedModelRequest | undefined): void {
	const tools = request?.body?.tools ?? [];
	report.equal(
		group,
		'the model was given both tools',
		tools.map((tool) => tool.function.name).sort(),
		TOOL_NAMES,
	);
	const enhance = tools.find((tool) => tool.function.name === 'Enhance_photo')?.function;
	const remove = tools.find((tool) => tool.function.name === 'Empty_room')?.function;
	const description = enhance?.description ?? '';
	report.check(
		group,
		'Enhance_photo description: what it does, 10 credits, that it waits, the returned fields, preset names by category',
		/^Enhances a real-estate photo/.test(description) &&
			description.includes(`${creditsOf('photoEnhancer')} credits per task`) &&
			/Waits for the result/.test(description) &&
			description.includes('{id, status, resultUrl, width, height, creditsCharged}') &&
			description.includes('Sky Replacement: ') &&
			description.includes('Sunset Sky'),
		description.slice(0, 600),
	);
	report.check(
		group,
		'Empty_room description: what it does and 1 credit',
		/^Removes furniture/.test(remove?.description ?? '') &&
			(remove?.description ?? '').includes(`${creditsOf('objectRemover')} credit per task`),
		remove?.description,
	);
	report.equal(
		group,
		'Enhance_photo arguments (from $fromAI): imageUrl, preset, prompt, all described',
		Object.entries(enhance?.parameters?.properties ?? {}).map(([key, value]) => [
			key,
			Boolean(value.description),
		]),
		[
			['imageUrl', true],
			['preset', true],
			['prompt', true],
		],
	);
}

async function checkChat(
	ctx: Context,
	chatUrl: string,
	script: ChatScript,
	index: number,
): Promise<ChatOutcome> {
	const group = `agent: ${script.name}`;
	const outcome = await report.timed(
		`chat: ${script.name}`,
		async () => await chat(ctx, chatUrl, script.message(ctx.sample), `session-${index}`),
	);
	report.check(
		group,
		'chat endpoint answered HTTP 200',
		outcome.status === 200,
		`HTTP ${outcome.status}: ${outcome.answer.slice(0, 500)}`,
	);
	checkToolDefinitions(group, outcome.modelRequests[0]);
	report.equal(
		group,
		`the model made ${script.toolCalls} tool call(s)`,
		toolCallsOf(outcome.modelRequests).length,
		script.toolCalls,
	);

	report.equal(
		group,
		'the service created exactly the tasks asked for',
		outcome.newTasks.map((task) => task.kind),
		script.tasks.map((task) => task.kind),
	);
	const finished = await Promise.all(
		outcome.newTasks.map(async (task) => await serviceTask(ctx, task)),
	);
	script.tasks.forEach((expected, position) =>
		report.equal(
			group,
			`task ${position + 1}: the fields the service received`,
			finished[position]?.input,
			expected.input(ctx.sample),
		),
	);
	const credits = script.tasks.reduce((sum, task) => sum + creditsOf(task.kind), 0);
	report.equal(group, `credits spent: ${credits}`, outcome.creditsSpent, credits);

	const results = toolResultsOf(outcome.modelRequests);
	const lastResult = JSON.parse(String(results[results.length - 1]?.content ?? 'null')) as unknown;
	const item = (Array.isArray(lastResult) ? lastResult[0] : lastResult) as
		| Record<string, unknown>
		| undefined;
	report.equal(
		group,
		'the tool result the model got is compact JSON',
		Object.keys(item ?? {}).sort(),
		COMPACT_KEYS,
	);
	const resultUrl = finished[finished.length - 1]?.resultUrl;
	report.check(
		group,
		'the tool result holds the task id, Success and the result URL',
		item?.id === outcome.newTasks[outcome.newTasks.length - 1]?.id &&
			item?.status === 'Success' &&
			item?.resultUrl === resultUrl,
		JSON.stringify(item),
	);
	report.check(
		group,
		"the agent's answer quotes the exact result URL",
		!!resultUrl && outcome.answer.includes(resultUrl),
		`answer: ${outcome.answer.slice(0, 400)}; result URL ${resultUrl}`,
	);
	return outcome;
}

async function runAgentChats(ctx: Context): Promise<ChatOutcome[]> {
	const chatUrl = `${ctx.base}/webhook/${webhookIdOf(AGENT_EXAMPLE.file, '@n8n/n8n-nodes-langchain.chatTrigger')}/chat`;
	// The Chat Trigger's GET serves the hosted chat page.
	await untilServed(chatUrl, { method: 'GET' }, 60_000);
	const outcomes: ChatOutcome[] = [];
	for (const [index, script] of CHATS.entries())
		outcomes.push(await checkChat(ctx, chatUrl, script, index));

	const review = outcomes[2];
	const group = `agent: ${CHATS[2].name}`;
	const firstResult = String(toolResultsOf(review.modelRequests)[0]?.content ?? '');
	report.check(
		group,
		'the first call came back to the model as an actionable error (9010, rephrase)',
		/9010/.test(firstResult) && /Rephrase the prompt/.test(firstResult),
		firstResult.slice(0, 500),
	);
	const prompts = toolCallsOf(review.modelRequests).map(
		(call) => (JSON.parse(call.function.arguments) as { prompt?: string }).prompt,
	);
	report.equal(group, 'the model called again with the rephrased prompt', prompts, [
		'Make the garden look nsfw and lush',
		'Make the garden look and lush',
	]);
	return outcomes;
}

function webhookIdOf(file: string, type: string): string {
	const workflow = JSON.parse(readFileSync(join(REPO, 'examples', file), 'utf8')) as {
		nodes: Array<{ type: string; webhookId?: string }>;
	};
	return workflow.nodes.find((node) => node.type === type)?.webhookId ?? 'missing';
}

// ---------------------------------------------------------------------------------------------
// MCP: the official client over the trigger's HTTP transport

interface McpOutcome {
	texts: string[];
}

async function runMcp(ctx: Context): Promise<McpOutcome> {
	const group = 'mcp: official client (Streamable HTTP)';
	const url = new URL(`${ctx.base}/mcp/${MCP_EXAMPLE.path}`);
	// An empty JSON-RPC message: refused by the MCP server once it is there, harmlessly.
	await untilServed(
		url.href,
		{
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
			},
			body: '{}',
		},
		60_000,
	);
	const client = new Client({ name: 'ideal-house-test', version: '1.0.0' });
	const texts: string[] = [];
	try {
		await report.timed(
			'mcp: connect',
			async () => await client.connect(new StreamableHTTPClientTransport(url)),
		);
		const { tools } = await report.timed('mcp: tools/list', async () => await client.listTools());
		report.equal(
			group,
			'tools/list: both tools',
			tools.map((tool) => tool.name).sort(),
			TOOL_NAMES,
		);
		const enhance = tools.find((tool) => tool.name === 'Enhance_photo');
		report.check(
			group,
			'Enhance_photo description says what it does and costs',
			/^Enhances a real-estate photo/.test(enhance?.description ?? '') &&
				(enhance?.description ?? '').includes(`${creditsOf('photoEnhancer')} credits`),
			enhance?.description?.slice(0, 300),
		);
		report.equal(
			group,
			'Enhance_photo input schema: imageUrl, preset, prompt (strings, required)',
			{
				properties: Object.entries(enhance?.inputSchema.properties ?? {}).map(([key, value]) => [
					key,
					(value as { type?: string }).type,
				]),
				required: [...(enhance?.inputSchema.required ?? [])].sort(),
			},
			{
				properties: [
					['imageUrl', 'string'],
					['preset', 'string'],
					['prompt', 'string'],
				],
				required: ['imageUrl', 'preset', 'prompt'],
			},
		);
		writeFileSync(join(WORK, 'logs', 'mcp-tools.json'), JSON.stringify(tools, null, 2));

		const tasksBefore = ctx.service.stats().tasks.length;
		const call = await report.timed(
			'mcp: tools/call Enhance_photo',
			async () =>
				await client.callTool({
					name: 'Enhance_photo',
					arguments: {
						imageUrl: ctx.sample('kitchen.png'),
						preset: 'Sky Replacement: Sunset Sky',
						prompt: '',
					},
				}),
		);
		const text = (call.content as Array<{ type: string; text?: string }>)
			.map((part) => part.text ?? '')
			.join('');
		texts.push(text);
		const created = ctx.service.stats().tasks.slice(tasksBefore);
		const finished = created[0] ? await serviceTask(ctx, created[0]) : undefined;
		report.equal(
			group,
			'tools/call: one task created, with the preset id for the name',
			finished?.input,
			{
				imageUrl: ctx.sample('kitchen.png'),
				presetId: 'sky-replacement-sunset-sky',
				imageSize: '2K',
			},
		);
		const parsed = JSON.parse(text) as unknown;
		const item = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
		report.check(
			group,
			'tools/call: the finished task comes back (compact JSON: id, Success, result URL, credits)',
			call.isError !== true &&
				item?.id === created[0]?.id &&
				item?.status === 'Success' &&
				item?.resultUrl === finished?.resultUrl &&
				item?.creditsCharged === 10,
			text.slice(0, 500),
		);

		const badBefore = ctx.service.stats().tasks.length;
		const bad = await client.callTool({
			name: 'Enhance_photo',
			arguments: { imageUrl: ctx.sample('kitchen.png'), preset: 'Purple Sky', prompt: '' },
		});
		const badText = (bad.content as Array<{ type: string; text?: string }>)
			.map((part) => part.text ?? '')
			.join('');
		texts.push(badText);
		report.check(
			group,
			'tools/call with an unknown preset: an error result (isError) naming close matches',
			bad.isError === true &&
				/"Purple Sky" is not a known preset\. Close matches: .*Sky Replacement: /.test(badText),
			`isError ${String(bad.isError)}: ${badText.slice(0, 500)}`,
		);
		report.equal(
			group,
			'tools/call with an unknown preset: nothing created or charged',
			ctx.service.stats().tasks.length,
			badBefore,
		);
		writeFileSync(join(WORK, 'logs', 'mcp-calls.json'), JSON.stringify({ call, bad }, null, 2));
	} catch (error) {
		report.check(group, 'the MCP session ran without an exception', false, (error as Error).stack);
	} finally {
		await client.close().catch(() => undefined);
	}
	return { texts };
}

// ---------------------------------------------------------------------------------------------
// Checks over everything

function checkSecrets(ctx: Context, mcp: McpOutcome): void {
	const group = 'secrets';
	const sentToModel = ctx.model.requests
		.map((request) => `${JSON.stringify(request.headers)}\n${request.bodyText}`)
		.join('\n');
	report.check(
		group,
		`the model was sent ${ctx.model.requests.length} requests, none holding the Ideal House key`,
		ctx.model.requests.length > 0 && !sentToModel.includes(IDEAL_HOUSE_KEY),
		'key found',
	);
	report.check(
		group,
		'no MCP answer holds the Ideal House key',
		mcp.texts.length > 0 && !mcp.texts.join('\n').includes(IDEAL_HOUSE_KEY),
		'key found',
	);
	report.check(
		group,
		"n8n's log does not hold the Ideal House key",
		!ctx.app.output().includes(IDEAL_HOUSE_KEY),
		'key found',
	);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
	const ctx = await report.timed('setup', setup);
	try {
		if (ctx?.session) {
			const outcomes = await runAgentChats(ctx);
			const mcp = await runMcp(ctx);
			checkSecrets(ctx, mcp);
			console.log(
				`Model requests: ${ctx.model.requests.length}; chats: ${outcomes.map((o) => o.answer).join(' | ')}`,
			);
		}
	} finally {
		await ctx?.app.stop();
		if (ctx) {
			report.checkPackageLog('setup: n8n start', ctx.app.output(), {
				n8nAppDir: N8N_APP,
				// n8n logs the tool errors the test causes (the 9010 and the unknown preset), and the
				// calls that wait for the webhooks to be registered.
				provoked: /SCAN_TEXT_ERROR|"Purple Sky" is not a known preset|is not registered/,
			});
			writeFileSync(
				join(WORK, 'logs', 'model-requests.json'),
				JSON.stringify(ctx.model.requests, null, 2),
			);
		}
		await Promise.all([ctx?.service.close(), ctx?.model.close()]);
	}
	return report.print({
		title: 'n8n agent and MCP test',
		header: [
			`n8n ${n8nVersion(N8N_APP)}, Node ${process.version}`,
			`work folder ${WORK}`,
			'examples rewritten for the local set-up (test/helpers/local-examples.ts): the service, the chat model',
		],
		shellSteps: process.env.AGENT_SHELL_STEPS,
		startedAt: Number(process.env.AGENT_STARTED_AT) || undefined,
	});
}

runMain('n8n agent test', main);

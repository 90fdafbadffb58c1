/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * A scripted stand-in for an OpenAI-compatible chat model: the parts of the Chat Completions API
 * that n8n's OpenAI Chat Model node uses when its credential's Base URL points here
 * (`POST /v1/chat/completions`, plain JSON or server-sent events, and `GET /v1/models` for the
 * editor's model list). The answers come from script.ts. Every request is recorded, headers
 * included, so a test can check what the model was sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { nextReply, type ChatRequest, type Reply } from './script.ts';

export const MODEL_ID = 'ideal-house-scripted';

export interface RecordedModelRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	/** The raw body text, as sent. */
	bodyText: string;
	body?: ChatRequest;
}

export interface ChatModelStub {
	/** The Base URL for the credential, with `/v1`. */
	baseUrl: string;
	requests: RecordedModelRequest[];
	close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

function completion(id: string, created: number, model: string, reply: Reply) {
	const message =
		'toolCalls' in reply
			? { role: 'assistant', content: null, tool_calls: reply.toolCalls }
			: { role: 'assistant', content: reply.content };
	return {
		id,
		object: 'chat.completion',
		created,
		model,
		choices: [
			{
				index: 0,
				message,
				logprobs: null,
				finish_reason: 'toolCalls' in reply ? 'tool_calls' : 'stop',
			},
		],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

/** The same answer as Chat Completions chunks: role, then the content or each tool call, then the end. */
function streamCompletion(
	response: ServerResponse,
	id: string,
	created: number,
	model: string,
	reply: Reply,
) {
	response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const chunk = (delta: object, finish: string | null = null) =>
		response.write(
			`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
		);
	chunk({ role: 'assistant', content: '' });
	if ('toolCalls' in reply) {
		reply.toolCalls.forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }));
		chunk({}, 'tool_calls');
	} else {
		chunk({ content: reply.content });
		chunk({}, 'stop');
	}
	response.write('data: [DONE]\n\n');
	response.end();
}

export async function startChatModel(options: { port?: number } = {}): Promise<ChatModelStub> {
	const requests: RecordedModelRequest[] = [];
	let counter = 0;
	const server = createServer((request, response) => {
		void (async () => {
			const bodyText = await readBody(request);
			const path = (request.url ?? '/').split('?')[0];
			const recorded: RecordedModelRequest = {
				method: request.method ?? '',
				path,
				headers: { ...request.headers },
				bodyText,
			};
			requests.push(recorded);
			if (request.method === 'GET' && path === '/v1/models') {
				sendJson(response, 200, {
					object: 'list',
					data: [{ id: MODEL_ID, object: 'model', created: 0, owned_by: 'tests' }],
				});
				return;
			}
			if (request.method !== 'POST' || path !== '/v1/chat/completions') {
				sendJson(response, 404, {
					error: { message: `No route ${request.method} ${path}`, type: 'invalid_request_error' },
				});
				return;
			}
			let body: ChatRequest;
			try {
				body = JSON.parse(bodyText) as ChatRequest;
			} catch {
				sendJson(response, 400, {
					error: { message: 'The body is not JSON', type: 'invalid_request_error' },
				});
				return;
			}
			recorded.body = body;
			if (!Array.isArray(body.messages)) {
				sendJson(response, 400, {
					error: { message: "'messages' is required", type: 'invalid_request_error' },
				});
				return;
			}
			const reply = nextReply(body);
			const id = `chatcmpl-${++counter}`;
			const created = Math.floor(Date.now() / 1000);
			const model = body.model ?? MODEL_ID;
			if (body.stream) streamCompletion(response, id, created, model, reply);
			else sendJson(response, 200, completion(id, created, model, reply));
		})().catch((error: Error) =>
			sendJson(response, 500, { error: { message: error.message, type: 'server_error' } }),
		);
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

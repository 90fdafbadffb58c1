/**
 * The scripted chat model on the wire, spoken to as n8n's OpenAI Chat Model node speaks to it
 * (Chat Completions with `tools`), for each script.
 */
import { rephrase, type ChatMessage, type ChatRequest } from './chat-model/script';
import { type ChatModelStub, startChatModel } from './chat-model/server';

const TOOLS: ChatRequest['tools'] = [
	{
		type: 'function',
		function: {
			name: 'Enhance_photo',
			description:
				'Enhances a real-estate photo with Ideal House AI and returns the finished image.',
			parameters: {
				type: 'object',
				properties: {
					imageUrl: { type: 'string' },
					preset: { type: 'string' },
					prompt: { type: 'string' },
				},
				required: ['imageUrl', 'preset', 'prompt'],
			},
		},
	},
	{
		type: 'function',
		function: {
			name: 'Empty_room',
			description: 'Removes furniture from an interior real-estate photo with Ideal House AI.',
			parameters: {
				type: 'object',
				properties: { photoUrl: { type: 'string' } },
				required: ['photoUrl'],
			},
		},
	},
];

let stub: ChatModelStub;
beforeEach(async () => {
	stub = await startChatModel();
});
afterEach(async () => await stub.close());

async function complete(messages: ChatMessage[], extra: Partial<ChatRequest> = {}) {
	const response = await fetch(`${stub.baseUrl}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
		body: JSON.stringify({ model: 'gpt-test', messages, tools: TOOLS, ...extra }),
	});
	expect(response.status).toBe(200);
	return (await response.json()) as {
		object: string;
		choices: Array<{
			message: { role: string; content: string | null; tool_calls?: ChatMessage['tool_calls'] };
			finish_reason: string;
		}>;
	};
}

const user = (content: string): ChatMessage => ({ role: 'user', content });
const toolResult = (id: string, content: string): ChatMessage => ({
	role: 'tool',
	tool_call_id: id,
	content,
});

describe('scripted chat model', () => {
	test('photo script: a call to the enhancing tool with the URL and preset, then the result URL', async () => {
		const ask = user('Please enhance https://img.example.com/a.png with the preset "Sunset Sky".');
		const first = await complete([{ role: 'system', content: 'You are helpful' }, ask]);
		expect(first.object).toBe('chat.completion');
		expect(first.choices[0].finish_reason).toBe('tool_calls');
		const call = first.choices[0].message.tool_calls![0];
		expect(call.function.name).toBe('Enhance_photo');
		expect(JSON.parse(call.function.arguments)).toEqual({
			imageUrl: 'https://img.example.com/a.png',
			preset: 'Sunset Sky',
			prompt: '',
		});

		const second = await complete([
			ask,
			{ role: 'assistant', content: null, tool_calls: [call] },
			toolResult(
				call.id,
				'[{"id":"1839201938475628544","status":"Success","resultUrl":"http://127.0.0.1:9/r/1.png"}]',
			),
		]);
		expect(second.choices[0]).toMatchObject({
			finish_reason: 'stop',
			message: {
				role: 'assistant',
				content: 'Done. Here is the result: http://127.0.0.1:9/r/1.png',
			},
		});
	});

	test('remover script: the furniture tool, its argument found by name', async () => {
		const reply = await complete([
			user('Remove the furniture from https://img.example.com/room.png'),
		]);
		const call = reply.choices[0].message.tool_calls![0];
		expect(call.function.name).toBe('Empty_room');
		expect(JSON.parse(call.function.arguments)).toEqual({
			photoUrl: 'https://img.example.com/room.png',
		});
	});

	test('prompt script: after a 9010 it calls again with the flagged word left out', async () => {
		const ask = user(
			'Enhance https://img.example.com/a.png with the prompt "Brighten the nsfw room"',
		);
		const first = await complete([ask]);
		const call = first.choices[0].message.tool_calls![0];
		expect(JSON.parse(call.function.arguments)).toMatchObject({
			prompt: 'Brighten the nsfw room',
			preset: '',
		});

		const error =
			'{"error":"Ideal House error 9010 (SCAN_TEXT_ERROR) – The prompt failed the text review: prompt failed text review (contains \\"nsfw\\"). Rephrase the prompt without the flagged wording and run again."}';
		const second = await complete([
			ask,
			{ role: 'assistant', content: null, tool_calls: [call] },
			toolResult(call.id, error),
		]);
		const retry = second.choices[0].message.tool_calls![0];
		expect(retry.id).not.toBe(call.id);
		expect(JSON.parse(retry.function.arguments)).toMatchObject({ prompt: 'Brighten the room' });
	});

	test('an error it has no rule for ends the turn with the error quoted', async () => {
		const ask = user('Enhance https://img.example.com/a.png with the preset "Purple Sky"');
		const call = (await complete([ask])).choices[0].message.tool_calls![0];
		const reply = await complete([
			ask,
			{ role: 'assistant', content: null, tool_calls: [call] },
			toolResult(call.id, '{"error":"Preset \\"Purple Sky\\" is not a known preset"}'),
		]);
		expect(reply.choices[0].message.content).toMatch(
			/^The tool did not give a result: .*Purple Sky/,
		);
	});

	test('streams the same answer as Chat Completions chunks when asked to', async () => {
		const response = await fetch(`${stub.baseUrl}/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				model: 'gpt-test',
				stream: true,
				tools: TOOLS,
				messages: [user('Enhance https://img.example.com/a.png preset "Sunset Sky"')],
			}),
		});
		expect(response.headers.get('content-type')).toBe('text/event-stream');
		const events = (await response.text())
			.split('\n\n')
			.filter(Boolean)
			.map((event) => event.replace(/^data: /, ''));
		expect(events.at(-1)).toBe('[DONE]');
		const chunks = events.slice(0, -1).map(
			(event) =>
				JSON.parse(event) as {
					object: string;
					choices: Array<{
						delta: { tool_calls?: Array<{ function: { name: string } }> };
						finish_reason: string | null;
					}>;
				},
		);
		expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
		expect(
			chunks
				.flatMap((chunk) => chunk.choices[0].delta.tool_calls ?? [])
				.map((call) => call.function.name),
		).toEqual(['Enhance_photo']);
		expect(chunks.at(-1)!.choices[0].finish_reason).toBe('tool_calls');
	});

	test('lists its model, refuses a body that is not a chat request, and records every request', async () => {
		const models = (await (await fetch(`${stub.baseUrl}/models`)).json()) as {
			data: Array<{ id: string }>;
		};
		expect(models.data.map((model) => model.id)).toEqual(['ideal-house-scripted']);
		const bad = await fetch(`${stub.baseUrl}/chat/completions`, {
			method: 'POST',
			body: 'not json',
		});
		expect(bad.status).toBe(400);
		await complete([user('hello')]);

		expect(stub.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /v1/models',
			'POST /v1/chat/completions',
			'POST /v1/chat/completions',
		]);
		expect(stub.requests[2].headers.authorization).toBe('Bearer sk-test');
		expect(stub.requests[2].body?.messages).toEqual([user('hello')]);
	});

	test('rephrase: drops the flagged word, or falls back to a neutral prompt', () => {
		expect(rephrase('A bright NSFW-free room', 'contains "nsfw"')).toBe('A bright-free room');
		expect(rephrase('nsfw', 'contains "nsfw"')).toBe(
			'Brighten the room and make the colours natural',
		);
		expect(rephrase('Anything', 'rejected')).toBe('Brighten the room and make the colours natural');
	});
});

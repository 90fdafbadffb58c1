/**
 * What the scripted model answers, decided from the conversation alone (as a model would), for
 * three scripts:
 *   photo    the user gives a photo URL and a preset in quotes (`preset "Sunset Sky"`): one call
 *            to the tool whose description says it enhances photos, then a final message that
 *            quotes the result URL;
 *   remover  the user asks to empty a room (`remove the furniture`): one call to the tool whose
 *            description says it removes furniture, then the final message;
 *   prompt   the user gives a prompt in quotes (`prompt "…"`): a call with that prompt; when the
 *            tool answers that the prompt failed review (9010), a second call with the flagged
 *            word left out, then the final message.
 * The tool's arguments are filled from its JSON schema by their names (…url…, …preset…, …prompt…).
 */

/** The parts of an OpenAI Chat Completions request the script reads. */
export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: JsonSchema };
	}>;
	stream?: boolean;
}

export interface ChatMessage {
	role: 'system' | 'user' | 'assistant' | 'tool' | 'developer';
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
}

export interface ToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}

interface JsonSchema {
	type?: string;
	properties?: Record<string, { type?: string; description?: string }>;
	required?: string[];
}

/** The assistant's next message: text, or tool calls. */
export type Reply = { content: string } | { toolCalls: ToolCall[] };

export const REVIEW_FALLBACK_PROMPT = 'Brighten the room and make the colours natural';

function text(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	return (message.content ?? []).map((part) => part.text ?? '').join('');
}

function quoted(after: string, message: string): string | undefined {
	return new RegExp(`${after}\\s*"([^"]+)"`, 'i').exec(message)?.[1];
}

interface Wish {
	tool: RegExp;
	imageUrl: string;
	preset?: string;
	prompt?: string;
}

/** What the last user message asks for. */
function readWish(message: string): Wish | string {
	const imageUrl = /https?:\/\/\S+?(?=[\s"')]|[.,;](?:\s|$)|$)/.exec(message)?.[0];
	if (!imageUrl) return 'Please give me the URL of the photo.';
	const preset = quoted('preset', message);
	const prompt = quoted('prompt', message);
	if (preset || prompt) return { tool: /enhances/i, imageUrl, preset, prompt };
	if (/furniture|empty the room/i.test(message)) return { tool: /removes furniture/i, imageUrl };
	return 'Tell me a preset ("preset \\"Sunset Sky\\"") or a prompt, or ask me to remove the furniture.';
}

function toolCall(request: ChatRequest, wish: Wish, prompt: string | undefined): Reply {
	const tool = request.tools?.find((candidate) =>
		wish.tool.test(candidate.function.description ?? ''),
	);
	if (!tool) return { content: `No tool I was given matches ${wish.tool}.` };
	const args: Record<string, string> = {};
	for (const key of Object.keys(tool.function.parameters?.properties ?? {})) {
		if (/url/i.test(key)) args[key] = wish.imageUrl;
		else if (/preset/i.test(key)) args[key] = wish.preset ?? '';
		else if (/prompt/i.test(key)) args[key] = prompt ?? '';
		else
			return {
				content: `I do not know how to fill the argument "${key}" of ${tool.function.name}.`,
			};
	}
	// Unique within the conversation, which only grows.
	const id = `call_${request.messages.length}`;
	return {
		toolCalls: [
			{
				id,
				type: 'function',
				function: { name: tool.function.name, arguments: JSON.stringify(args) },
			},
		],
	};
}

/** The prompt without the word the review flagged (`contains "nsfw"`), or a neutral one. */
export function rephrase(prompt: string, reviewMessage: string): string {
	const flagged = /contains \\?"([^"\\]+)\\?"/i.exec(reviewMessage)?.[1];
	if (!flagged) return REVIEW_FALLBACK_PROMPT;
	const escaped = flagged.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const result = prompt
		.replace(new RegExp(`\\s*\\b${escaped}\\b`, 'gi'), '')
		.replace(/\s+/g, ' ')
		.trim();
	return result || REVIEW_FALLBACK_PROMPT;
}

export function nextReply(request: ChatRequest): Reply {
	const messages = request.messages ?? [];
	const lastUser = messages.map((message) => message.role).lastIndexOf('user');
	if (lastUser === -1) return { content: 'Hello! Send me a photo URL.' };
	const wish = readWish(text(messages[lastUser]));
	if (typeof wish === 'string') return { content: wish };

	const toolResults = messages.slice(lastUser + 1).filter((message) => message.role === 'tool');
	if (toolResults.length === 0) return toolCall(request, wish, wish.prompt);

	const result = text(toolResults[toolResults.length - 1]);
	const resultUrl = /"resultUrl"\s*:\s*"([^"]+)"/.exec(result)?.[1];
	if (resultUrl) return { content: `Done. Here is the result: ${resultUrl}` };
	if (/9010/.test(result) && /rephrase/i.test(result) && wish.prompt && toolResults.length < 3) {
		const previous = messages
			.slice(lastUser + 1)
			.flatMap((message) => message.tool_calls ?? [])
			.map((call) => {
				const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
				return Object.entries(args).find(([key]) => /prompt/i.test(key))?.[1];
			})
			.filter((prompt): prompt is string => typeof prompt === 'string');
		return toolCall(request, wish, rephrase(previous[previous.length - 1] ?? wish.prompt, result));
	}
	return { content: `The tool did not give a result: ${result.slice(0, 500)}` };
}

import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** What each documented error code means for the user, and what they can do about it. */
interface CodeInfo {
	name: string;
	meaning: string;
	action: string;
}

const API_CODES: Record<number, CodeInfo> = {
	1001: {
		name: 'FAILED',
		meaning: 'The request failed',
		action: 'Read the service message above; correct the input it names and run the node again.',
	},
	1003: {
		name: 'INTERNAL_ERROR',
		meaning: 'The service had an internal error',
		action: 'Retry after a short delay. If it keeps happening, contact Ideal House support.',
	},
	1011: {
		name: 'PARAM_ERROR',
		meaning: 'A request parameter is missing or invalid',
		action: 'Fix the parameter the service message names (for example the image URL or the mask) and run again.',
	},
	5002: {
		name: 'API_KEY_INVALID',
		meaning: 'The API key is missing or invalid',
		action: 'Check the API key in the "Ideal House API" credential (copy it again from your Ideal House account).',
	},
	9010: {
		name: 'SCAN_TEXT_ERROR',
		meaning: 'The prompt failed the text review',
		action: 'Rephrase the prompt without the flagged wording and run again. Nothing was charged.',
	},
	9038: {
		name: 'PROHIBITED_CONTENT',
		meaning: 'The generated image was rejected by the content review',
		action: 'Try a different image, preset or prompt.',
	},
	9051: {
		name: 'COINS_NOT_ENOUGH',
		meaning: 'The account does not have enough credits',
		action: 'Top up credits in your Ideal House account, then run the node again. Nothing was charged for this item.',
	},
};

export interface ApiErrorContext {
	itemIndex: number;
	/** HTTP status that came with the error, as text (n8n's convention). */
	httpCode: string;
}

/** An error envelope (code ≠ 0) turned into an n8n error that says what happened and what to do. */
export function apiCodeError(
	node: INode,
	code: number,
	serverMessage: string,
	context: ApiErrorContext,
): NodeApiError {
	const info = API_CODES[code];
	const detail = serverMessage ? `: ${serverMessage}` : '';
	const message = info
		? `Ideal House error ${code} (${info.name}) – ${info.meaning}${detail}`
		: `Ideal House error ${code}${detail || ': no message'}`;
	const description = info
		? info.action
		: 'This code is not documented. Check the message, then retry or contact Ideal House support.';
	return new NodeApiError(node, { code, message: serverMessage } as JsonObject, {
		message,
		description,
		httpCode: context.httpCode,
		itemIndex: context.itemIndex,
	});
}

/** An HTTP error whose body is not an API envelope (a proxy page, an empty 503, …). */
export function httpStatusError(
	node: INode,
	statusCode: number,
	bodyText: string,
	itemIndex: number,
): NodeApiError {
	const snippet = bodyText
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 200);
	const hint =
		statusCode === 429
			? 'The service is limiting the request rate: lower the request rate option or the batch size, then run again.'
			: statusCode >= 500
				? 'The service is unavailable or failing right now. Retry after a short delay.'
				: 'Check the credential’s base URL and the node’s parameters.';
	return new NodeApiError(node, { statusCode, body: snippet } as JsonObject, {
		message: `Ideal House answered HTTP ${statusCode}${snippet ? `: ${snippet}` : ''}`,
		description: hint,
		httpCode: String(statusCode),
		itemIndex,
	});
}

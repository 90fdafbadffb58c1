/** What each documented error code means for the user, and what they can do about it. */
export interface CodeInfo {
	name: string;
	meaning: string;
	action: string;
}

export const API_CODES: Record<number, CodeInfo> = {
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
		action:
			'Fix the parameter the service message names (for example the image URL or the mask) and run again.',
	},
	5002: {
		name: 'API_KEY_INVALID',
		meaning: 'The API key is missing or invalid',
		action:
			'Check the API key in the "Ideal House API" credential (copy it again from your Ideal House account).',
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
		action:
			'Top up credits in your Ideal House account, then run the node again. Nothing was charged for this item.',
	},
};

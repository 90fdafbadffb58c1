/** The service's documented error codes, by name: the package decides on these by name only. */
const FAILED = 1001;
export const INTERNAL_ERROR = 1003;
export const PARAM_ERROR = 1011;
export const API_KEY_INVALID = 5002;
const SCAN_TEXT_ERROR = 9010;
const PROHIBITED_CONTENT = 9038;
export const NOT_ENOUGH_CREDITS = 9051;

/** A code's meaning (lower case, after a colon) and action; only the item's end says "run again". */
interface CodeInfo {
	name: string;
	meaning: string;
	action: string;
	runAgain?: RunAgain;
}

export type RunAgain = 'now' | 'later';

export const API_CODES: Record<number, CodeInfo> = {
	[FAILED]: {
		name: 'FAILED',
		meaning: 'the request was not carried out',
		action: 'Read the service message above and correct the input it names.',
		runAgain: 'now',
	},
	[INTERNAL_ERROR]: {
		name: 'INTERNAL_ERROR',
		meaning: 'the service had an internal fault',
		action: 'If it keeps happening, contact Ideal House support.',
		runAgain: 'later',
	},
	[PARAM_ERROR]: {
		name: 'PARAM_ERROR',
		meaning: 'a request parameter is missing or not valid',
		action: 'Fix the parameter the service message names (for example the image URL or the mask).',
		runAgain: 'now',
	},
	[API_KEY_INVALID]: {
		name: 'API_KEY_INVALID',
		meaning: 'the API key is missing or not valid',
		action:
			'Check the API key in the "Ideal House API" credential (copy it again from your Ideal House account).',
		runAgain: 'now',
	},
	[SCAN_TEXT_ERROR]: {
		name: 'SCAN_TEXT_ERROR',
		meaning: 'the prompt did not pass the text review',
		action: 'Rephrase the prompt without the flagged wording.',
		runAgain: 'now',
	},
	[PROHIBITED_CONTENT]: {
		name: 'PROHIBITED_CONTENT',
		meaning: 'the generated image did not pass the content review',
		action: 'Try a different image, preset or prompt.',
	},
	[NOT_ENOUGH_CREDITS]: {
		name: 'COINS_NOT_ENOUGH',
		meaning: 'the account does not have enough credits',
		action: 'Top up credits in your Ideal House account.',
		runAgain: 'now',
	},
};

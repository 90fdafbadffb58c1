import type { INode, JsonObject } from 'n8n-workflow';

import { API_CODES, NOT_ENOUGH_CREDITS, type RunAgain } from '../basics/api-codes';
import { IdealHouseApiError, rewrittenByN8n } from '../basics/errors';
import type { Outcome } from '../basics/outcome';
import type { NetworkFailure } from '../http/network';

/**
 * Every way a request to Ideal House can fail, with its words: the message says what happened,
 * `cause` what that means for the request, `fix` and `runAgain` what to do (the item's end adds
 * them, knowing whether a task may exist: see `finalAdvice`). What a failure came to is set where
 * it is read: a network failure by `NETWORK_FAILURES`, an answer by `readEnvelope`.
 */
export type ServiceFailure =
	| NetworkFailure
	/** The request's time limit ran out before an answer came. */
	| 'noAnswerInTime'
	/** An answer below HTTP 300 whose body is not the service's envelope (cut short, garbled). */
	| 'unreadableAnswer'
	/** HTTP 3xx: never followed. */
	| 'redirect'
	/** HTTP 4xx (not 429) without the service's envelope: a proxy's or a web server's page. */
	| 'pageOf4xx'
	/** HTTP 429 without the service's envelope. */
	| 'throttled'
	/** HTTP 5xx without the service's envelope. */
	| 'pageOf5xx'
	/** An error code of the service's own, below HTTP 500: it refused the request. */
	| 'serviceCode'
	/** An error code behind HTTP 5xx: a gateway may have answered after the service acted. */
	| 'codeBehind5xx'
	/** Code 9051, behind any status: the account has too few credits; nothing was created. */
	| 'notEnoughCredits';

interface Words {
	message: string;
	cause: string;
	/** What to do about it; never "run again" (see `runAgain`). */
	fix?: string;
	/** Whether running the node again is then the remedy, when nothing was charged. */
	runAgain?: RunAgain;
}

const CHECK_BASE_URL = "Check the base URL in the 'Ideal House API' credential";

export const SERVICE_FAILURES: Record<
	Exclude<ServiceFailure, 'serviceCode' | 'codeBehind5xx'>,
	Words
> = {
	secretNotSent: {
		message: "The 'Ideal House API' credential did not send the key",
		cause:
			'Its base URL must start with https:// (plain http only on this machine: localhost, 127.x.x.x or [::1]), so that the key never travels unencrypted.',
		fix: "Fix the Base URL in the 'Ideal House API' credential.",
		runAgain: 'now',
	},
	noConnection: {
		message: 'n8n could not connect to Ideal House',
		cause: 'Nothing reached the service.',
		fix: `${CHECK_BASE_URL} and that this n8n instance can reach it.`,
		runAgain: 'now',
	},
	tlsHandshake: {
		message: 'n8n could not open a secure connection to Ideal House',
		cause:
			'The TLS handshake did not complete (a certificate that is not valid, or an address that does not speak HTTPS), so nothing reached the service.',
		fix: `${CHECK_BASE_URL}: it must be the service's own HTTPS address.`,
		runAgain: 'now',
	},
	connectionCut: {
		message: 'The connection to Ideal House broke before its answer arrived',
		cause: 'The request had already been sent, so the service may have acted on it.',
		runAgain: 'now',
	},
	notHttp: {
		message: "Ideal House's address answered with something that is not HTTP",
		cause: 'The request had already been sent, so whatever answered may have acted on it.',
		fix: `${CHECK_BASE_URL}.`,
		runAgain: 'now',
	},
	unknown: {
		message: 'The request to Ideal House ended without an answer',
		cause: 'It may have reached the service.',
		runAgain: 'now',
	},
	noAnswerInTime: {
		message: 'Ideal House did not answer in time',
		cause: 'The request had been sent; the service or the network is slow right now.',
		runAgain: 'later',
	},
	unreadableAnswer: {
		message: 'Ideal House sent an answer that could not be read',
		cause:
			'The answer was cut short or was not the JSON the service sends, so the service may have acted on the request.',
		fix: `${CHECK_BASE_URL} if it keeps happening.`,
		runAgain: 'later',
	},
	redirect: {
		message: 'Ideal House answered with a redirect',
		cause:
			'Redirects are not followed, so the key was not sent on and the request went no further.',
		fix: `${CHECK_BASE_URL}: it must be the address of the API itself.`,
	},
	pageOf4xx: {
		message: "Ideal House's address answered with a page that is not the API's",
		cause: 'The request was turned away before the service took it.',
		fix: `${CHECK_BASE_URL} and the node's parameters.`,
		runAgain: 'now',
	},
	throttled: {
		message: 'Ideal House is limiting the request rate',
		cause: 'The request was refused before the service acted on it.',
		fix: "Lower 'Max Requests per Second' or n8n's batch size.",
		runAgain: 'later',
	},
	pageOf5xx: {
		message: 'Ideal House is unavailable right now',
		cause:
			'The service, or a gateway in front of it, is failing, and the service may have acted on the request.',
		runAgain: 'later',
	},
	notEnoughCredits: {
		message: 'Ideal House refused the task: the account does not have enough credits',
		cause: '',
		fix: API_CODES[NOT_ENOUGH_CREDITS].action,
		runAgain: API_CODES[NOT_ENOUGH_CREDITS].runAgain,
	},
};

const itemText = (itemIndex: number | undefined) =>
	itemIndex === undefined ? '' : ` [item ${itemIndex}]`;

export interface FailureContext {
	node: INode;
	/** Absent outside an item, e.g. while the editor loads an option list. */
	itemIndex?: number;
	/** HTTP status that came with the answer, as text (n8n's convention). */
	httpCode?: string;
}

/**
 * The error of one failure: the row's words, with `detail` (a code, the service's or a page's
 * own words) after the message's own and `more` (what only this case knows) after the cause. No
 * system code ever goes in the message: n8n would replace it (see `rewrittenByN8n`).
 */
export function failureError(
	context: FailureContext,
	words: Words,
	outcome: Outcome,
	extra: { detail?: string; more?: string } = {},
): IdealHouseApiError {
	// The service's own words may name a system code: then they go in the description.
	const quoted = extra.detail && rewrittenByN8n(extra.detail) ? extra.detail : undefined;
	const inMessage = quoted ? '' : extra.detail ? `: ${extra.detail}` : '';
	const message = `${words.message}${inMessage}${itemText(context.itemIndex)}`;
	const description = [words.cause, quoted && `It said: ${quoted}.`, extra.more]
		.filter(Boolean)
		.join(' ');
	const error = new IdealHouseApiError(
		context.node,
		{ message } as JsonObject,
		{ message, description, httpCode: context.httpCode, itemIndex: context.itemIndex },
		outcome,
	);
	error.fix = words.fix;
	error.runAgain = words.runAgain;
	return error;
}

/**
 * An error code of the service. Below HTTP 500 it is the service's refusal, and the code's action
 * is what to do; behind a 5xx a gateway may have sent it after the service acted. Code 9051 is
 * "not enough credits" whatever the status around it.
 */
export function codeError(
	context: FailureContext & { httpCode: string },
	code: number,
	serverMessage: string,
	outcome: Outcome,
	more?: string,
): IdealHouseApiError {
	const status = Number(context.httpCode);
	if (code === NOT_ENOUGH_CREDITS) {
		return failureError(context, SERVICE_FAILURES.notEnoughCredits, outcome, {
			detail: `code ${code}${serverMessage ? `, "${serverMessage}"` : ''}`,
			more,
		});
	}
	const info = Object.hasOwn(API_CODES, code) ? API_CODES[code] : undefined;
	const said = serverMessage ? `: "${serverMessage}"` : '';
	const words: Words = {
		message: info
			? `Ideal House answered code ${code}, ${info.meaning}${said}`
			: `Ideal House answered code ${code}${said || ', with no message'}`,
		cause:
			status >= 500
				? `The answer came with HTTP ${status}: a gateway may have sent it after the service acted on the request.`
				: `The service did not take the request (${info ? info.name : 'a code its documentation does not list'}).`,
		fix: info ? info.action : 'Check the message, or contact Ideal House support.',
		runAgain: info ? info.runAgain : 'now',
	};
	return failureError(context, words, outcome, { more });
}

/** An HTTP error whose body is not the service's envelope: a proxy's page, an empty 503 … */
export function pageError(
	context: FailureContext & { httpCode: string },
	bodyText: string,
	outcome: Outcome,
): IdealHouseApiError {
	const status = Number(context.httpCode);
	const snippet = bodyText
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 200);
	const row =
		status === 429
			? SERVICE_FAILURES.throttled
			: status >= 500
				? SERVICE_FAILURES.pageOf5xx
				: SERVICE_FAILURES.pageOf4xx;
	return failureError(context, row, outcome, {
		detail: `HTTP ${status}${snippet ? `, "${snippet}"` : ''}`,
	});
}

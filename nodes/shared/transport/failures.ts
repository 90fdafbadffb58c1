// Every way a request to Ideal House can fail, in one table: what it proves about the request
// (`outcome`) and its words; the item's end adds `fix` and `runAgain` (`finalAdvice`).
import type { INode, JsonObject } from 'n8n-workflow';

import { API_CODES, NOT_ENOUGH_CREDITS, type RunAgain } from '../core/api-codes';
import { IdealHouseApiError, rewrittenByN8n } from '../core/errors';
import { aboutTask, type NamedTask, type Outcome, type Retry } from '../core/outcome';
import type { NetworkFailure } from '../http/network';

/** Which row: a network failure by its code (`networkFailure`), an answer by `readEnvelope`. */
type ServiceFailure =
	| NetworkFailure
	| 'noAnswerInTime'
	/** An answer below HTTP 300 whose body is not the service's envelope (cut short, garbled). */
	| 'unreadableAnswer'
	| 'redirect'
	/** HTTP 4xx (not 429) without the service's envelope: a proxy's or a web server's page. */
	| 'pageOf4xx'
	| 'throttled'
	| 'pageOf5xx'
	/** An error code of the service's own, below HTTP 500: it refused the request. */
	| 'serviceCode'
	/** An envelope behind an HTTP error (a 5xx above all): a gateway may have sent it after the service acted. */
	| 'codeBehindHttpError'
	/** An error answer whose data still names a task: that task may exist. */
	| 'taskNamed'
	/** Code 9051, behind any status: the account has too few credits; nothing was created. */
	| 'notEnoughCredits';

type Proves = 'neverSent' | 'refused' | 'maybeActed';

interface Row {
	outcome: Proves;
	/** For the code rows, its start (`codeError`). */
	message: string;
	/** `{status}`, `{name}` and `{task}` stand for the answer's. */
	cause: string;
	/** What to do about it; never "run again" (see `runAgain`). For the code rows, the code's. */
	fix?: string;
	/** When nothing was charged. */
	runAgain?: RunAgain;
}

const CHECK_BASE_URL = "Check the base URL in the 'Ideal House API' credential";
const ANSWERED_CODE = 'Ideal House answered code';

export const SERVICE_FAILURES: Record<ServiceFailure, Row> = {
	secretNotSent: {
		outcome: 'neverSent',
		message: "The 'Ideal House API' credential did not send the key",
		cause:
			'Its base URL must start with https:// (plain http only on this machine: localhost, 127.x.x.x or [::1]), so that the key never travels unencrypted.',
		fix: "Fix the Base URL in the 'Ideal House API' credential.",
		runAgain: 'now',
	},
	noConnection: {
		outcome: 'neverSent',
		message: 'n8n could not connect to Ideal House',
		cause: 'Nothing reached the service.',
		fix: `${CHECK_BASE_URL} and that this n8n instance can reach it.`,
		runAgain: 'now',
	},
	tlsHandshake: {
		outcome: 'neverSent',
		message: 'n8n could not open a secure connection to Ideal House',
		cause:
			'The TLS handshake did not complete (a certificate that is not valid, or an address that does not speak HTTPS), so nothing reached the service.',
		fix: `${CHECK_BASE_URL}: it must be the service's own HTTPS address.`,
		runAgain: 'now',
	},
	connectionCut: {
		outcome: 'maybeActed',
		message: 'The connection to Ideal House broke before its answer arrived',
		cause: 'The request had already been sent, so the service may have acted on it.',
		runAgain: 'now',
	},
	notHttp: {
		outcome: 'maybeActed',
		message: "Ideal House's address answered with something that is not HTTP",
		cause: 'The request had already been sent, so whatever answered may have acted on it.',
		fix: `${CHECK_BASE_URL}.`,
		runAgain: 'now',
	},
	unknown: {
		outcome: 'maybeActed',
		message: 'The request to Ideal House ended without an answer',
		cause: 'It may have reached the service.',
		runAgain: 'now',
	},
	noAnswerInTime: {
		outcome: 'maybeActed',
		message: 'Ideal House did not answer in time',
		cause: 'The request had been sent; the service or the network is slow right now.',
		runAgain: 'later',
	},
	unreadableAnswer: {
		outcome: 'maybeActed',
		message: 'Ideal House sent an answer that could not be read',
		cause:
			'The answer was cut short or was not the JSON the service sends, so the service may have acted on the request.',
		fix: `${CHECK_BASE_URL} if it keeps happening.`,
		runAgain: 'later',
	},
	redirect: {
		outcome: 'refused',
		message: 'Ideal House answered with a redirect',
		cause:
			'Redirects are not followed, so the key was not sent on and the request went no further.',
		fix: `${CHECK_BASE_URL}: it must be the address of the API itself.`,
	},
	pageOf4xx: {
		outcome: 'refused',
		message: "Ideal House's address answered with a page that is not the API's",
		cause: 'The request was turned away before the service took it.',
		fix: `${CHECK_BASE_URL} and the node's parameters.`,
		runAgain: 'now',
	},
	throttled: {
		outcome: 'refused',
		message: 'Ideal House is limiting the request rate',
		cause: 'The request was refused before the service acted on it.',
		fix: "Lower 'Max Requests per Second' or n8n's batch size.",
		runAgain: 'later',
	},
	pageOf5xx: {
		outcome: 'maybeActed',
		message: 'Ideal House is unavailable right now',
		cause:
			'The service, or a gateway in front of it, is failing, and the service may have acted on the request.',
		runAgain: 'later',
	},
	serviceCode: {
		outcome: 'refused',
		message: ANSWERED_CODE,
		cause: 'The service did not take the request ({name}).',
	},
	codeBehindHttpError: {
		outcome: 'maybeActed',
		message: ANSWERED_CODE,
		cause:
			'The answer came with HTTP {status}: a gateway may have sent it after the service acted on the request.',
	},
	taskNamed: {
		outcome: 'maybeActed',
		message: ANSWERED_CODE,
		cause: 'The answer is not a success, yet it names task {task}: that task may exist.',
	},
	notEnoughCredits: {
		outcome: 'refused',
		message: 'Ideal House refused the task: the account does not have enough credits',
		cause: '',
		fix: API_CODES[NOT_ENOUGH_CREDITS].action,
		runAgain: API_CODES[NOT_ENOUGH_CREDITS].runAgain,
	},
};

/**
 * Words that would have the user send a create again. A create that may exist never says them;
 * words quoted from elsewhere (the service, n8n's rewording) that do are left out.
 */
export const SEND_AGAIN_WORDS = /run the node again|retry on fail|retry the request/i;

const itemText = (itemIndex: number | undefined) =>
	itemIndex === undefined ? '' : ` [item ${itemIndex}]`;

export interface FailureContext {
	node: INode;
	/** Absent in the editor's option lists. */
	itemIndex?: number;
	/** As text (n8n's convention). */
	httpCode?: string;
}

/** What only this failure knows, besides its row. */
export interface FailureFacts {
	/** A code, the service's or a page's own words: after the message's own. */
	detail?: string;
	/** After the cause. */
	more?: string;
	retry?: Retry;
	apiCode?: number;
	taskId?: string;
	/** The task a read asked about: any failure of it is about that task. */
	about?: NamedTask;
	/** Replaces the row's message (the code rows build theirs). */
	message?: string;
	/** Fills the cause's `{name}`. */
	name?: string;
}

/**
 * No system code goes in the message, or n8n replaces it with advice to retry (`rewrittenByN8n`);
 * nor, when the request may have been acted on, quoted words that say to send it again.
 */
export function failureError(
	context: FailureContext,
	kind: ServiceFailure,
	facts: FailureFacts = {},
	row: Row = SERVICE_FAILURES[kind],
): IdealHouseApiError {
	let outcome = { kind: row.outcome } as Outcome;
	if (facts.retry) outcome.retry = facts.retry;
	if (outcome.kind === 'refused' || outcome.kind === 'maybeActed') {
		if (facts.apiCode !== undefined) outcome.apiCode = facts.apiCode;
	}
	if (outcome.kind === 'maybeActed' && facts.taskId) outcome.taskId = facts.taskId;
	if (facts.about) outcome = aboutTask(outcome, facts.about);

	let { detail } = facts;
	let left = '';
	if (detail && row.outcome === 'maybeActed' && SEND_AGAIN_WORDS.test(detail)) {
		detail = undefined;
		left = 'Its own words, which said to send the request again, are left out.';
	}
	const quoted = detail && rewrittenByN8n(detail) ? detail : undefined;
	const inMessage = quoted ? '' : detail ? `: ${detail}` : '';
	const message = `${facts.message ?? row.message}${inMessage}${itemText(context.itemIndex)}`;
	const cause = row.cause
		.replace('{status}', context.httpCode ?? '')
		.replace('{name}', facts.name ?? '')
		.replace('{task}', facts.taskId ?? '');
	const description = [cause, quoted && `It said: ${quoted}.`, left, facts.more]
		.filter(Boolean)
		.join(' ');
	const error = new IdealHouseApiError(
		context.node,
		{ message } as JsonObject,
		{ message, description, httpCode: context.httpCode, itemIndex: context.itemIndex },
		outcome,
	);
	error.fix = row.fix;
	error.runAgain = row.runAgain;
	return error;
}

/** An error code of the service; 9051 is "not enough credits" whatever the status around it. */
export function codeError(
	context: FailureContext & { httpCode: string },
	kind: 'serviceCode' | 'codeBehindHttpError' | 'taskNamed',
	code: number,
	serverMessage: string,
	facts: FailureFacts = {},
): IdealHouseApiError {
	const said = serverMessage ? `"${serverMessage}"` : undefined;
	if (code === NOT_ENOUGH_CREDITS) {
		return failureError(context, 'notEnoughCredits', {
			...facts,
			apiCode: code,
			detail: `code ${code}${said ? `, ${said}` : ''}`,
		});
	}
	const info = Object.hasOwn(API_CODES, code) ? API_CODES[code] : undefined;
	const row = SERVICE_FAILURES[kind];
	return failureError(
		context,
		kind,
		{
			...facts,
			apiCode: code,
			message: `${row.message} ${code}${info ? `, ${info.meaning}` : said ? '' : ', with no message'}`,
			detail: said,
			name: info ? info.name : 'a code its documentation does not list',
		},
		{
			...row,
			fix: info ? info.action : 'Check the message, or contact Ideal House support.',
			runAgain: info ? info.runAgain : 'now',
		},
	);
}

/** An HTTP error whose body is not the service's envelope: a proxy's page, an empty 503 … */
export function pageError(
	context: FailureContext & { httpCode: string },
	bodyText: string,
	facts: FailureFacts = {},
): IdealHouseApiError {
	const status = Number(context.httpCode);
	const snippet = bodyText
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 200);
	const kind = status === 429 ? 'throttled' : status >= 500 ? 'pageOf5xx' : 'pageOf4xx';
	return failureError(context, kind, {
		...facts,
		detail: `HTTP ${status}${snippet ? `, "${snippet}"` : ''}`,
	});
}

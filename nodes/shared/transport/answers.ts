// How the service's answers are read: the envelope (64-bit ids kept exact), a refusal told from an
// answer it may have acted on, and the pace an answer asks for. HTTP errors come back as answers
// (`ignoreHttpStatusErrors`) so that the service's own message survives into the error.
import type { IDataObject, IN8nHttpFullResponse, INode } from 'n8n-workflow';

import { INTERNAL_ERROR, NOT_ENOUGH_CREDITS } from '../core/api-codes';
import type { IdealHouseApiError } from '../core/errors';
import { limits } from '../core/limits';
import type { Retry } from '../core/outcome';
import { parseJsonKeepingLongs } from '../core/long-ids';
import { redact, withoutSecrets } from '../core/redact';
import { toTaskId } from '../catalog/task';
import { bodyText, retryAfterMs } from '../http/responses';
import type { PaceSignal } from '../rate/account';
import {
	codeError,
	failureError,
	pageError,
	SERVICE_FAILURES,
	type FailureContext,
	type FailureFacts,
} from './failures';

/** An answer of the service, its body as text with the key already cleared from it. */
export interface ServiceResponse extends IN8nHttpFullResponse {
	body: string;
	secrets: string[];
}

export interface Envelope {
	code: number;
	message: string;
	data: unknown;
}

function tryParseJson(text: string): unknown {
	try {
		return parseJsonKeepingLongs(text);
	} catch {
		return undefined;
	}
}

function asEnvelope(value: unknown): Envelope | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
	const obj = value as IDataObject;
	if (typeof obj.code !== 'number') return undefined;
	return {
		code: obj.code,
		message: typeof obj.message === 'string' ? obj.message : String(obj.message ?? ''),
		data: obj.data,
	};
}

/** The API envelope a body holds, if it holds one (long integers kept exact). */
export function envelopeIn(text: string): Envelope | undefined {
	return asEnvelope(tryParseJson(text));
}

/** The code of an answer's envelope, without judging it; undefined when it has none. */
export function envelopeCode(response: ServiceResponse): number | undefined {
	return envelopeIn(response.body)?.code;
}

// An error code of the service's own refuses. Behind a 5xx it may be a gateway's after the service
// acted, and one that names a task may stand for a task that exists.
function isRefusal(statusCode: number, envelope: Envelope): boolean {
	return envelope.code !== 0 && statusCode < 500 && toTaskId(envelope.data) === undefined;
}

// A Retry-After the node cannot read still asks to wait: it counts as the longest wait honoured.
function serviceRetryAfterMs(headers: IDataObject | undefined): number | undefined {
	const ms = retryAfterMs(headers);
	return ms === undefined && headers?.['retry-after'] !== undefined
		? limits.createRetryAfterMaxMs
		: ms;
}

/** HTTP 429, or code 1003 with a Retry-After, is a throttle; a 5xx says nothing of the pace. */
export function paceSignalOf(response: ServiceResponse): PaceSignal | undefined {
	const retryAfter = serviceRetryAfterMs(response.headers);
	const busy = retryAfter !== undefined && envelopeCode(response) === INTERNAL_ERROR;
	if (response.statusCode === 429 || busy) return { throttled: true, retryAfterMs: retryAfter };
	return response.statusCode < 500 ? { throttled: false } : undefined;
}

/** Who reads an answer: a node's item, or the editor loading an option list (no item there). */
interface EnvelopeReader {
	getNode(): INode;
	getItemIndex?(): number;
}

/** A create (an error naming a task may mean it exists), or a read of one task. */
export type Asked = 'create' | { taskId: string };

/** The envelope's `data`, or throws the error of the `SERVICE_FAILURES` row the answer is. */
export function readEnvelope(
	this: EnvelopeReader,
	response: IN8nHttpFullResponse,
	secrets: readonly string[] = [],
	asked?: Asked,
): unknown {
	const status = response.statusCode;
	const context = {
		node: this.getNode(),
		itemIndex: this.getItemIndex?.(),
		httpCode: String(status),
	};
	const about = typeof asked === 'object' ? asked : undefined;
	const text = withoutSecrets(bodyText(response.body), secrets);
	const envelope = envelopeIn(text);
	const notEnoughCredits = envelope?.code === NOT_ENOUGH_CREDITS;
	const namedTask =
		asked === 'create' && envelope && envelope.code !== 0 && !notEnoughCredits
			? toTaskId(envelope.data)
			: undefined;
	if (status >= 300 && status < 400) {
		throw movedError(context, response, { about, taskId: namedTask });
	}
	if (envelope && namedTask !== undefined) {
		throw codeError(context, 'taskNamed', envelope.code, redact(envelope.message, secrets), {
			taskId: namedTask,
		});
	}
	// A 429 was refused before the service acted; after a 5xx, it may have acted.
	const statusFault: Retry | undefined =
		status === 429 || status >= 500
			? { reason: `HTTP ${status}`, afterMs: serviceRetryAfterMs(response.headers) }
			: undefined;

	if (!envelope) {
		if (status >= 400) {
			throw pageError(context, redact(text, secrets, 2000), { about, retry: statusFault });
		}
		throw failureError(context, 'unreadableAnswer', {
			about,
			retry: { reason: 'unreadable response body' },
		});
	}

	if (envelope.code !== 0 || status >= 400) {
		// The service's own "internal error" took nothing; behind a 5xx it may be a gateway's.
		const internalError: Retry | undefined =
			envelope.code === INTERNAL_ERROR && status < 400
				? { reason: `code ${INTERNAL_ERROR}`, afterMs: serviceRetryAfterMs(response.headers) }
				: undefined;
		// Too few credits is no passing fault, and says nothing was created, whatever the status.
		const retry = notEnoughCredits ? undefined : (internalError ?? statusFault);
		// Code 0 is the service's own "done", whatever status a gateway put around it.
		const throttled = status === 429 && envelope.code !== 0;
		const refused = isRefusal(status, envelope) || internalError !== undefined || throttled;
		const kind = refused ? 'serviceCode' : status >= 400 ? 'codeBehindHttpError' : 'taskNamed';
		const taskId = kind === 'taskNamed' ? toTaskId(envelope.data) : undefined;
		throw codeError(context, kind, envelope.code, redact(envelope.message, secrets), {
			about,
			retry,
			taskId,
		});
	}
	return envelope.data;
}

// A 3xx is not followed, so the key went no further; one naming a task says it may exist.
function movedError(
	context: FailureContext & { httpCode: string },
	response: IN8nHttpFullResponse,
	facts: FailureFacts,
): IdealHouseApiError {
	const location = response.headers?.location;
	let where = '';
	try {
		where = typeof location === 'string' ? ` to ${new URL(location).host}` : '';
	} catch {
		where = '';
	}
	const row = facts.taskId
		? { ...SERVICE_FAILURES.redirect, ...pick(SERVICE_FAILURES.taskNamed) }
		: SERVICE_FAILURES.redirect;
	return failureError(
		context,
		'redirect',
		{ ...facts, detail: `HTTP ${response.statusCode}${where}` },
		row,
	);
}

const pick = ({ outcome, cause }: (typeof SERVICE_FAILURES)['taskNamed']) => ({ outcome, cause });

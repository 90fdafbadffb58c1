import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { IdealHouseApiError } from '../core/errors';
import { limits } from '../core/limits';
import type { Outcome } from '../core/outcome';
import { bounded, redact } from '../core/redact';
import { fieldError } from '../core/validation';

const MAX_TASK_ID = '18446744073709551615';

/** Task ids travel as exact decimal strings; a small id may arrive as a plain number. */
export function toTaskId(value: unknown): string | undefined {
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	return undefined;
}

/** The Task ID field: an unsigned 64-bit decimal. A number beyond 2^53 has lost digits: refused. */
export function parseTaskIdField(ctx: IExecuteSingleFunctions, value: unknown): string {
	if (typeof value === 'number') {
		if (Number.isSafeInteger(value) && value >= 0) return String(value);
		if (Number.isInteger(value) && value > 0) {
			throw fieldError(
				ctx,
				'Task ID',
				`is a number too large to be exact (${bounded(String(value), 40)})`,
				'Task IDs are 64-bit and lose their last digits as numbers. Pass the ID as text, e.g. map the "id" field of an earlier output, which is text, or write it in quotes.',
			);
		}
	}
	const text =
		typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (text === '')
		throw fieldError(
			ctx,
			'Task ID',
			'is empty',
			'Give the ID of a task created earlier (the "id" of its output).',
		);
	// Same length compares as text: at most 20 digits, and no more than 2^64 - 1.
	const digits = text.replace(/^0+(?=\d)/, '');
	if (
		!/^\d{1,20}$/.test(text) ||
		(digits.length === 20 && digits > MAX_TASK_ID) ||
		digits.length > 20
	) {
		throw fieldError(
			ctx,
			'Task ID',
			`must be a task ID: digits only, at most 18446744073709551615 (got ${bounded(JSON.stringify(typeof value === 'string' ? value : String(value)), 60)})`,
			'Use the "id" field of a previous output, unchanged.',
		);
	}
	return text;
}

/** The spec's Task object as emitted to the workflow: `id` is always the exact decimal string. */
export interface Task extends IDataObject {
	id: string;
	status: string;
	waitNumber?: number;
	percentage?: number;
	input?: IDataObject;
	output?: {
		resultUrl: string;
		width: number | null;
		height: number | null;
		resultList?: unknown;
	} | null;
}

/** The address in one entry of a result list: a URL, or an object that holds one. */
function listedUrl(entry: unknown): unknown {
	if (typeof entry !== 'object' || entry === null) return entry;
	const fields = entry as IDataObject;
	return fields.url ?? fields.resultUrl ?? fields.fileUrl;
}

/** A finished task's result files: `resultUrl`, then each of `resultList`, once each. */
export function resultUrls(task: Task): string[] {
	const output = task.output;
	if (!output) return [];
	const list = output.resultList;
	const listed = Array.isArray(list) ? (list as unknown[]) : [list];
	const urls = [output.resultUrl, ...listed.map(listedUrl)]
		.filter((url): url is string => typeof url === 'string')
		.map((url) => url.trim())
		.filter((url) => url !== '');
	return [...new Set(urls)];
}

function unexpected(
	ctx: IExecuteSingleFunctions,
	what: string,
	outcome: Outcome,
): IdealHouseApiError {
	return new IdealHouseApiError(
		ctx.getNode(),
		{ message: what },
		{
			message: `Ideal House sent an unexpected response: ${what}`,
			description:
				'The service answered in a shape this node does not know. Check the credential’s base URL.',
			itemIndex: ctx.getItemIndex(),
		},
		outcome,
	);
}

/** An unlisted status `unknownStatusGrace` times in a row: the wait hands the task to the user. */
export function unknownStatusError(ctx: IExecuteSingleFunctions, task: Task): IdealHouseApiError {
	return new IdealHouseApiError(
		ctx.getNode(),
		{ message: `unknown status ${task.status}` },
		{
			message: `Task ${task.id} has a status this node does not know: "${bounded(task.status, 60)}"`,
			description: `The service answered ${limits.unknownStatusGrace} times in a row with a status that is not in its specification (Unprocessed, Processing, Success, Failed). Check the task later with the Get Result operation and task ID ${task.id}, and check the credential's base URL.`,
			itemIndex: ctx.getItemIndex(),
		},
		{ kind: 'created', taskId: task.id },
	);
}

/** What the answer's `data` was, for a message: redacted and cut, but enough to find a task by. */
function quoted(data: unknown, secrets: readonly string[]): string {
	const text = data === undefined ? 'missing' : (JSON.stringify(data) ?? String(data));
	return redact(text, secrets, 200);
}

// Code 0 took the request: without a usable id the task may exist and be paid for, so the error
// quotes what came (for Get Result to find it), and the item is never sent again.
export function taskIdFromCreate(
	ctx: IExecuteSingleFunctions,
	data: unknown,
	secrets: readonly string[] = [],
): string {
	const id = toTaskId(data);
	if (id !== undefined) return id;
	const sent = quoted(data, secrets);
	ctx.logger.warn(
		`Ideal House accepted a create but sent no usable task id (data: ${sent}); the task may have been created and charged (execution ${ctx.getExecutionId()}, node "${ctx.getNode().name}", item ${ctx.getItemIndex()})`,
		{ data: sent, itemIndex: ctx.getItemIndex() },
	);
	throw new IdealHouseApiError(
		ctx.getNode(),
		{ message: 'no usable task id' },
		{
			message: `Ideal House accepted the request (code 0) but sent no usable task id (data: ${sent})`,
			description:
				"If the data quoted above holds the task's id, that is the task: fetch it with the Get Result operation.",
			itemIndex: ctx.getItemIndex(),
		},
		{ kind: 'maybeActed' },
	);
}

// Code 0 without the asked task, or with another, is a passing fault: asking again may get the
// right answer, and another task is never taken for the one asked about.
export function taskFromResult(
	ctx: IExecuteSingleFunctions,
	data: unknown,
	askedId: string,
	secrets: readonly string[] = [],
): Task {
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		throw unexpected(ctx, `the result call returned no task (data: ${quoted(data, secrets)})`, {
			kind: 'created',
			taskId: askedId,
			retry: { reason: 'no task in the answer' },
		});
	}
	const raw = data as IDataObject;
	const id = toTaskId(raw.id);
	if (id === undefined || typeof raw.status !== 'string') {
		throw unexpected(ctx, 'the task has no id or status', {
			kind: 'created',
			taskId: askedId,
			retry: { reason: 'a task without id or status' },
		});
	}
	if (id.replace(/^0+(?=\d)/, '') !== askedId.replace(/^0+(?=\d)/, '')) {
		throw unexpected(ctx, `asked for task ${askedId}, the answer is about task ${id}`, {
			kind: 'created',
			taskId: askedId,
			retry: { reason: `an answer about task ${id}` },
		});
	}
	return { ...raw, id, status: raw.status, output: (raw.output as Task['output']) ?? null };
}

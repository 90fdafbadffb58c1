import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { bounded } from '../basics/redact';
import { fieldError } from '../basics/validation';
import { parseTaskIdField } from '../catalog/task';
import { DEFAULT_MAX_REQUESTS_PER_SECOND } from '../transport/throttle';

/**
 * What the user set for one item, read from the node's parameters once, when the item's request
 * cycle starts, and checked there: a value that cannot work names its field before anything is
 * sent or charged. From then on the engine reads this value, never the parameters.
 */
export interface ItemSettings {
	/** Off: a create's item is the new task, and nothing waits for it. */
	waitForCompletion: boolean;
	/** How a create waits for its task: checked only when it waits. */
	wait: WaitSettings;
	download: DownloadSettings;
	/** Photos uploaded from files stay in the bucket once the task has ended. */
	keepUploads: boolean;
	maxRequestsPerSecond: number;
	/** 0: no limit. */
	creditLimit: number;
	/** Check and show every item's request; send nothing. */
	preview: boolean;
	/** Get Result: the task to read, exactly as given. */
	taskId?: string;
}

/** The spec asks for a poll every 3 to 5 seconds. */
export const DEFAULT_POLL_INTERVAL_SECONDS = 4;
export const POLL_INTERVAL = { min: 3, max: 5, default: DEFAULT_POLL_INTERVAL_SECONDS };
export const DEFAULT_TIMEOUT_SECONDS = 600;

export interface WaitSettings {
	/** Seconds between status checks, as given (the poller keeps it within the spec's 3–5 s). */
	pollInterval: number;
	/** Seconds to wait for the task. */
	timeout: number;
	/** 'fail' (default): the item fails with the task id; 'returnLastStatus': emit the last status. */
	onTimeout: 'fail' | 'returnLastStatus';
}

export interface DownloadSettings {
	/** Attach the finished task's files to the item. */
	result: boolean;
	/** The binary property of the first file; the next ones are `<property>_1`, `<property>_2`, … */
	property: string;
}

export type Operation = 'create' | 'read';

/** A number option, or its fallback when left empty; anything else but a number in range is a field error. */
function numberOption(
	ctx: IExecuteSingleFunctions,
	field: string,
	value: unknown,
	rule: { fallback: number; zeroAllowed: boolean; expected: string; advice: string },
): number {
	if (value === undefined || value === null || value === '') return rule.fallback;
	const number =
		typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
	if (!Number.isFinite(number) || number < 0 || (number === 0 && !rule.zeroAllowed)) {
		const given = bounded(typeof value === 'string' ? JSON.stringify(value) : String(value), 60);
		throw fieldError(ctx, field, `must be ${rule.expected} (got ${given})`, rule.advice);
	}
	return number;
}

const ABOVE_ZERO = 'An expression here must give a number above 0. Nothing was sent or charged.';

/**
 * A binary field named `__proto__` would not be a field at all: assigning it replaces the item's
 * prototype, and the paid result would vanish without an error.
 */
function downloadSettings(ctx: IExecuteSingleFunctions, options: IDataObject): DownloadSettings {
	const result = options.downloadResult === true;
	const property = String(options.binaryPropertyName || 'data');
	if (result && property === '__proto__') {
		throw fieldError(
			ctx,
			'Put Result in Field',
			'cannot be "__proto__"',
			'Choose another name, such as data. Nothing was sent or charged.',
		);
	}
	return { result, property };
}

/** Checked when the item waits; otherwise a value that cannot be used gives way to the default. */
function waitSettings(ctx: IExecuteSingleFunctions, options: IDataObject, checked: boolean) {
	const seconds = (field: string, value: unknown, fallback: number) => {
		if (checked) {
			return numberOption(ctx, field, value, {
				fallback,
				zeroAllowed: false,
				expected: 'a positive number of seconds',
				advice: ABOVE_ZERO,
			});
		}
		const number = Number(value);
		return value !== '' && Number.isFinite(number) && number > 0 ? number : fallback;
	};
	return {
		timeout: seconds('Timeout (Seconds)', options.timeout, DEFAULT_TIMEOUT_SECONDS),
		pollInterval: seconds('Poll Interval (Seconds)', options.pollInterval, POLL_INTERVAL.default),
		onTimeout: options.onTimeout === 'returnLastStatus' ? 'returnLastStatus' : 'fail',
	} satisfies WaitSettings;
}

/** The item's settings, checked in the order the panel shows them, before anything is sent. */
export function readItemSettings(ctx: IExecuteSingleFunctions, operation: Operation): ItemSettings {
	const taskId =
		operation === 'read' ? parseTaskIdField(ctx, ctx.getNodeParameter('taskId', '')) : undefined;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const maxRequestsPerSecond = numberOption(
		ctx,
		'Max Requests per Second',
		options.maxRequestsPerSecond,
		{
			fallback: DEFAULT_MAX_REQUESTS_PER_SECOND,
			zeroAllowed: false,
			expected: 'a number above 0',
			advice: 'An expression here must give a positive number. Nothing was sent or charged.',
		},
	);
	const waitForCompletion =
		operation === 'create' && ctx.getNodeParameter('waitForCompletion', true) !== false;
	const download = downloadSettings(ctx, options);
	const wait = waitSettings(ctx, options, waitForCompletion);
	const creditLimit =
		operation === 'create'
			? numberOption(ctx, 'Credit Limit', options.creditLimit, {
					fallback: 0,
					zeroAllowed: true,
					expected: 'a number of credits, 0 or more',
					advice:
						'0 means no limit. An expression here must give a number. Nothing was sent or charged.',
				})
			: 0;
	return {
		waitForCompletion,
		wait,
		download,
		keepUploads: options.keepUploads === true,
		maxRequestsPerSecond,
		creditLimit,
		preview: options.preview === true,
		taskId,
	};
}

import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { fieldError, NOTHING_SENT } from '../core/validation';
import { photoLinkLimits, pollLimits, rateLimits } from '../core/limits';
import { IMAGE_SOURCE } from '../catalog/service';
import { parseTaskIdField } from '../catalog/task';

/** One item's settings, read and checked once before anything is sent; every step reads these. */
export interface ItemSettings {
	waitForCompletion: boolean;
	/** How a create waits for its task (read and checked whether or not it waits). */
	wait: WaitSettings;
	download: DownloadSettings;
	maxRequestsPerSecond: number;
	/** 0: no limit. */
	creditLimit: number;
	/** Check and show every item's request; send nothing. */
	preview: boolean;
	/** Get Result: the task to read, exactly as given. */
	taskId?: string;
	/** A create whose API takes a photo: a URL field, or files on the item. */
	photoSource: PhotoSource;
}

/** Whether several photo files go as one list (the Photo Enhancer's HDR brackets). */
export interface PhotoFileRule {
	several: boolean;
}

/** With files: the item's properties that hold them. */
type PhotoSource = { kind: 'url' } | { kind: 'binary'; properties: string[] };

interface WaitSettings {
	/** Seconds between status checks, as given (the poller keeps it within the spec's 3–5 s). */
	pollInterval: number;
	timeout: number;
	/** 'fail' (default): the item fails with the task id; 'returnLastStatus': emit the last status. */
	onTimeout: 'fail' | 'returnLastStatus';
}

interface DownloadSettings {
	result: boolean;
	/** The binary property of the first file; the next ones are `<property>_1`, `<property>_2`, … */
	property: string;
}

export type Operation = 'create' | 'read';

/**
 * A setting as an expression gave it: a value, or an item error before anything is sent (never
 * "off" or the default). The rule: docs/design/item-life.md#reading-settings
 */
type Reading<T> = { value: T } | { problem: string };

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** What a value that cannot be read was, in words, without echoing long text. */
function described(value: unknown): string {
	if (value === undefined) return 'nothing (an expression on a missing field?)';
	if (value === null) return 'null';
	if (typeof value === 'string') {
		if (value === '') return 'an empty text';
		if (value.trim() === '') return 'a blank text';
		return value.length <= 20 ? `the text ${JSON.stringify(value)}` : 'a text';
	}
	if (typeof value === 'number') return String(value);
	if (typeof value === 'boolean') return String(value);
	return Array.isArray(value) ? 'a list' : `a value of type ${typeof value}`;
}

/** A number of 0 or more: a number, or text of one in decimals. */
function readNumber(value: unknown): Reading<number> {
	let number: number | undefined;
	if (typeof value === 'number') number = value;
	else if (typeof value === 'string' && DECIMAL.test(value.trim())) number = Number(value.trim());
	if (number === undefined || !Number.isFinite(number) || number < 0) {
		return { problem: described(value) };
	}
	return { value: number };
}

const SWITCH_TEXT: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/** On or off: `true`/`false`, `1`/`0`, or either as text. */
function readSwitch(value: unknown): Reading<boolean> {
	if (typeof value === 'boolean') return { value };
	if (value === 1 || value === 0) return { value: value === 1 };
	if (typeof value === 'string') {
		const text = value.trim().toLowerCase();
		if (Object.hasOwn(SWITCH_TEXT, text)) return { value: SWITCH_TEXT[text] };
	}
	return { problem: described(value) };
}

function readChoice<T extends string>(value: unknown, choices: readonly T[]): Reading<T> {
	return typeof value === 'string' && (choices as readonly string[]).includes(value)
		? { value: value as T }
		: { problem: described(value) };
}

interface NumberRule {
	fallback: number;
	/** 0 is a value of its own ("no limit"); otherwise the number must be above 0. */
	zeroAllowed: boolean;
	expected: string;
	advice: string;
}

/** Whether the user set it: n8n saves only what differs from a field's default. */
function isSet(ctx: IExecuteSingleFunctions, path: string[]): boolean {
	let level: unknown = ctx.getNode().parameters;
	for (const name of path) {
		if (typeof level !== 'object' || level === null || !Object.hasOwn(level, name)) return false;
		level = (level as IDataObject)[name];
	}
	return true;
}

/** The settings of one item, read by one rule (see `Reading`); every refusal names its field. */
class SettingsReader {
	private readonly options: IDataObject;

	constructor(private readonly ctx: IExecuteSingleFunctions) {
		const options = ctx.getNodeParameter('options', {});
		this.options = typeof options === 'object' && options !== null ? (options as IDataObject) : {};
	}

	private refuse(field: string, expected: string, problem: string, advice: string): never {
		throw fieldError(this.ctx, field, `must be ${expected} (got ${problem})`, advice);
	}

	refuseField(field: string, problem: string, advice: string): never {
		throw fieldError(this.ctx, field, problem, advice);
	}

	/** Undefined when never set; an expression for the whole collection sets what it gives. */
	private option(name: string): { value: unknown } | undefined {
		const set =
			isSet(this.ctx, ['options', name]) ||
			(typeof this.ctx.getNode().parameters.options === 'string' &&
				Object.hasOwn(this.options, name));
		return set ? { value: this.options[name] } : undefined;
	}

	number(name: string, field: string, rule: NumberRule): number {
		const given = this.option(name);
		if (!given) return rule.fallback;
		const reading = readNumber(given.value);
		if ('problem' in reading)
			return this.refuse(field, rule.expected, reading.problem, rule.advice);
		if (reading.value === 0 && !rule.zeroAllowed) {
			return this.refuse(field, rule.expected, '0', rule.advice);
		}
		return reading.value;
	}

	optionSwitch(name: string, field: string, fallback = false): boolean {
		const given = this.option(name);
		return given ? this.switchValue(field, given.value) : fallback;
	}

	parameterSwitch(name: string, field: string, fallback: boolean): boolean {
		if (!isSet(this.ctx, [name])) return fallback;
		return this.switchValue(field, this.ctx.getNodeParameter(name, fallback));
	}

	private switchValue(field: string, value: unknown): boolean {
		const reading = readSwitch(value);
		if ('problem' in reading) {
			return this.refuse(
				field,
				'on or off (true or false)',
				reading.problem,
				`An expression here must give true or false (1 or 0 also do). ${NOTHING_SENT}`,
			);
		}
		return reading.value;
	}

	choice<T extends string>(name: string, field: string, choices: readonly T[], fallback: T): T {
		const given = this.option(name);
		return given ? this.choiceValue(field, given.value, choices) : fallback;
	}

	parameterChoice<T extends string>(
		name: string,
		field: string,
		choices: readonly T[],
		fallback: T,
	): T {
		return this.choiceValue(field, this.ctx.getNodeParameter(name, fallback), choices);
	}

	private choiceValue<T extends string>(field: string, value: unknown, choices: readonly T[]): T {
		const reading = readChoice(value, choices);
		if ('problem' in reading) {
			return this.refuse(
				field,
				`one of ${choices.join(', ')}`,
				reading.problem,
				`Choose a value from the list. ${NOTHING_SENT}`,
			);
		}
		return reading.value;
	}

	text(name: string, fallback: string): string {
		const value = this.options[name];
		return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
	}

	parameter(name: string, fallback: unknown): unknown {
		return this.ctx.getNodeParameter(name, fallback);
	}
}

const ABOVE_ZERO = `An expression here must give a number above 0. ${NOTHING_SENT}`;
const SECONDS = {
	zeroAllowed: false,
	expected: 'a positive number of seconds',
	advice: ABOVE_ZERO,
};

/** The item's own parameters as an API's rules read them, through this one reader. */
export interface ItemParameters {
	/** A text parameter, trimmed; the fallback when it is not text. */
	text(name: string, fallback: string): string;
	/** A parameter that must be one of `values`; anything else is an item error naming `field`. */
	choice<T extends string>(name: string, field: string, values: readonly T[], fallback: T): T;
	/** A parameter as n8n evaluated it, for a rule that checks its shape itself (JSON). */
	value(name: string, fallback: unknown): unknown;
}

export function itemParameters(ctx: IExecuteSingleFunctions): ItemParameters {
	const read = new SettingsReader(ctx);
	return {
		text: (name, fallback) => {
			const value = read.parameter(name, fallback);
			return typeof value === 'string' ? value.trim() : fallback;
		},
		choice: (name, field, values, fallback) => read.parameterChoice(name, field, values, fallback),
		value: (name, fallback) => read.parameter(name, fallback),
	};
}

/** A binary field `__proto__` would replace the item's prototype: the paid result would vanish. */
function downloadSettings(ctx: IExecuteSingleFunctions, read: SettingsReader): DownloadSettings {
	const result = read.optionSwitch('downloadResult', 'Download Result');
	const property = read.text('binaryPropertyName', 'data');
	if (result && property === '__proto__') {
		throw fieldError(
			ctx,
			'Put Output File in Field',
			'cannot be "__proto__"',
			`Choose another name, such as data. ${NOTHING_SENT}`,
		);
	}
	return { result, property };
}

function waitSettings(read: SettingsReader): WaitSettings {
	return {
		timeout: read.number('timeout', 'Timeout (Seconds)', {
			...SECONDS,
			fallback: pollLimits.defaultTimeoutSeconds,
		}),
		pollInterval: read.number('pollInterval', 'Poll Interval (Seconds)', {
			...SECONDS,
			fallback: pollLimits.intervalSeconds.default,
		}),
		onTimeout: read.choice('onTimeout', 'On Timeout', ON_TIMEOUT, 'fail'),
	};
}

const ON_TIMEOUT = ['fail', 'returnLastStatus'] as const;

/** A create reads every option, waiting or not: a bad Timeout shows now, not once it waits. */
export function readItemSettings(
	ctx: IExecuteSingleFunctions,
	operation: Operation,
	photoFiles?: PhotoFileRule,
): ItemSettings {
	const read = new SettingsReader(ctx);
	const preview = read.optionSwitch('preview', 'Preview (Send Nothing)');
	const taskId =
		operation === 'read' ? parseTaskIdField(ctx, read.parameter('taskId', '')) : undefined;
	const maxRequestsPerSecond = read.number('maxRequestsPerSecond', 'Max Requests per Second', {
		fallback: rateLimits.defaultPerSecond,
		zeroAllowed: false,
		expected: 'a number above 0',
		advice: ABOVE_ZERO,
	});
	const download = downloadSettings(ctx, read);
	if (operation === 'read') {
		return {
			waitForCompletion: false,
			wait: {
				timeout: pollLimits.defaultTimeoutSeconds,
				pollInterval: pollLimits.intervalSeconds.default,
				onTimeout: 'fail',
			},
			download,
			maxRequestsPerSecond,
			creditLimit: 0,
			preview,
			taskId,
			photoSource: { kind: 'url' },
		};
	}
	const photoSource = photoFiles ? readPhotoSource(read, photoFiles) : { kind: 'url' as const };
	const wait = waitSettings(read);
	if (photoSource.kind === 'binary') timeoutWithinLink(read, wait.timeout);
	return {
		waitForCompletion: read.parameterSwitch('waitForCompletion', 'Wait for Completion', true),
		wait,
		download,
		maxRequestsPerSecond,
		creditLimit: read.number('creditLimit', 'Credit Limit', {
			fallback: 0,
			zeroAllowed: true,
			expected: 'a number of credits, 0 or more',
			advice: `0 means no limit. An expression here must give a number. ${NOTHING_SENT}`,
		}),
		preview,
		taskId,
		photoSource,
	};
}

/** A photo file's link lasts the wait plus a hold: a Timeout may not outlive the longest link. */
function timeoutWithinLink(read: SettingsReader, timeout: number): void {
	const { marginSeconds, holdSeconds, maxSeconds } = photoLinkLimits;
	const longest = maxSeconds - holdSeconds - marginSeconds;
	if (timeout <= longest) return;
	read.refuseField(
		'Timeout (Seconds)',
		`is ${timeout} s, longer than the link to a photo file can last (at most ${longest} s)`,
		`Set 'Timeout (Seconds)' to at most ${longest} s (${Math.floor(longest / 86400)} days), or give the photo as a URL. ${NOTHING_SENT}`,
	);
}

/** Image Source, and with Binary File the properties holding the photos, each named once. */
function readPhotoSource(read: SettingsReader, rule: PhotoFileRule): PhotoSource {
	if (read.parameter('imageSource', IMAGE_SOURCE.url) !== IMAGE_SOURCE.binary)
		return { kind: 'url' };
	const value = read.parameter('imageBinaryProperty', 'data');
	const properties = (typeof value === 'string' ? value : '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	const field = 'Input Binary Field';
	if (properties.length === 0) {
		read.refuseField(field, 'is empty', 'Name the binary field that holds the photo (e.g. data).');
	}
	if (properties.length > 1 && !rule.several) {
		read.refuseField(
			field,
			`names ${properties.length} properties, but this API takes one photo per task`,
			'Give one property name.',
		);
	}
	const repeated = properties.find((name, index) => properties.indexOf(name) !== index);
	if (repeated !== undefined) {
		read.refuseField(
			field,
			`names "${repeated}" more than once`,
			'Name each photo once: every name is a file of its own in the task (the brackets of an HDR merge are different photos).',
		);
	}
	return { kind: 'binary', properties };
}

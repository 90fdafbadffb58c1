// The settings that can change while the service runs (programmatically or via POST
// /__admin/config). Patches are validated strictly: a typo in a test's fault name should fail
// loudly rather than silently inject nothing.
import { FAULT_KINDS } from './faults.ts';
import type { FaultConfig } from './faults.ts';
import type { ProgressModel } from './queue.ts';
import { PROGRESS_MODELS } from './queue.ts';
import type { StyleShape } from './style-config.ts';
import { STYLE_SHAPES } from './style-config.ts';

export interface ServiceConfig {
	workers: number;
	taskDurationMs: number;
	taskDurationJitterMs: number;
	failureRate: number;
	/** A task whose image URL contains this text (case-insensitive) ends Failed; '' disables it. */
	failTrigger: string;
	bannedWords: string[];
	rejectPhrase: string;
	faults: FaultConfig;
	seed: number;
	imageFetchTimeoutMs: number;
	progressModel: ProgressModel;
	/**
	 * Approximate size of each result image: 0 serves a small gradient; more serves a picture of
	 * the task's output size whose top rows are noise, so the file does not compress (a 4K photo
	 * is several MB).
	 */
	resultBytes: number;
	/** How GET /api/v1/style/<key>/getStyles nests its groups (the catalog does not show it). */
	styleShape: StyleShape;
	/**
	 * Images in a House Plan result: 1 composite board (the 2026-06-12 page) or 3 distinct images
	 * (the 2026-03-06 page). Fixed for a task when it is created.
	 */
	housePlanResults: 1 | 3;
	/**
	 * Requests a second each API key may send (any one-second window, by the service's clock);
	 * beyond, HTTP 429 with Retry-After. 0, the default, is no limit: the spec shows none.
	 */
	rateLimit: number;
}

export const DEFAULT_CONFIG: Readonly<ServiceConfig> = {
	workers: 4,
	taskDurationMs: 8000,
	taskDurationJitterMs: 0,
	failureRate: 0,
	failTrigger: 'fail',
	bannedWords: ['nsfw', 'nude', '[banned]'],
	rejectPhrase: '[reject]',
	faults: {},
	seed: 20260417,
	imageFetchTimeoutMs: 10000,
	progressModel: 'linear',
	resultBytes: 0,
	styleShape: 'groupsAsKeys',
	housePlanResults: 1,
	rateLimit: 0,
};

export const CONFIG_KEYS = Object.keys(DEFAULT_CONFIG) as Array<keyof ServiceConfig>;

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberIn(name: string, value: unknown, min: number, max: number, integer = false): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
		throw new Error(`${name} must be a number from ${min} to ${max}`);
	}
	if (integer && !Number.isInteger(value)) throw new Error(`${name} must be an integer`);
	return value;
}

function stringList(name: string, value: unknown): string[] {
	if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
		throw new Error(`${name} must be an array of strings`);
	}
	return [...(value as string[])];
}

function text(name: string, value: unknown): string {
	if (typeof value !== 'string') throw new Error(`${name} must be a string`);
	return value;
}

const RATE_KEYS: ReadonlyArray<string> = [...FAULT_KINDS, 'latency'];

/** Merges a faults patch into the current faults; `null` clears them all. */
export function mergeFaults(current: FaultConfig, patch: unknown): FaultConfig {
	if (patch === null) return {};
	if (!isRecord(patch)) throw new Error('faults must be an object');
	const next: Record<string, unknown> = { ...current };
	for (const [key, value] of Object.entries(patch)) {
		if (value === null || value === undefined) {
			delete next[key];
		} else if (RATE_KEYS.includes(key)) {
			next[key] = numberIn(`faults.${key}`, value, 0, 1);
		} else if (key === 'latencyMs') {
			next[key] = numberIn('faults.latencyMs', value, 0, 600000);
		} else if (key === 'retryAfterSeconds') {
			next[key] = numberIn('faults.retryAfterSeconds', value, 0, 86400, true);
		} else if (key === 'serverErrorBody') {
			if (value !== 'envelope' && value !== 'html') {
				throw new Error("faults.serverErrorBody must be 'envelope' or 'html'");
			}
			next[key] = value;
		} else if (key === 'faultPhase') {
			if (value !== 'before' && value !== 'after' && value !== 'both') {
				throw new Error("faults.faultPhase must be 'before', 'after' or 'both'");
			}
			next[key] = value;
		} else if (key === 'endpoints') {
			next[key] = stringList('faults.endpoints', value);
		} else {
			throw new Error(
				`unknown fault setting "${key}" (known: ${[...RATE_KEYS, 'latencyMs', 'retryAfterSeconds', 'serverErrorBody', 'faultPhase', 'endpoints'].join(', ')})`,
			);
		}
	}
	return next as FaultConfig;
}

/**
 * Returns a new config with the patch applied. `ignore` names keys the caller handles itself
 * (accounts, port, ...). Throws an Error whose message names the offending field.
 */
export function applyConfigPatch(
	current: ServiceConfig,
	patch: unknown,
	ignore: ReadonlyArray<string> = [],
): ServiceConfig {
	if (!isRecord(patch)) throw new Error('the config patch must be a JSON object');
	const next: ServiceConfig = { ...current, faults: { ...current.faults } };
	for (const [key, value] of Object.entries(patch)) {
		if (ignore.includes(key) || value === undefined) continue;
		switch (key) {
			case 'workers':
				next.workers = numberIn(key, value, 1, 1000, true);
				break;
			case 'taskDurationMs':
				next.taskDurationMs = numberIn(key, value, 0, 3600000);
				break;
			case 'taskDurationJitterMs':
				next.taskDurationJitterMs = numberIn(key, value, 0, 3600000);
				break;
			case 'failureRate':
				next.failureRate = numberIn(key, value, 0, 1);
				break;
			case 'failTrigger':
				next.failTrigger = text(key, value);
				break;
			case 'bannedWords':
				next.bannedWords = stringList(key, value);
				break;
			case 'rejectPhrase':
				next.rejectPhrase = text(key, value);
				break;
			case 'faults':
				next.faults = mergeFaults(current.faults, value);
				break;
			case 'seed':
				next.seed = numberIn(key, value, 0, 2 ** 32 - 1, true);
				break;
			case 'imageFetchTimeoutMs':
				next.imageFetchTimeoutMs = numberIn(key, value, 1, 600000);
				break;
			case 'progressModel':
				if (!PROGRESS_MODELS.includes(value as ProgressModel)) {
					throw new Error(`progressModel must be one of ${PROGRESS_MODELS.join(', ')}`);
				}
				next.progressModel = value as ProgressModel;
				break;
			case 'resultBytes':
				next.resultBytes = numberIn(key, value, 0, 100 * 2 ** 20, true);
				break;
			case 'styleShape':
				if (!STYLE_SHAPES.includes(value as StyleShape)) {
					throw new Error(`styleShape must be one of ${STYLE_SHAPES.join(', ')}`);
				}
				next.styleShape = value as StyleShape;
				break;
			case 'housePlanResults':
				if (value !== 1 && value !== 3) throw new Error('housePlanResults must be 1 or 3');
				next.housePlanResults = value;
				break;
			case 'rateLimit':
				next.rateLimit = numberIn(key, value, 0, 1_000_000, true);
				break;
			default:
				throw new Error(
					`unknown setting "${key}" (known: ${[...CONFIG_KEYS, ...ignore].join(', ')})`,
				);
		}
	}
	return next;
}

import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { limits } from '../../shared/core/limits';
import { editorRead } from '../../shared/transport/editor-read';

/**
 * Option lists loaded in the editor from Ideal House's API Style Config endpoint,
 * `GET /api/v1/style/<styleKey>/getStyles`. Its pages say the answer holds named groups of options
 * `{ name, id, url }`, with a multilingual `name`, but not how the JSON nests them, so the loader
 * looks for the group by its name at any depth: as a key (`data.roomType[]`) or as a named entry
 * of a list (`data[] = { group: 'roomType', options: [] }`). When it is not there the dropdown
 * shows which groups were found; the field still takes a typed ID.
 */

const PREFIX = 'styles__';

export function styleMethodName(styleKey: string, group: string): string {
	return `${PREFIX}${styleKey}__${group}`;
}

function parseMethodName(method: string): { styleKey: string; group: string } | undefined {
	const match = /^styles__(.+)__([^_].*)$/.exec(method);
	return match ? { styleKey: match[1], group: match[2] } : undefined;
}

const GROUP_NAME_KEYS = ['group', 'groupName', 'groupKey', 'key', 'code', 'type', 'name'];
const LIST_KEYS = ['options', 'styles', 'list', 'items', 'values', 'children', 'data'];

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The list of a group, whether the group is a key holding it or an entry naming itself. */
function listOf(value: unknown): unknown[] | undefined {
	if (Array.isArray(value)) return value;
	if (isObject(value)) {
		for (const key of LIST_KEYS) if (Array.isArray(value[key])) return value[key] as unknown[];
	}
	return undefined;
}

function sameName(a: unknown, b: string): boolean {
	return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** Finds the group's options, collecting the group names seen for the error when it is absent. */
export function findGroup(
	data: unknown,
	group: string,
	seen: Set<string>,
	depth = 0,
): unknown[] | undefined {
	if (depth > 4) return undefined;
	if (Array.isArray(data)) {
		for (const entry of data) {
			if (!isObject(entry)) continue;
			// Any of its name fields may hold the group's name: `{ type: 'multiple', name: 'elements' }`.
			const names = GROUP_NAME_KEYS.map((key) => entry[key]).filter(
				(name): name is string => typeof name === 'string',
			);
			const list = listOf(entry);
			if (names.length > 0 && list) {
				if (names.some((name) => sameName(name, group))) return list;
				names.forEach((name) => seen.add(name));
			}
		}
		for (const entry of data) {
			const found = findGroup(entry, group, seen, depth + 1);
			if (found) return found;
		}
		return undefined;
	}
	if (!isObject(data)) return undefined;
	for (const [key, value] of Object.entries(data)) {
		const list = listOf(value);
		if (list && !LIST_KEYS.includes(key)) seen.add(key);
		if (sameName(key, group) && list) return list;
	}
	for (const value of Object.values(data)) {
		const found = findGroup(value, group, seen, depth + 1);
		if (found) return found;
	}
	return undefined;
}

/** The English name of a multilingual `name` (`{ en: … }`, `[{ lang, value }]`), or the only one. */
export function displayName(name: unknown): string | undefined {
	if (typeof name === 'string') return name.trim() || undefined;
	if (Array.isArray(name)) {
		const english = name.find(
			(entry) => isObject(entry) && /^en/i.test(String(entry.lang ?? entry.language ?? '')),
		) as IDataObject | undefined;
		const chosen = english ?? (name.find(isObject) as IDataObject | undefined);
		return chosen ? displayName(chosen.value ?? chosen.text ?? chosen.name) : undefined;
	}
	if (isObject(name)) {
		const englishKey = Object.keys(name).find((key) => /^en([-_]|$)/i.test(key));
		const chosen = englishKey
			? name[englishKey]
			: Object.values(name).find((value) => typeof value === 'string');
		return displayName(chosen);
	}
	return undefined;
}

/** More than a dropdown can show usefully; an answer longer than this is cut, not rendered whole. */
const MAX_STYLE_OPTIONS = 500;
const MAX_STYLE_NAME = 80;

function shortened(name: string): string {
	return name.length > MAX_STYLE_NAME ? `${name.slice(0, MAX_STYLE_NAME - 1)}…` : name;
}

/**
 * A group's entries as dropdown options: each id once (the first entry wins), entries without an
 * id dropped, names cut to a readable length, at most `MAX_STYLE_OPTIONS` of them. A preview
 * image's address is left out: the editor shows it as text nobody can open.
 */
function toOptions(list: unknown[]): INodePropertyOptions[] {
	const options: INodePropertyOptions[] = [];
	const seen = new Set<string>();
	for (const entry of list) {
		if (options.length >= MAX_STYLE_OPTIONS) break;
		if (!isObject(entry)) continue;
		const raw = entry.id ?? entry.value;
		if (typeof raw !== 'string' && typeof raw !== 'number') continue;
		const id = String(raw).trim();
		if (id === '' || seen.has(id)) continue;
		seen.add(id);
		const name = displayName(entry.name ?? entry.label ?? entry.title) ?? id;
		options.push({ name: shortened(name), value: id });
	}
	return options;
}

async function fetchStyles(ctx: ILoadOptionsFunctions, styleKey: string): Promise<unknown> {
	return await editorRead(
		ctx,
		`/api/v1/style/${encodeURIComponent(styleKey)}/getStyles`,
		`the ${styleKey} options`,
		limits.editorReadTimeoutMs,
	);
}

async function loadStyleGroup(
	ctx: ILoadOptionsFunctions,
	styleKey: string,
	group: string,
): Promise<INodePropertyOptions[]> {
	const data = await fetchStyles(ctx, styleKey);
	const seen = new Set<string>();
	const list = findGroup(data, group, seen);
	if (!list) {
		throw new NodeOperationError(
			ctx.getNode(),
			`No group "${group}" in the ${styleKey} options (found: ${[...seen].slice(0, 12).join(', ') || 'none'})`,
			{
				description:
					'The service answered in a shape this node does not know. Type the ID using an expression instead.',
			},
		);
	}
	const options = toOptions(list);
	if (options.length === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The "${group}" group of the ${styleKey} options has no entry with an ID (${list.length} entr${list.length === 1 ? 'y' : 'ies'} in the answer)`,
			{
				description:
					'The service sent no option this node can offer. Type the ID using an expression instead, or try again later.',
			},
		);
	}
	return options;
}

/**
 * A single-choice list starts with an entry that sends nothing, so that the field's empty default
 * is a value of its list (n8n flags a value its list does not have) and the service chooses.
 */
const SERVICE_DEFAULT: INodePropertyOptions = {
	name: 'Service Default',
	value: '',
	description: 'Send no ID: the service chooses',
};

/** One loader per (style key, group) the node's fields name, built from those fields. */
export function styleLoaders(
	properties: INodeProperties[],
): Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>> {
	const loaders: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>> =
		{};
	for (const property of properties) {
		const method = property.typeOptions?.loadOptionsMethod;
		const parsed = typeof method === 'string' ? parseMethodName(method) : undefined;
		if (!method || !parsed || loaders[method]) continue;
		const single = property.type === 'options';
		loaders[method] = async function (this: ILoadOptionsFunctions) {
			const options = await loadStyleGroup(this, parsed.styleKey, parsed.group);
			return single ? [SERVICE_DEFAULT, ...options] : options;
		};
	}
	return loaders;
}

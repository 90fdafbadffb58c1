// GET /api/v1/style/<styleKey>/getStyles: the option lists behind the style fields of five APIs
// (docs/ideal-house-api.md#style-config). The pages show each option's fields (name, id, url) but not how the groups
// are nested in `data`, so the service can answer in either of two plausible shapes.
import { createHash } from 'node:crypto';
import { CODE, ServiceError } from './envelope.ts';
import { gradientPng } from './png.ts';
import type { OptionNames } from './style-options.ts';
import { STYLE_OPTIONS } from './style-options.ts';

/**
 * 'groupsAsKeys': data = { roomType: [option, ...], ... };
 * 'namedGroupList': data = [ { group: 'roomType', options: [option, ...] }, ... ].
 */
export type StyleShape = 'groupsAsKeys' | 'namedGroupList';

export const STYLE_SHAPES: ReadonlyArray<StyleShape> = ['groupsAsKeys', 'namedGroupList'];

export const STYLE_KEYS: readonly string[] = Object.keys(STYLE_OPTIONS);

export interface StyleOption {
	/** Display name per language. */
	name: { en: string; zh: string };
	/** The value to send in the request field. */
	id: string;
	/** A preview image served by this service. */
	url: string;
}

const PREVIEW_SIZE = { width: 160, height: 120 };

/**
 * Opaque 24-hex ids, derived from key, group and name so they stay the same from run to run, and
 * differ between keys: a client that sends a change_furniture id to interiorRemodel is told so.
 */
function optionId(styleKey: string, group: string, names: OptionNames): string {
	return createHash('sha256').update(`${styleKey}/${group}/${names[0]}`).digest('hex').slice(0, 24);
}

interface IndexedOption {
	styleKey: string;
	group: string;
	names: OptionNames;
	id: string;
}

const OPTIONS: readonly IndexedOption[] = Object.entries(STYLE_OPTIONS).flatMap(
	([styleKey, groups]) =>
		Object.entries(groups).flatMap(([group, list]) =>
			list.map((names) => ({ styleKey, group, names, id: optionId(styleKey, group, names) })),
		),
);

const BY_ID = new Map(OPTIONS.map((option) => [option.id, option]));

const previews = new Map<string, Buffer>();

export function isStyleKey(styleKey: string): boolean {
	return Object.hasOwn(STYLE_OPTIONS, styleKey);
}

export function isOptionOf(styleKey: string, group: string, id: string): boolean {
	const option = BY_ID.get(id);
	return option !== undefined && option.styleKey === styleKey && option.group === group;
}

function toOption(option: IndexedOption, publicUrl: string): StyleOption {
	return {
		name: { en: option.names[0], zh: option.names[1] },
		id: option.id,
		url: `${publicUrl}/styles/${option.id}.png`,
	};
}

/** The `data` of a getStyles answer; an unknown key is a 1011. */
export function styleConfigData(styleKey: string, shape: StyleShape, publicUrl: string): unknown {
	if (!isStyleKey(styleKey)) {
		throw new ServiceError(
			CODE.PARAM_ERROR,
			`styleKey "${styleKey}" is not a known style key (known: ${STYLE_KEYS.join(', ')})`,
		);
	}
	const groups = Object.keys(STYLE_OPTIONS[styleKey]).map((group) => ({
		group,
		options: OPTIONS.filter((option) => option.styleKey === styleKey && option.group === group).map(
			(option) => toOption(option, publicUrl),
		),
	}));
	return shape === 'namedGroupList'
		? groups
		: Object.fromEntries(groups.map(({ group, options }) => [group, options]));
}

/** The preview PNG of an option, or undefined for an id the service never handed out. */
export function previewImage(id: string): Buffer | undefined {
	if (!BY_ID.has(id)) return undefined;
	let png = previews.get(id);
	if (!png) {
		// Colours taken from the id, so neighbouring options do not all look the same.
		const bytes = Buffer.from(id, 'hex');
		png = gradientPng(
			PREVIEW_SIZE.width,
			PREVIEW_SIZE.height,
			[bytes[0], bytes[1], bytes[2]],
			[bytes[3], bytes[4], bytes[5]],
		);
		previews.set(id, png);
	}
	return png;
}

import { PRESETS, PRESET_IDS, type Preset } from './presets';

/**
 * Finds the preset a user or a model means. An exact id always wins and is never reinterpreted.
 * Otherwise the text is compared, ignoring case, spacing and punctuation, with each preset's id,
 * its full name ("Sky Replacement: Sunset Sky") and its short name ("Sunset Sky"). A match must
 * be unique: a short name shared by two categories is ambiguous, and nothing is guessed.
 */
type PresetLookup =
	| { found: true; id: string }
	| { found: false; reason: 'ambiguous' | 'unknown'; candidates: Preset[] };

/** "Lighting, Color & Exposure: Warm  Tones" → "lighting color and exposure warm tones". */
function normalize(text: string): string {
	return text
		.toLowerCase()
		.replace(/&/g, ' and ')
		.replace(/[^a-z0-9]+/g, ' ')
		.trim();
}

function shortName(preset: Preset): string {
	const colon = preset.name.indexOf(': ');
	return colon === -1 ? preset.name : preset.name.slice(colon + 2);
}

interface Keys {
	preset: Preset;
	id: string;
	full: string;
	/** The name without its category, with and without a trailing "(…)" note. */
	short: string[];
	category: string;
}

const KEYS: Keys[] = PRESETS.map((preset) => {
	const short = shortName(preset);
	return {
		preset,
		id: normalize(preset.id),
		full: normalize(preset.name),
		short: [...new Set([normalize(short), normalize(short.replace(/\s*\([^)]*\)\s*$/, ''))])],
		category: normalize(preset.name.slice(0, preset.name.length - short.length)),
	};
});

const MAX_CANDIDATES = 5;

/**
 * Presets that share words with the text, for "close matches": a word of the preset's own name
 * counts twice a word of its category; ties go to the shorter name.
 */
function closeMatches(text: string): Preset[] {
	const words = [...new Set(text.split(' ').filter((word) => word.length > 2))];
	const score = (keys: Keys) => {
		const own = new Set(keys.short[0].split(' '));
		const category = new Set(keys.category.split(' '));
		return words.reduce((sum, word) => sum + (own.has(word) ? 2 : category.has(word) ? 1 : 0), 0);
	};
	return KEYS.map((keys) => ({ keys, score: score(keys) }))
		.filter((entry) => entry.score > 0)
		.sort((a, b) => b.score - a.score || a.keys.full.length - b.keys.full.length)
		.slice(0, MAX_CANDIDATES)
		.map((entry) => entry.keys.preset);
}

const LEVELS: Array<(keys: Keys, wanted: string) => boolean> = [
	(keys, wanted) => keys.id === wanted,
	(keys, wanted) => keys.full === wanted,
	(keys, wanted) => keys.short.includes(wanted),
];

export function lookUpPreset(input: string): PresetLookup {
	const text = input.trim();
	if (PRESET_IDS.has(text)) return { found: true, id: text };
	const wanted = normalize(text);
	if (wanted === '') return { found: false, reason: 'unknown', candidates: [] };

	for (const matchesAt of LEVELS) {
		const matches = KEYS.filter((keys) => matchesAt(keys, wanted));
		if (matches.length === 1) return { found: true, id: matches[0].preset.id };
		if (matches.length > 1) {
			return { found: false, reason: 'ambiguous', candidates: matches.map((keys) => keys.preset) };
		}
	}
	return { found: false, reason: 'unknown', candidates: closeMatches(wanted) };
}

/** "Sunset Sky (sky-replacement-sunset-sky)", as error messages list candidates. */
export function describePreset(preset: Preset): string {
	return `${preset.name} (${preset.id})`;
}

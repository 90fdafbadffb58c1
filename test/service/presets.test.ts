import {
	HDR_MERGE_PRESET_ID,
	isKnownPreset,
	PRESET_CATEGORIES,
	PRESET_IDS,
} from '../../service/presets.ts';

describe('preset table (typed from the spec)', () => {
	it('has the 137 documented ids, all distinct', () => {
		expect(PRESET_IDS).toHaveLength(137);
		expect(new Set(PRESET_IDS).size).toBe(137);
	});

	it('has the 11 categories with the spec counts (136 category presets)', () => {
		const counts = Object.fromEntries(
			Object.entries(PRESET_CATEGORIES).map(([category, slugs]) => [category, slugs.length]),
		);
		expect(counts).toEqual({
			'image-optimization': 7,
			'image-quality-correction': 12,
			'exterior-enhancement': 10,
			'interior-enhancement': 6,
			'lighting-color-exposure': 29,
			'sky-replacement': 13,
			'virtual-twilight': 7,
			'weather-seasonal-editing': 13,
			'holiday-decorations': 17,
			'fire-in-fireplace': 6,
			'object-element-specific': 16,
		});
	});

	it('writes every category preset as <category>-<slug>, plus hdr-merge-hdr-merge', () => {
		const categories = Object.keys(PRESET_CATEGORIES);
		for (const id of PRESET_IDS) {
			if (id === HDR_MERGE_PRESET_ID) continue;
			const category = categories.find((name) => id.startsWith(`${name}-`));
			expect(category).toBeDefined();
			const slug = id.slice((category as string).length + 1);
			expect(PRESET_CATEGORIES[category as string]).toContain(slug);
			expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
		}
		expect(PRESET_IDS.filter((id) => id === HDR_MERGE_PRESET_ID)).toHaveLength(1);
		expect(HDR_MERGE_PRESET_ID).toBe('hdr-merge-hdr-merge');
	});

	it('keeps slugs shared by two categories apart by their category prefix', () => {
		expect(isKnownPreset('image-optimization-real-estate-photo-editing')).toBe(true);
		expect(isKnownPreset('image-quality-correction-real-estate-photo-editing')).toBe(true);
		expect(isKnownPreset('lighting-color-exposure-exposure-balancing')).toBe(true);
		expect(isKnownPreset('real-estate-photo-editing')).toBe(false);
		expect(isKnownPreset('sky-replacement')).toBe(false);
		expect(isKnownPreset('Sky-replacement-sky-replacement')).toBe(false);
	});
});

import { describePreset, lookUpPreset } from '../nodes/PhotoEnhancer/presetLookup';
import { PRESETS } from '../nodes/PhotoEnhancer/presets';

describe('preset lookup: the id for a preset id or name', () => {
	test('every preset id maps to itself', () => {
		for (const preset of PRESETS)
			expect(lookUpPreset(preset.id)).toEqual({ found: true, id: preset.id });
	});

	test('every full name "Category: Name" maps to its id, whatever the case', () => {
		for (const preset of PRESETS) {
			expect(lookUpPreset(preset.name)).toEqual({ found: true, id: preset.id });
			expect(lookUpPreset(preset.name.toUpperCase())).toEqual({ found: true, id: preset.id });
		}
	});

	test.each([
		['Sunset Sky', 'sky-replacement-sunset-sky'],
		['sunset sky', 'sky-replacement-sunset-sky'],
		['  Sky Replacement: Sunset Sky ', 'sky-replacement-sunset-sky'],
		['sky replacement - sunset sky', 'sky-replacement-sunset-sky'],
		['SKY-REPLACEMENT-SUNSET-SKY', 'sky-replacement-sunset-sky'],
		['HDR Merge', 'hdr-merge-hdr-merge'],
		['Lawn & Yard', 'exterior-enhancement-lawn-yard'],
		['lawn and yard', 'exterior-enhancement-lawn-yard'],
		['Exterior Enhancement: Drone / Aerial', 'exterior-enhancement-drone-aerial'],
	])('"%s" → %s', (input, id) => {
		expect(lookUpPreset(input)).toEqual({ found: true, id });
	});

	test('a short name shared by two categories is ambiguous and lists both', () => {
		const lookup = lookUpPreset('real estate photo editing');
		expect(lookup).toEqual({
			found: false,
			reason: 'ambiguous',
			candidates: [
				{
					id: 'image-optimization-real-estate-photo-editing',
					name: 'Image Optimization: Real Estate Photo Editing',
				},
				{
					id: 'image-quality-correction-real-estate-photo-editing',
					name: 'Image Quality Correction: Real Estate Photo Editing',
				},
			],
		});
		// With its category it is unique.
		expect(lookUpPreset('Image Quality Correction: Real Estate Photo Editing')).toEqual({
			found: true,
			id: 'image-quality-correction-real-estate-photo-editing',
		});
	});

	test('an unknown name is refused, with the closest presets by shared words', () => {
		const lookup = lookUpPreset('purple sunset sky');
		expect(lookup.found).toBe(false);
		if (lookup.found) return;
		expect(lookup.reason).toBe('unknown');
		expect(lookup.candidates.length).toBeGreaterThan(0);
		expect(lookup.candidates.length).toBeLessThanOrEqual(5);
		expect(lookup.candidates[0].id).toBe('sky-replacement-sunset-sky');
	});

	test('text that shares no word with any preset is unknown with no candidates', () => {
		expect(lookUpPreset('zzz qqq')).toEqual({ found: false, reason: 'unknown', candidates: [] });
		expect(lookUpPreset('   ')).toEqual({ found: false, reason: 'unknown', candidates: [] });
	});

	test('a name never stands for another preset than its own, nor an id for another preset', () => {
		const shortName = (name: string) => name.slice(name.indexOf(': ') + 2);
		for (const preset of PRESETS) {
			for (const text of [preset.id, preset.name, preset.name.toLowerCase()]) {
				expect(lookUpPreset(text)).toEqual({ found: true, id: preset.id });
			}
			const byShortName = lookUpPreset(shortName(preset.name));
			if (byShortName.found) expect(byShortName.id).toBe(preset.id);
			else expect(byShortName.candidates.map((candidate) => candidate.id)).toContain(preset.id);
		}
	});

	test('candidates are listed with name and id', () => {
		expect(describePreset(PRESETS[0])).toBe(
			'HDR Merge: HDR Merge (Bracketed Exposures) (hdr-merge-hdr-merge)',
		);
	});
});

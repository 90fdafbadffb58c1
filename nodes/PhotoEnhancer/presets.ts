/**
 * The Photo Enhancer presets of the Ideal House API v1 as data: 11 categories of
 * `[slug, display name]`, whose full preset id is `<category>-<slug>`, plus HDR Merge, the one
 * preset designed for several images (bracketed exposures).
 */
interface PresetCategory {
	id: string;
	name: string;
	presets: Array<[slug: string, name: string]>;
}

export const PRESET_CATEGORIES: PresetCategory[] = [
	{
		id: 'image-optimization',
		name: 'Image Optimization',
		presets: [
			['full-correction-suite', 'Full Correction Suite'],
			['real-estate-photo-editing', 'Real Estate Photo Editing'],
			['mls-photo-enhancement', 'MLS Photo Enhancement'],
			['single-exposure-editing', 'Single Exposure Editing'],
			['social-media-photo-optimization', 'Social Media Photo Optimization'],
			['glare-and-reflection-reduction', 'Glare and Reflection Reduction'],
			['exposure-balancing', 'Exposure Balancing'],
		],
	},
	{
		id: 'image-quality-correction',
		name: 'Image Quality Correction',
		presets: [
			['360-vr-enhanced-tour', '360 VR Enhanced Tour'],
			['ai-photo-sharpening', 'AI Photo Sharpening'],
			['real-estate-photo-editing', 'Real Estate Photo Editing'],
			['compression-artifact-fix', 'Compression Artifact Fix'],
			['lens-distortion-correction', 'Lens Distortion Correction'],
			['image-upscaling', 'Image Upscaling'],
			['noise-reduction', 'Noise Reduction'],
			['perspective-correction', 'Perspective Correction'],
			['auto-crop-straighten', 'Auto Crop & Straighten'],
			['chromatic-aberration-fix', 'Chromatic Aberration Fix'],
			['vignette-removal', 'Vignette Removal'],
			['mls-photo-resize', 'MLS Photo Resize'],
		],
	},
	{
		id: 'exterior-enhancement',
		name: 'Exterior Enhancement',
		presets: [
			['drone-aerial', 'Drone / Aerial'],
			['driveway', 'Driveway'],
			['curb-appeal', 'Curb Appeal'],
			['exterior-color', 'Exterior Color'],
			['exterior-photo', 'Exterior Photo'],
			['lawn-yard', 'Lawn & Yard'],
			['pool', 'Pool'],
			['fence-gate', 'Fence & Gate'],
			['landscaping', 'Landscaping'],
			['roof', 'Roof'],
		],
	},
	{
		id: 'interior-enhancement',
		name: 'Interior Enhancement',
		presets: [
			['window-pull', 'Window Pull'],
			['occupied-to-vacant', 'Occupied to Vacant'],
			['enhance-hardwood-floors-photo', 'Enhance Hardwood Floors Photo'],
			['interior-photo', 'Interior Photo'],
			['flash-ambient-blending-real-estate', 'Flash & Ambient Blending Real Estate'],
			['ceiling-light-hot-spot-fix', 'Ceiling Light Hot Spot Fix'],
		],
	},
	{
		id: 'lighting-color-exposure',
		name: 'Lighting, Color & Exposure',
		presets: [
			['balance-highlight-shadow-real-estate', 'Balance Highlight & Shadow Real Estate'],
			['brighten-dark-interior-photo', 'Brighten Dark Interior Photo'],
			['brighten-dark-real-estate-photo', 'Brighten Dark Real Estate Photo'],
			['brightness-enhancer', 'Brightness Enhancer'],
			['cozy-warm-interior-editing', 'Cozy Warm Interior Editing'],
			['enhance-brightness-of-photo', 'Enhance Brightness of Photo'],
			['enhance-natural-light-interior', 'Enhance Natural Light Interior'],
			['exposure-balancing', 'Exposure Balancing'],
			['mixed-lighting-fix', 'Mixed Lighting Fix'],
			['flat-photo-contrast-fix', 'Flat Photo Contrast Fix'],
			['fluorescent-light-color-fix', 'Fluorescent Light Color Fix'],
			['how-to-brighten-dark-photos', 'How to Brighten Dark Photos'],
			['contrast-enhancement', 'Contrast Enhancement'],
			['increase-brightness-listing-photo', 'Increase Brightness Listing Photo'],
			['interior-exposure-balancing', 'Interior Exposure Balancing'],
			['lift-dark-shadows-real-estate', 'Lift Dark Shadows Real Estate'],
			['overexposed-window-fix', 'Overexposed Window Fix'],
			['color-correction', 'Color Correction'],
			['highlight-recovery', 'Highlight Recovery'],
			['shadow-recovery', 'Shadow Recovery'],
			[
				'reduce-highlights-in-my-image-to-balance-exposure',
				'Reduce Highlights in My Image to Balance Exposure',
			],
			['color-cast-removal', 'Color Cast Removal'],
			['tungsten-daylight-mix-correction', 'Tungsten/Daylight Mix Correction'],
			['warm-tone-enhancement', 'Warm Tone Enhancement'],
			['cool-tone-enhancement', 'Cool Tone Enhancement'],
			['white-balance-fix-interior-photo', 'White Balance Fix Interior Photo'],
			['turn-on-lights', 'Turn on Lights'],
			['vibrance-saturation-boost', 'Vibrance & Saturation Boost'],
			['natural-light-enhancement', 'Natural Light Enhancement'],
		],
	},
	{
		id: 'sky-replacement',
		name: 'Sky Replacement',
		presets: [
			['blue-sky-clear-sky', 'Blue Sky (Clear Sky)'],
			['sunrise-sky', 'Sunrise Sky'],
			['cloudy-sky', 'Cloudy Sky'],
			['partly-cloudy', 'Partly Cloudy'],
			['dramatic-clouds', 'Dramatic Clouds'],
			['sunset-sky', 'Sunset Sky'],
			['soft-sunset', 'Soft Sunset'],
			['dramatic-sunset', 'Dramatic Sunset'],
			['luxury-sunset-tones', 'Luxury Sunset Tones'],
			['fix-gray-sky-real-estate', 'Fix Gray Sky Real Estate'],
			['golden-hour-sky', 'Golden Hour Sky'],
			['night-sky-starry-sky', 'Night Sky (Starry Sky)'],
			['sky-replacement', 'Sky Replacement'],
		],
	},
	{
		id: 'virtual-twilight',
		name: 'Virtual Twilight',
		presets: [
			['bright-marketing-twilight', 'Bright Marketing Twilight'],
			['day-to-dusk-photo-conversion', 'Day-to-Dusk Photo Conversion'],
			['deep-blue-twilight', 'Deep Blue Twilight'],
			['light-subtle-twilight', 'Light Subtle Twilight'],
			['luxury-twilight', 'Luxury Twilight'],
			['midnight-blue-twilight', 'Midnight Blue Twilight'],
			['warm-sunset-twilight', 'Warm Sunset Twilight'],
		],
	},
	{
		id: 'weather-seasonal-editing',
		name: 'Weather & Seasonal Editing',
		presets: [
			['golden-hour', 'Golden Hour'],
			['blue-hour', 'Blue Hour'],
			['haze-fog-removal', 'Haze & Fog Removal'],
			['harsh-sunlight-shadow-fix', 'Harsh Sunlight & Shadow Fix'],
			['overcast-to-sunny', 'Overcast to Sunny'],
			['rain-wet-weather-fix', 'Rain & Wet Weather Fix'],
			['spring-enhancement', 'Spring Enhancement'],
			['summer-enhancement', 'Summer Enhancement'],
			['night-to-day', 'Night to Day'],
			['fall-foliage', 'Fall Foliage'],
			['snow-winter-conditions', 'Snow & Winter Conditions'],
			['full-season-change-season-swap', 'Full Season Change (Season Swap)'],
			['snow-removal', 'Snow Removal'],
		],
	},
	{
		id: 'holiday-decorations',
		name: 'Holiday Decorations',
		presets: [
			['christmas-exterior', 'Christmas Exterior'],
			['christmas-interior', 'Christmas Interior'],
			['easter-exterior', 'Easter Exterior'],
			['easter-interior', 'Easter Interior'],
			['halloween-exterior', 'Halloween Exterior'],
			['halloween-interior', 'Halloween Interior'],
			['new-year-exterior', 'New Year Exterior'],
			['new-year-interior', 'New Year Interior'],
			['thanksgiving-dining-room', 'Thanksgiving Dining Room'],
			['thanksgiving-exterior', 'Thanksgiving Exterior'],
			['thanksgiving-interior', 'Thanksgiving Interior'],
			['fourth-of-july-independence-day', 'Fourth of July (Independence Day)'],
			['hanukkah-interior', 'Hanukkah Interior'],
			['spring-ramadan-decorations', 'Spring / Ramadan Decorations'],
			['valentine-s-day-bedroom', "Valentine's Day Bedroom"],
			['valentine-s-day-exterior', "Valentine's Day Exterior"],
			['valentine-s-day-interior', "Valentine's Day Interior"],
		],
	},
	{
		id: 'fire-in-fireplace',
		name: 'Fire in Fireplace',
		presets: [
			['add-fire-to-fireplace', 'Add Fire to Fireplace'],
			['bright-marketing-fire', 'Bright Marketing Fire'],
			['modern-clean-fire', 'Modern Clean Fire'],
			['subtle-natural-fire', 'Subtle Natural Fire'],
			['traditional-cozy-fire', 'Traditional Cozy Fire'],
			['vibrant-showcase-fire', 'Vibrant Showcase Fire'],
		],
	},
	{
		id: 'object-element-specific',
		name: 'Object & Element',
		presets: [
			['crack-wall-repair', 'Cracked Wall Repair'],
			['floor-reflection-real-estate', 'Floor Reflection Real Estate'],
			['people-pet-removal', 'People & Pet Removal'],
			['trash-can-removal', 'Trash-Can Removal'],
			['remove-cars', 'Remove Cars'],
			['clutter-removal', 'Clutter Removal'],
			['date-stamp-removal', 'Date-Stamp Removal'],
			['sign-removal', 'Sign Removal'],
			['glare-removal', 'Glare Removal'],
			['mirror-reflection-fix', 'Mirror Reflection Fix'],
			['remove-power-lines', 'Remove Power Lines'],
			['stain-removal', 'Stain Removal'],
			['watermark-removal', 'Watermark Removal'],
			['window-reflection-removal', 'Window Reflection Removal'],
			['tv-screen-fix', 'TV Screen Fix'],
			['wire-cable-removal', 'Wire & Cable Removal'],
		],
	},
];

export const HDR_MERGE_PRESET_ID = 'hdr-merge-hdr-merge';

export interface Preset {
	id: string;
	name: string;
}

/** Every preset, HDR Merge first, then by category as the service documents them. */
export const PRESETS: Preset[] = [
	{ id: HDR_MERGE_PRESET_ID, name: 'HDR Merge: HDR Merge (Bracketed Exposures)' },
	...PRESET_CATEGORIES.flatMap((category) =>
		category.presets.map(([slug, name]) => ({
			id: `${category.id}-${slug}`,
			name: `${category.name}: ${name}`,
		})),
	),
];

export const PRESET_IDS: ReadonlySet<string> = new Set(PRESETS.map((preset) => preset.id));

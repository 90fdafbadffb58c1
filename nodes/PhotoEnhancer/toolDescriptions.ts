import { APIS } from '../shared/catalog/apis';
import { priceText } from '../shared/catalog/credits';
import { PRESET_CATEGORIES } from './presets';

/** Every preset name by category, so a model can pick one by name without a further lookup. */
const PRESET_NAMES = PRESET_CATEGORIES.map(
	(category) => `${category.name}: ${category.presets.map(([, name]) => name).join(', ')}.`,
).join(' ');

/** What a model is told of Enhance; the node adds what the Credit Limit means for its calls. */
export const ENHANCE_TOOL_DESCRIPTION = [
	'Enhances a real-estate photo with Ideal House AI and returns the finished image.',
	'Inputs: the public URL of the photo (JPG, PNG or WebP); a preset, a prompt, or both.',
	'The preset may be given by name ("Sunset Sky", or "Sky Replacement: Sunset Sky" when the name is in several categories) or by ID (sky-replacement-sunset-sky); "HDR Merge" is for several bracketed exposures.',
	'The prompt says in plain words what to change; it is reviewed, and a prompt that fails review must be rephrased.',
	`Cost: ${priceText(APIS.photoEnhancer)} by the API specification, refunded if the task fails; Ideal House's public price page lists 20 credits for 4K results (the default size), so the account statement may show 20. Duration: usually under a minute; the tool waits for the result.`,
	'Returns JSON {id, status, resultUrl, width, height, creditsCharged}; give the user the resultUrl exactly as returned.',
	`Presets by category. ${PRESET_NAMES}`,
].join(' ');

export const PHOTO_RESULT_TOOL_DESCRIPTION =
	'Reads the current status and result of an Ideal House photo enhancement task by its ID (the "id" an earlier call returned; keep it as text). Free. Returns JSON {id, status, resultUrl, width, height, creditsCharged}.';

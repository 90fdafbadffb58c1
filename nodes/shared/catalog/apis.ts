// The Ideal House APIs the package knows, one row each: paths, price, results, option lists.
// Prices and names follow the API specification and Ideal House's public API pages.

/** What an API's price depends on. */
type PriceRule =
	| { flat: number }
	/** By `modelType`; `defaultModelType` is the service's own when none is sent, where its page says. */
	| { byModelType: Readonly<Record<string, number>>; defaultModelType?: string }
	/** Not published (an API called through `custom`). */
	| { unknown: true };

export interface ImageSize {
	width: number;
	height: number;
}

/** What a result download must be, checked by its bytes. */
export type ResultFiles = 'image' | 'model3d' | 'any';

export interface IdealHouseApi {
	/** The name in the API's paths: `/api/v1/<name>/generate` and `/api/v1/<name>/result`. */
	name: string;
	label: string;
	price: PriceRule;
	results: ResultFiles;
	/** The key of its option lists at `/api/v1/style/<styleKey>/getStyles`, where it has them. */
	styleKey?: string;
	/** What to check when one of its tasks ends Failed; a general text where not given. */
	failureAdvice?: string;
	/** The smallest input image its spec gives: a smaller photo file is refused before upload. */
	minImageSize?: ImageSize;
}

const api = (
	name: string,
	label: string,
	price: PriceRule,
	more: Partial<
		Pick<IdealHouseApi, 'results' | 'styleKey' | 'failureAdvice' | 'minImageSize'>
	> = {},
): IdealHouseApi => ({ name, label, price, results: 'image', ...more });

const PHOTO_ADVICE =
	'The service could not process this image. Check that it is a JPG, PNG or WebP of at most 20 MB and 128–6,000 px that the service can download, then try again or with another preset, prompt or mask.';
const AI3D_ADVICE =
	'The service could not make a 3D model of this input. Check that the image URL leads to a JPG, PNG or WebP the service can download, or describe the object more plainly in the prompt, then try again.';
const FLASH_BASE_PRO = { Flash: 1, Base: 3, Pro: 10 };
const BASE_PRO = { Base: 3, Pro: 10 };

export const APIS = {
	photoEnhancer: api(
		'photoEnhancer',
		'Photo Enhancer',
		{ flat: 10 },
		// From 128 × 128 px; larger than 6,000 px is scaled down by the service, so not refused.
		{ failureAdvice: PHOTO_ADVICE, minImageSize: { width: 128, height: 128 } },
	),
	objectRemover: api(
		'objectRemover',
		'Object Remover',
		{ flat: 1 },
		{ failureAdvice: PHOTO_ADVICE },
	),
	virtualStaging: api('virtualStaging', 'Virtual Staging', { flat: 1 }),
	exteriorRenovator: api('exteriorRenovator', 'Exterior Renovator', { flat: 1 }),
	landscaping: api(
		'landscaping',
		'Landscaping',
		{ byModelType: FLASH_BASE_PRO, defaultModelType: 'Base' },
		{ styleKey: 'landscaping' },
	),
	interiorRemodel: api(
		'interiorRemodel',
		'Interior Remodel',
		{ flat: 1 },
		// Spelt as Ideal House's page spells it.
		{ styleKey: 'interoir_remodel' },
	),
	changeFurniture: api(
		'changeFurniture',
		'Change Furniture',
		{ flat: 1 },
		{ styleKey: 'change_furniture' },
	),
	homeDecor: api(
		'homeDecor',
		'Home Decor',
		{ byModelType: BASE_PRO, defaultModelType: 'Base' },
		{ styleKey: 'home_decor_ideas' },
	),
	magicEditor: api('magicEditor', 'Magic Editor', {
		byModelType: FLASH_BASE_PRO,
		defaultModelType: 'Flash',
	}),
	planVisualizer: api(
		'planVisualizer',
		'Plan Visualizer',
		{ byModelType: BASE_PRO, defaultModelType: 'Base' },
		{ styleKey: 'ai_plan_visualizer' },
	),
	floorPlan: api('floorPlan', 'Floor Plan', { byModelType: { Base: 10, Pro: 20 } }),
	// Prices of Ideal House's 2026-06-12 page.
	housePlan: api('housePlan', 'House Plan', { byModelType: { Base: 10, Pro: 20 } }),
	ai3d: api('ai3d', 'AI 3D', { flat: 20 }, { results: 'model3d', failureAdvice: AI3D_ADVICE }),
	ai3dRendering: api('ai3dRendering', 'AI 3D Rendering', {
		byModelType: FLASH_BASE_PRO,
		defaultModelType: 'Flash',
	}),
	furnitureTryOn: api('furnitureTryOn', 'Furniture Try-On', { byModelType: BASE_PRO }),
	smartReplace: api('smartReplace', 'Smart Replace', { flat: 1 }),
} satisfies Record<string, IdealHouseApi>;

/** An API the package does not list, called by its path name: its price is not known. */
export function customApi(name: string): IdealHouseApi {
	return { name, label: name, price: { unknown: true }, results: 'any' };
}

export function createPath(api: IdealHouseApi): string {
	return `/api/v1/${api.name}/generate`;
}

export function resultPath(api: IdealHouseApi): string {
	return `/api/v1/${api.name}/result`;
}

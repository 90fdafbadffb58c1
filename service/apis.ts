// The rest of the Ideal House API, one row per API, typed out from docs/ideal-house-api.md (one
// section per API). The service reads its rules from here only, never from the nodes, so that a
// misreading on one side is caught by the other. Where the reference is silent the
// row holds the service's own pick, and service/README.md says which parts those are.

export type ModelType = 'Flash' | 'Base' | 'Pro';

export type Price =
	| { flat: number }
	| { byModelType: Partial<Record<ModelType, number>>; defaultModelType: ModelType };

/**
 * How a request field is checked; unknown fields are never checked, only echoed. `modelType` is
 * not listed: it is checked against the keys of the row's price.
 */
export type FieldRule =
	/** A URL that is downloaded and must be a JPEG, PNG or WebP (by its bytes). */
	| { type: 'image'; required?: boolean }
	/** Free text, screened for banned words (9010) and the reject phrase (9038). */
	| { type: 'prompt'; required?: boolean }
	| { type: 'text'; required?: boolean; oneOf?: readonly string[] }
	/** A string, or a whole number for clients that send counts as numbers. */
	| { type: 'textOrInteger'; required?: boolean }
	| { type: 'integer'; min?: number; max?: number }
	/** An option id from the API's style config; `multi` accepts several joined by commas. */
	| { type: 'styleOption'; group: string; multi?: boolean }
	| { type: 'objectList'; required?: boolean; min: number; max: number };

export type ResultKind =
	/** output {resultUrl, width, height}: one PNG. */
	| 'image'
	/** The same, plus output.resultList of PNG URLs (House Plan). */
	| 'imageWithList'
	/** output {resultUrl, width: null, height: null}: a binary glTF model. */
	| 'model3d';

export interface ApiRow {
	/** The API's name as in its path: /api/v1/<name>/generate. */
	name: CatalogApi;
	/** Its section of docs/ideal-house-api.md (the anchor), and the date of its page. */
	reference: string;
	price: Price;
	fields: Readonly<Record<string, FieldRule>>;
	/** At least one of these must be given (AI 3D: an image or a text description). */
	atLeastOneOf?: readonly string[];
	/** Model types for which `prompt` is required (Magic Editor: Base). */
	promptRequiredFor?: readonly ModelType[];
	/** Key of GET /api/v1/style/<styleKey>/getStyles, whose option ids the styleOption fields take. */
	styleKey?: string;
	result: ResultKind;
	/** Size of the result when the request has no `imageUrl` to take it from. */
	defaultSize?: { width: number; height: number };
	/** 'perAccount': one running task per API key, the rest queued in order (AI 3D: docs/ideal-house-api.md#limits). */
	queue: 'shared' | 'perAccount';
}

export const CATALOG_APIS = [
	'virtualStaging',
	'exteriorRenovator',
	'landscaping',
	'interiorRemodel',
	'changeFurniture',
	'homeDecor',
	'magicEditor',
	'planVisualizer',
	'floorPlan',
	'housePlan',
	'ai3d',
	'ai3dRendering',
	'furnitureTryOn',
	'smartReplace',
] as const;

export type CatalogApi = (typeof CATALOG_APIS)[number];

const FLASH_BASE_PRO = { Flash: 1, Base: 3, Pro: 10 } as const;
const BASE_PRO = { Base: 3, Pro: 10 } as const;
const BASE_PRO_PLANS = { Base: 10, Pro: 20 } as const;

const IMAGE = { type: 'image', required: true } as const;
const OPTIONAL_IMAGE = { type: 'image' } as const;
const PROMPT = { type: 'prompt' } as const;
const TEXT = { type: 'text' } as const;

export const VIRTUAL_STAGING_ROOM_TYPES = [
	'Interior Design_Interior Scene_Living Room',
	'Interior Design_Interior Scene_Dining Room',
	'Interior Design_Interior Scene_Bed Room',
	'Interior Design_Interior Scene_Home Office',
] as const;

const ROWS: readonly ApiRow[] = [
	{
		name: 'virtualStaging',
		reference: '#virtual-staging (page of 2026-04-13)',
		price: { flat: 1 },
		fields: {
			imageUrl: IMAGE,
			prompt: PROMPT,
			indoorTypeId: { type: 'text', oneOf: VIRTUAL_STAGING_ROOM_TYPES },
			// Its static list is not shown on its page: any string.
			indoorStyleId: TEXT,
		},
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'exteriorRenovator',
		reference: '#exterior-renovator (page of 2026-05-20)',
		price: { flat: 1 },
		// The source of buildingStyleId values is not visible: any string.
		fields: {
			imageUrl: IMAGE,
			prompt: PROMPT,
			referenceUrl: OPTIONAL_IMAGE,
			buildingStyleId: TEXT,
		},
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'landscaping',
		reference: '#landscaping (page of 2026-05-21)',
		price: { byModelType: FLASH_BASE_PRO, defaultModelType: 'Base' },
		fields: {
			imageUrl: IMAGE,
			prompt: PROMPT,
			sceneId: { type: 'styleOption', group: 'gardenStyle' },
			sceneElementId: { type: 'styleOption', group: 'elements', multi: true },
		},
		styleKey: 'landscaping',
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'interiorRemodel',
		reference: '#interior-remodel (page of 2026-05-21)',
		price: { flat: 1 },
		fields: {
			imageUrl: IMAGE,
			prompt: PROMPT,
			indoorTypeId: { type: 'styleOption', group: 'roomType' },
			indoorStyleId: { type: 'styleOption', group: 'style' },
			indoorElemId: { type: 'styleOption', group: 'elements', multi: true },
			colorString: TEXT,
			colorImgUrl: OPTIONAL_IMAGE,
		},
		styleKey: 'interoir_remodel',
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'changeFurniture',
		reference: '#change-furniture (page of 2026-05-21)',
		price: { flat: 1 },
		fields: {
			imageUrl: IMAGE,
			prompt: PROMPT,
			indoorTypeId: { type: 'styleOption', group: 'roomType' },
			indoorStyleId: { type: 'styleOption', group: 'style' },
			indoorElemId: { type: 'styleOption', group: 'elements', multi: true },
		},
		styleKey: 'change_furniture',
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'homeDecor',
		reference: '#home-decor (page of 2026-05-21)',
		price: { byModelType: BASE_PRO, defaultModelType: 'Base' },
		fields: {
			imageUrl: IMAGE,
			referenceUrl: OPTIONAL_IMAGE,
			prompt: PROMPT,
			spaceStyleId: { type: 'styleOption', group: 'spaceType' },
			homeDecorStyleId: { type: 'styleOption', group: 'decorStyle' },
		},
		styleKey: 'home_decor_ideas',
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'magicEditor',
		reference: '#magic-editor (page of 2026-03-06)',
		price: { byModelType: FLASH_BASE_PRO, defaultModelType: 'Flash' },
		fields: { imageUrl: IMAGE, prompt: PROMPT },
		promptRequiredFor: ['Base'],
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'planVisualizer',
		reference: '#plan-visualizer (page of 2026-05-21)',
		price: { byModelType: BASE_PRO, defaultModelType: 'Base' },
		fields: {
			imageUrl: IMAGE,
			prompt: PROMPT,
			planStyleId: { type: 'styleOption', group: 'planType' },
			styleId: { type: 'styleOption', group: 'style' },
			viewId: { type: 'styleOption', group: 'view' },
		},
		styleKey: 'ai_plan_visualizer',
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'floorPlan',
		reference: '#floor-plan (page of 2026-03-06)',
		// No default is shown; Base, the cheaper one, is the service's pick.
		price: { byModelType: BASE_PRO_PLANS, defaultModelType: 'Base' },
		fields: {
			bedrooms: { type: 'integer', min: 0 },
			bathrooms: { type: 'integer', min: 0 },
			// "Common values open, closed": not a closed list.
			kitchenType: TEXT,
			grossArea: TEXT,
			extras: TEXT,
			prompt: PROMPT,
			refImageUrl: OPTIONAL_IMAGE,
		},
		result: 'image',
		defaultSize: { width: 1536, height: 1024 },
		queue: 'shared',
	},
	{
		name: 'housePlan',
		reference: '#house-plan (page of 2026-06-12; 2026-03-06 behind housePlanResults: 3)',
		price: { byModelType: BASE_PRO_PLANS, defaultModelType: 'Base' },
		fields: {
			// Marked required, yet with a default and nullable: the service takes the default when
			// it is left out (see the README).
			style: TEXT,
			stories: { type: 'textOrInteger', required: true },
		},
		result: 'imageWithList',
		defaultSize: { width: 1920, height: 1080 },
		queue: 'shared',
	},
	{
		name: 'ai3d',
		reference: '#ai-3d (page of 2026-03-06)',
		price: { flat: 20 },
		fields: { imageUrl: OPTIONAL_IMAGE, prompt: PROMPT },
		atLeastOneOf: ['imageUrl', 'prompt'],
		result: 'model3d',
		queue: 'perAccount',
	},
	{
		name: 'ai3dRendering',
		reference: '#ai-3d-rendering (page of 2026-03-06)',
		price: { byModelType: FLASH_BASE_PRO, defaultModelType: 'Flash' },
		fields: {
			imageUrl: IMAGE,
			prompt: PROMPT,
			renderDegree: { type: 'integer', min: 1, max: 6 },
		},
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'furnitureTryOn',
		reference: '#furniture-try-on (page of 2026-03-09)',
		// No default is shown; Base is the service's pick.
		price: { byModelType: BASE_PRO, defaultModelType: 'Base' },
		fields: {
			imageUrl: IMAGE,
			// The item object's keys are not visible: only the count and the object shape are checked.
			furnitureList: { type: 'objectList', required: true, min: 1, max: 6 },
			prompt: PROMPT,
		},
		result: 'image',
		queue: 'shared',
	},
	{
		name: 'smartReplace',
		reference: '#smart-replace (page of 2026-03-06)',
		price: { flat: 1 },
		// The mask's field name is not visible; it arrives, if at all, as an unchecked extra field.
		fields: { imageUrl: IMAGE, prompt: PROMPT },
		result: 'image',
		queue: 'shared',
	},
];

export const API_ROWS: Readonly<Record<CatalogApi, ApiRow>> = Object.fromEntries(
	ROWS.map((row) => [row.name, row]),
) as Record<CatalogApi, ApiRow>;

export function isCatalogApi(name: string): name is CatalogApi {
	return Object.hasOwn(API_ROWS, name);
}

export function modelTypesOf(row: ApiRow): ModelType[] {
	return 'byModelType' in row.price ? (Object.keys(row.price.byModelType) as ModelType[]) : [];
}

/** The credits a task costs; `modelType` must already have been checked against the row. */
export function priceOf(row: ApiRow, modelType: ModelType | undefined): number {
	if ('flat' in row.price) return row.price.flat;
	return row.price.byModelType[modelType ?? row.price.defaultModelType] as number;
}

// What docs/ideal-house-api.md says about each API, typed out again here
// rather than read from service/apis.ts, so that a slip in the service's table fails a test.
import type { CatalogApi } from '../../service/apis.ts';
import type { RunningService } from '../../service/server.ts';
import { sample } from './helpers.ts';

export interface CatalogExpectation {
	/** Credits when no modelType is sent. */
	defaultPrice: number;
	/** Credits per modelType; empty for a flat price. */
	byModelType: Record<string, number>;
	/** A minimal body the API accepts. */
	body: (service: RunningService) => Record<string, unknown>;
	/** Size of the result for that body; null for the 3D model. */
	size: { width: number; height: number } | null;
}

const ROOM = { width: 1600, height: 1200 };
const withRoom = (service: RunningService) => ({
	imageUrl: sample(service, 'living-room.png'),
});

export const CATALOG: Record<CatalogApi, CatalogExpectation> = {
	virtualStaging: { defaultPrice: 1, byModelType: {}, body: withRoom, size: ROOM },
	exteriorRenovator: {
		defaultPrice: 1,
		byModelType: {},
		body: (service) => ({ imageUrl: sample(service, 'exterior.png') }),
		size: { width: 1920, height: 1280 },
	},
	landscaping: {
		defaultPrice: 3,
		byModelType: { Flash: 1, Base: 3, Pro: 10 },
		body: (service) => ({ imageUrl: sample(service, 'exterior.png') }),
		size: { width: 1920, height: 1280 },
	},
	interiorRemodel: { defaultPrice: 1, byModelType: {}, body: withRoom, size: ROOM },
	changeFurniture: { defaultPrice: 1, byModelType: {}, body: withRoom, size: ROOM },
	homeDecor: { defaultPrice: 3, byModelType: { Base: 3, Pro: 10 }, body: withRoom, size: ROOM },
	magicEditor: {
		defaultPrice: 1,
		byModelType: { Flash: 1, Base: 3, Pro: 10 },
		// A prompt, so that the Base price can be tried with the same body.
		body: (service) => ({ ...withRoom(service), prompt: 'paint the walls sage green' }),
		size: ROOM,
	},
	planVisualizer: {
		defaultPrice: 3,
		byModelType: { Base: 3, Pro: 10 },
		body: (service) => ({ imageUrl: sample(service, 'kitchen.png') }),
		size: { width: 1280, height: 960 },
	},
	floorPlan: {
		defaultPrice: 10,
		byModelType: { Base: 10, Pro: 20 },
		body: () => ({ bedrooms: 3, bathrooms: 2, kitchenType: 'open', grossArea: '100-120m²' }),
		size: { width: 1536, height: 1024 },
	},
	housePlan: {
		defaultPrice: 10,
		byModelType: { Base: 10, Pro: 20 },
		body: () => ({ style: 'Barndominium', stories: '2' }),
		size: { width: 1920, height: 1080 },
	},
	ai3d: {
		defaultPrice: 20,
		byModelType: {},
		body: () => ({ prompt: 'a two-storey farmhouse with a porch' }),
		size: null,
	},
	ai3dRendering: {
		defaultPrice: 1,
		byModelType: { Flash: 1, Base: 3, Pro: 10 },
		body: withRoom,
		size: ROOM,
	},
	furnitureTryOn: {
		defaultPrice: 3,
		byModelType: { Base: 3, Pro: 10 },
		body: (service) => ({
			...withRoom(service),
			furnitureList: [{ imageUrl: sample(service, 'kitchen.png'), productId: 'SKU-1042' }],
		}),
		size: ROOM,
	},
	smartReplace: { defaultPrice: 1, byModelType: {}, body: withRoom, size: ROOM },
};

export const CATALOG_NAMES = Object.keys(CATALOG) as CatalogApi[];

/** [api, modelType, credits] for every priced model type. */
export const MODEL_PRICES: Array<[CatalogApi, string, number]> = CATALOG_NAMES.flatMap((api) =>
	Object.entries(CATALOG[api].byModelType).map(
		([modelType, price]): [CatalogApi, string, number] => [api, modelType, price],
	),
);

/** APIs whose result is a picture whose URL carries failTrigger (the others take it in text). */
export const IMAGE_INPUT_APIS: CatalogApi[] = CATALOG_NAMES.filter(
	(api) => api !== 'floorPlan' && api !== 'housePlan' && api !== 'ai3d',
);

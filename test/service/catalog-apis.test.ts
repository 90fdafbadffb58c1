// The catalog APIs over HTTP: each one's lifecycle, price by modelType and default, refunds,
// text review, credits, the input echo, stats and faults.
import type { CatalogApi } from '../../service/apis.ts';
import { CATALOG, CATALOG_NAMES, IMAGE_INPUT_APIS, MODEL_PRICES } from './catalog-helpers.ts';
import { decodePngSize, download, expectEnvelopeError, idOf } from './helpers.ts';
import { useService } from './local-service.ts';

const PRICED = CATALOG_NAMES.filter((api) => Object.keys(CATALOG[api].byModelType).length > 0);
const FLAT = CATALOG_NAMES.filter((api) => !PRICED.includes(api));

describe('catalog APIs', () => {
	const service = useService({ accounts: { key: 100 }, taskDurationMs: 1000 });

	const bodyOf = (api: CatalogApi, extra: Record<string, unknown> = {}) => ({
		...CATALOG[api].body(service),
		...extra,
	});
	const create = (api: CatalogApi, extra: Record<string, unknown> = {}) =>
		service.generate(api, bodyOf(api, extra));
	const taskOf = async (api: CatalogApi, id: string) => (await service.result(api, id)).json.data;

	it.each(CATALOG_NAMES)(
		'%s: create, then Processing with percentage, then Success with its result; default price',
		async (api) => {
			const id = idOf(await create(api));
			const { defaultPrice, size } = CATALOG[api];
			expect(service.balance('key')).toBe(100 - defaultPrice);
			expect(await taskOf(api, id)).toEqual({
				id: expect.any(Number),
				status: 'Processing',
				waitNumber: 0,
				percentage: 0,
				input: bodyOf(api),
				output: null,
			});
			service.clock.advance(500);
			expect(await taskOf(api, id)).toMatchObject({ status: 'Processing', percentage: 50 });
			service.clock.advance(500);
			const done = await taskOf(api, id);
			expect(done).toMatchObject({ status: 'Success', waitNumber: 0, percentage: 100 });
			if (size === null) {
				expect(done.output).toEqual({
					resultUrl: expect.stringMatching(/\/results\/\d+\.glb$/),
					width: null,
					height: null,
				});
				return;
			}
			expect(done.output).toMatchObject({ resultUrl: expect.stringMatching(/\.png$/), ...size });
			expect(decodePngSize(await download(done.output.resultUrl))).toEqual(size);
			const summary = service.stats().tasks.find((task) => task.id === id);
			expect(summary).toMatchObject({ kind: api, cost: defaultPrice, refunded: false });
		},
	);

	it.each(MODEL_PRICES)('%s: modelType %s costs %i', async (api, modelType, price) => {
		const id = idOf(await create(api, { modelType }));
		expect(service.balance('key')).toBe(100 - price);
		expect((await taskOf(api, id)).input.modelType).toBe(modelType);
	});

	it.each(PRICED)(
		'%s: a modelType outside its list gives 1011 naming modelType, charging nothing',
		async (api) => {
			const allowed = Object.keys(CATALOG[api].byModelType);
			const outside = allowed.includes('Flash') ? ['Ultra', 'base', ''] : ['Flash', 'Ultra'];
			for (const modelType of [...outside, 3]) {
				expectEnvelopeError(await create(api, { modelType }), 1011, /^modelType must be one of/);
			}
			expect(service.balance('key')).toBe(100);
			expect(service.stats().tasksCreated.total).toBe(0);
		},
	);

	it.each(FLAT)(
		'%s: flat price; a modelType sent anyway is only echoed and changes nothing',
		async (api) => {
			const id = idOf(await create(api, { modelType: 'Pro' }));
			expect(service.balance('key')).toBe(100 - CATALOG[api].defaultPrice);
			expect((await taskOf(api, id)).input).toEqual(bodyOf(api, { modelType: 'Pro' }));
		},
	);

	it.each(CATALOG_NAMES)(
		'%s: a task that ends Failed has output null, percentage 0, and is refunded',
		async (api) => {
			// failTrigger sits in the image URL; without an image, in one of the text fields.
			const failing = IMAGE_INPUT_APIS.includes(api)
				? { imageUrl: `${bodyOf(api).imageUrl as string}?fail=1` }
				: api === 'housePlan'
					? { style: 'fail-test Barndominium' }
					: { prompt: 'fail: a small cabin' };
			const id = idOf(await create(api, failing));
			const price = CATALOG[api].defaultPrice;
			expect(service.balance('key')).toBe(100 - price);
			service.clock.advance(1000);
			expect(await taskOf(api, id)).toMatchObject({
				status: 'Failed',
				waitNumber: 0,
				percentage: 0,
				output: null,
			});
			expect(service.balance('key')).toBe(100);
			expect(service.stats().credits).toEqual({
				charged: price,
				refunded: price,
				byKey: { key: { charged: price, refunded: price } },
			});
		},
	);

	it('echoes unknown fields in the input, as sent', async () => {
		const extra = { environment: 'snowy', mode: 'creative', nested: { a: [1, 2] } };
		const id = idOf(await create('exteriorRenovator', extra));
		expect((await taskOf('exteriorRenovator', id)).input).toEqual(
			bodyOf('exteriorRenovator', extra),
		);
	});

	it("answers 1001 for another API's task id or another key's", async () => {
		service.setAccount('other', 100);
		const id = idOf(await create('landscaping'));
		expectEnvelopeError(await service.result('homeDecor', id), 1001, /task not found/);
		expectEnvelopeError(await service.result('photoEnhancer', id), 1001, /task not found/);
		expectEnvelopeError(await service.result('landscaping', id, { apiKey: 'other' }), 1001);
		expect((await service.result('landscaping', id)).json.code).toBe(0);
	});

	it('screens prompts: banned words give 9010, the reject phrase 9038, both free', async () => {
		expectEnvelopeError(await create('magicEditor', { prompt: 'make it nsfw' }), 9010, /nsfw/);
		expectEnvelopeError(await create('ai3d', { prompt: 'a nude statue' }), 9010);
		expectEnvelopeError(
			await create('changeFurniture', { prompt: 'a sofa [reject]' }),
			9038,
			/PROHIBITED_CONTENT/,
		);
		expectEnvelopeError(
			await create('homeDecor', {
				referenceUrl: `${bodyOf('homeDecor').imageUrl as string}?x=[reject]`,
			}),
			9038,
		);
		expect(service.balance('key')).toBe(100);
	});

	it('answers 9051 when the balance is below the price, by modelType', async () => {
		service.setAccount('key', 9);
		expectEnvelopeError(await create('floorPlan'), 9051, /costs 10, the balance is 9/);
		expectEnvelopeError(await create('landscaping', { modelType: 'Pro' }), 9051);
		expect((await create('landscaping', { modelType: 'Base' })).json.code).toBe(0);
		expect(service.balance('key')).toBe(6);
		expectEnvelopeError(await create('ai3d'), 9051);
	});

	it('counts requests, tasks and credits per endpoint and key', async () => {
		const id = idOf(await create('planVisualizer', { modelType: 'Pro' }));
		await service.result('planVisualizer', id);
		idOf(await create('smartReplace'));
		const stats = service.stats();
		expect(stats.requests.byEndpoint).toEqual({
			'planVisualizer.generate': { total: 1, byStatus: { 200: 1 } },
			'planVisualizer.result': { total: 1, byStatus: { 200: 1 } },
			'smartReplace.generate': { total: 1, byStatus: { 200: 1 } },
		});
		expect(stats.tasksCreated).toEqual({
			total: 2,
			byKey: { key: 2 },
			byEndpoint: { 'planVisualizer.generate': 1, 'smartReplace.generate': 1 },
		});
		expect(stats.credits.charged).toBe(11);
		expect(stats.tasks.map((task) => [task.kind, task.cost])).toEqual([
			['planVisualizer', 10],
			['smartReplace', 1],
		]);
	});

	it('applies faults to catalog endpoints named by API, full name or action', async () => {
		service.configure({ faults: { http503: 1, endpoints: ['ai3d'] } });
		expect((await create('ai3d')).status).toBe(503);
		expect((await create('magicEditor')).status).toBe(200);
		service.configure({ faults: { endpoints: ['magicEditor.result'] } });
		const id = idOf(await create('magicEditor'));
		expect((await service.result('magicEditor', id)).status).toBe(503);
		service.configure({
			faults: { http503: 0, truncated: 1, faultPhase: 'after', endpoints: ['generate'] },
		});
		const spoiled = await create('floorPlan');
		expect(spoiled.json).toBeUndefined();
		const stats = service.stats();
		// The create behind the spoiled answer happened and was charged.
		expect(stats.tasksCreated.byEndpoint['floorPlan.generate']).toBe(1);
		expect(stats.faults.byEndpoint).toEqual({
			'ai3d.generate': 1,
			'magicEditor.result': 1,
			'floorPlan.generate': 1,
		});
	});

	it('answers an API it does not know with HTTP 404 and 1001, as before', async () => {
		for (const name of ['textureReplacer', 'imageToVideo', 'style']) {
			const response = await service.generate(name as CatalogApi, { imageUrl: 'x' });
			expect(response.status).toBe(404);
			expect(response.json).toEqual({
				code: 1001,
				message: `no such endpoint: POST /api/v1/${name}/generate`,
				data: null,
			});
		}
	});
});

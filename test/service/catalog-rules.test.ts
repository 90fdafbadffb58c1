// Request rules of the catalog APIs: required fields, enums, conditional fields, lists and the
// style-config ids. Every refusal is a 1011 that names the field and charges nothing.
import type { CatalogApi } from '../../service/apis.ts';
import { CATALOG, CATALOG_NAMES } from './catalog-helpers.ts';
import { expectEnvelopeError, idOf } from './helpers.ts';
import { useService } from './local-service.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const NEEDS_IMAGE = CATALOG_NAMES.filter(
	(api) => api !== 'floorPlan' && api !== 'housePlan' && api !== 'ai3d',
);

describe('catalog request rules', () => {
	const service = useService({ accounts: { key: 500 } });
	let room: string;

	beforeEach(() => {
		room = service.sample('living-room.png');
	});
	afterEach(() => {
		// Whatever a test refused, nothing may have been created or charged for it.
		expect(service.stats().credits.charged).toBe(
			service.stats().tasks.reduce((sum, task) => sum + task.cost, 0),
		);
	});

	const bodyOf = (api: CatalogApi) => CATALOG[api].body(service);
	const create = (api: CatalogApi, body: Record<string, unknown>) => service.generate(api, body);
	const accepted = async (api: CatalogApi, body: Record<string, unknown>) => {
		const response = await create(api, body);
		expect(response.json).toMatchObject({ code: 0 });
		return idOf(response);
	};
	const refused = async (api: CatalogApi, body: Record<string, unknown>, message: RegExp) => {
		const before = service.balance('key');
		expectEnvelopeError(await create(api, body), 1011, message);
		expect(service.balance('key')).toBe(before);
	};

	it.each(NEEDS_IMAGE)('%s: imageUrl is required, a URL of a JPEG, PNG or WebP', async (api) => {
		const { imageUrl, ...rest } = bodyOf(api);
		expect(imageUrl).toEqual(expect.any(String));
		await refused(api, rest, /^imageUrl is required$/);
		await refused(api, { ...rest, imageUrl: '  ' }, /^imageUrl is required$/);
		await refused(api, { ...rest, imageUrl: 42 }, /^imageUrl must be a string$/);
		await refused(
			api,
			{ ...rest, imageUrl: 'room.png' },
			/^imageUrl \(room.png\) is not a valid URL/,
		);
		await refused(api, { ...rest, imageUrl: 'ftp://host/a.png' }, /must be an http or https URL/);
		await refused(
			api,
			{ ...rest, imageUrl: service.sample('not-an-image.png') },
			/^imageUrl .* is not a JPEG, PNG or WebP image/,
		);
		await refused(
			api,
			{ ...rest, imageUrl: service.sample('missing.png') },
			/^imageUrl .* could not be fetched: the server answered HTTP 404/,
		);
		expect(service.stats().tasksCreated.total).toBe(0);
	});

	it('checks the optional image fields too, naming them', async () => {
		await refused(
			'homeDecor',
			{ imageUrl: room, referenceUrl: service.sample('not-an-image.png') },
			/^referenceUrl .* is not a JPEG/,
		);
		await refused(
			'exteriorRenovator',
			{ imageUrl: room, referenceUrl: 'nowhere' },
			/^referenceUrl \(nowhere\) is not a valid URL/,
		);
		await refused(
			'interiorRemodel',
			{ imageUrl: room, colorImgUrl: service.sample('not-an-image.png') },
			/^colorImgUrl/,
		);
		await refused('floorPlan', { refImageUrl: 'x' }, /^refImageUrl \(x\) is not a valid URL/);
		// Only the format is checked, as for the object remover: a 64 px image is fine.
		await accepted('magicEditor', { imageUrl: service.sample('tiny.png') });
		await accepted('floorPlan', { refImageUrl: service.sample('kitchen.png') });
	});

	it('checks prompt and text fields are strings', async () => {
		await refused('changeFurniture', { imageUrl: room, prompt: 5 }, /^prompt must be a string$/);
		await refused('interiorRemodel', { imageUrl: room, colorString: ['#fff'] }, /^colorString/);
		await refused('floorPlan', { kitchenType: true }, /^kitchenType must be a string$/);
	});

	it('virtualStaging: indoorTypeId must be one of the four listed room types', async () => {
		for (const roomName of ['Living Room', 'Dining Room', 'Bed Room', 'Home Office']) {
			await accepted('virtualStaging', {
				imageUrl: room,
				indoorTypeId: `Interior Design_Interior Scene_${roomName}`,
			});
		}
		await refused(
			'virtualStaging',
			{ imageUrl: room, indoorTypeId: 'Interior Design_Interior Scene_Kitchen' },
			/^indoorTypeId must be one of Interior Design_Interior Scene_Living Room, .*; got "Interior Design_Interior Scene_Kitchen"$/,
		);
		await refused(
			'virtualStaging',
			{ imageUrl: room, indoorTypeId: 'living room' },
			/^indoorTypeId must be one of/,
		);
		// Its style list is not in the catalog: any string.
		await accepted('virtualStaging', { imageUrl: room, indoorStyleId: 'I-modern-01' });
	});

	it('magicEditor: prompt is required with modelType Base only', async () => {
		await refused(
			'magicEditor',
			{ imageUrl: room, modelType: 'Base' },
			/^prompt is required when modelType is Base$/,
		);
		await refused('magicEditor', { imageUrl: room, modelType: 'Base', prompt: ' ' }, /^prompt/);
		await accepted('magicEditor', { imageUrl: room, modelType: 'Base', prompt: 'add a rug' });
		await accepted('magicEditor', { imageUrl: room, modelType: 'Flash' });
		await accepted('magicEditor', { imageUrl: room, modelType: 'Pro' });
		// The default model is Flash, so no prompt is needed without a modelType.
		await accepted('magicEditor', { imageUrl: room });
	});

	it('ai3d: imageUrl or prompt, either or both', async () => {
		await refused('ai3d', {}, /^imageUrl or prompt is required: provide at least one of them$/);
		await refused('ai3d', { imageUrl: '', prompt: null }, /^imageUrl or prompt is required/);
		await accepted('ai3d', { prompt: 'a cabin' });
		await accepted('ai3d', { imageUrl: room });
		await accepted('ai3d', { imageUrl: room, prompt: 'a cabin' });
		await refused('ai3d', { imageUrl: service.sample('not-an-image.png') }, /^imageUrl/);
	});

	it('furnitureTryOn: furnitureList holds 1 to 6 objects', async () => {
		const item = { imageUrl: service.sample('kitchen.png'), productId: 'SKU-1' };
		const list = (count: number) => Array.from({ length: count }, () => ({ ...item }));
		await refused('furnitureTryOn', { imageUrl: room }, /^furnitureList is required$/);
		await refused(
			'furnitureTryOn',
			{ imageUrl: room, furnitureList: [] },
			/^furnitureList has 0 items; it must be an array of 1 to 6 objects$/,
		);
		await refused(
			'furnitureTryOn',
			{ imageUrl: room, furnitureList: list(7) },
			/^furnitureList has 7 items; it must be an array of 1 to 6 objects$/,
		);
		await refused(
			'furnitureTryOn',
			{ imageUrl: room, furnitureList: item },
			/^furnitureList must be an array of 1 to 6 objects$/,
		);
		await refused(
			'furnitureTryOn',
			{ imageUrl: room, furnitureList: [item, 'sofa'] },
			/^furnitureList\[1\] must be an object$/,
		);
		await refused(
			'furnitureTryOn',
			{ imageUrl: room, furnitureList: [[item]] },
			/^furnitureList\[0\] must be an object$/,
		);
		await accepted('furnitureTryOn', { imageUrl: room, furnitureList: list(1) });
		const id = await accepted('furnitureTryOn', { imageUrl: room, furnitureList: list(6) });
		// Item keys are not documented: whatever an item holds is kept as sent.
		expect((await service.result('furnitureTryOn', id)).json.data.input.furnitureList).toEqual(
			list(6),
		);
	});

	it('floorPlan: no image needed; bedrooms and bathrooms are whole numbers of 0 or more', async () => {
		await accepted('floorPlan', {});
		await accepted('floorPlan', { bedrooms: 0, bathrooms: 4, kitchenType: 'galley' });
		await refused(
			'floorPlan',
			{ bedrooms: '3' },
			/^bedrooms must be an integer of at least 0; got "3"$/,
		);
		await refused('floorPlan', { bedrooms: 2.5 }, /^bedrooms must be an integer/);
		await refused(
			'floorPlan',
			{ bathrooms: -1 },
			/^bathrooms must be an integer of at least 0; got -1$/,
		);
	});

	it('housePlan: stories is required; style may be left out (the catalog gives it a default)', async () => {
		await refused('housePlan', { style: 'Ranch' }, /^stories is required$/);
		await refused('housePlan', { stories: '' }, /^stories is required$/);
		await refused('housePlan', { stories: 1.5 }, /^stories must be a string or a whole number$/);
		await refused('housePlan', { stories: '2', style: 7 }, /^style must be a string$/);
		await accepted('housePlan', { stories: '2' });
		await accepted('housePlan', { stories: 1, style: null });
		const id = await accepted('housePlan', { stories: '2', style: 'Craftsman', bedrooms: 4 });
		expect((await service.result('housePlan', id)).json.data.input).toEqual({
			stories: '2',
			style: 'Craftsman',
			bedrooms: 4,
		});
	});

	it('ai3dRendering: renderDegree is a whole number from 1 to 6', async () => {
		for (const renderDegree of [1, 3, 6])
			await accepted('ai3dRendering', { imageUrl: room, renderDegree });
		for (const renderDegree of [0, 7, 2.5, '3']) {
			await refused(
				'ai3dRendering',
				{ imageUrl: room, renderDegree },
				/^renderDegree must be an integer from 1 to 6; got /,
			);
		}
	});

	describe('style-config ids', () => {
		let options: Record<string, Json>;

		beforeEach(async () => {
			options = {};
			for (const key of [
				'change_furniture',
				'interoir_remodel',
				'home_decor_ideas',
				'ai_plan_visualizer',
				'landscaping',
			]) {
				options[key] = (await service.call('GET', `/api/v1/style/${key}/getStyles`)).json.data;
			}
		});

		const ids = (key: string, group: string) =>
			(options[key][group] as Array<{ id: string }>).map((option) => option.id);

		it("accepts the ids of each field's group, and comma-joined lists for the multi fields", async () => {
			const [sofa, rug, lamp] = ids('change_furniture', 'elements');
			const id = await accepted('changeFurniture', {
				imageUrl: room,
				indoorTypeId: ids('change_furniture', 'roomType')[0],
				indoorStyleId: ids('change_furniture', 'style')[2],
				indoorElemId: `${sofa},${rug}, ${lamp}`,
			});
			expect((await service.result('changeFurniture', id)).json.data.input.indoorElemId).toBe(
				`${sofa},${rug}, ${lamp}`,
			);
			await accepted('interiorRemodel', {
				imageUrl: room,
				indoorTypeId: ids('interoir_remodel', 'roomType')[3],
				indoorStyleId: ids('interoir_remodel', 'style')[0],
				indoorElemId: ids('interoir_remodel', 'elements').join(','),
				colorString: '#d8cfc4',
			});
			await accepted('homeDecor', {
				imageUrl: room,
				spaceStyleId: ids('home_decor_ideas', 'spaceType')[1],
				homeDecorStyleId: ids('home_decor_ideas', 'decorStyle')[1],
			});
			await accepted('planVisualizer', {
				imageUrl: room,
				planStyleId: ids('ai_plan_visualizer', 'planType')[0],
				styleId: ids('ai_plan_visualizer', 'style')[0],
				viewId: ids('ai_plan_visualizer', 'view')[1],
			});
			await accepted('landscaping', {
				imageUrl: service.sample('exterior.png'),
				sceneId: ids('landscaping', 'gardenStyle')[2],
				sceneElementId: ids('landscaping', 'elements').slice(0, 3).join(','),
			});
		});

		it('refuses an unknown id, naming the field, the group and the style key', async () => {
			await refused(
				'changeFurniture',
				{ imageUrl: room, indoorTypeId: 'living-room' },
				/^indoorTypeId "living-room" is not an id of the roomType group of change_furniture \(see GET \/api\/v1\/style\/change_furniture\/getStyles\)$/,
			);
			// The id of another group, or of another key's same group, is as unknown.
			await refused(
				'changeFurniture',
				{ imageUrl: room, indoorTypeId: ids('change_furniture', 'style')[0] },
				/^indoorTypeId .* roomType group/,
			);
			await refused(
				'interiorRemodel',
				{ imageUrl: room, indoorTypeId: ids('change_furniture', 'roomType')[0] },
				/^indoorTypeId .* of interoir_remodel/,
			);
			const [first, second] = ids('landscaping', 'elements');
			await refused(
				'landscaping',
				{ imageUrl: room, sceneElementId: `${first},nope` },
				/^sceneElementId "nope" is not an id of the elements group of landscaping/,
			);
			await refused(
				'landscaping',
				{ imageUrl: room, sceneElementId: `${first},,${second}` },
				/^sceneElementId holds an empty id/,
			);
			// Only the multi fields take lists.
			await refused(
				'landscaping',
				{ imageUrl: room, sceneId: ids('landscaping', 'gardenStyle').slice(0, 2).join(',') },
				/^sceneId ".*,.*" is not an id/,
			);
			await refused('planVisualizer', { imageUrl: room, viewId: 3 }, /^viewId must be a string$/);
			expect(service.stats().tasksCreated.total).toBe(0);
		});
	});
});

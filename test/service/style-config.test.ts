// GET /api/v1/style/<styleKey>/getStyles: groups and options of the five style keys, in both
// nestings a client may meet, behind the APIKEY, free, counted and open to faults.
import { call, decodePngSize, expectEnvelopeError, start } from './helpers.ts';
import { useService } from './local-service.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Groups per key, as docs/ideal-house-api.md#style-config lists them. */
const GROUPS: Record<string, string[]> = {
	home_decor_ideas: ['spaceType', 'decorStyle'],
	change_furniture: ['roomType', 'style', 'elements'],
	interoir_remodel: ['roomType', 'style', 'elements'],
	ai_plan_visualizer: ['planType', 'style', 'view'],
	landscaping: ['gardenStyle', 'elements'],
};

describe('style config endpoint', () => {
	const service = useService({ accounts: { key: 5 } });

	const styles = (key: string, apiKey?: string | null) =>
		service.call('GET', `/api/v1/style/${key}/getStyles`, { apiKey });

	it.each(Object.keys(GROUPS))(
		'%s: data holds its groups as keys, each a list of 4 to 8 options {name, id, url}',
		async (key) => {
			const response = await styles(key);
			expect(response.status).toBe(200);
			expect(response.json).toMatchObject({ code: 0, message: 'success' });
			const data = response.json.data;
			expect(Object.keys(data)).toEqual(GROUPS[key]);
			for (const group of GROUPS[key]) {
				expect(data[group].length).toBeGreaterThanOrEqual(4);
				expect(data[group].length).toBeLessThanOrEqual(8);
				for (const option of data[group]) {
					expect(option).toEqual({
						name: { en: expect.any(String), zh: expect.any(String) },
						id: expect.stringMatching(/^[0-9a-f]{24}$/),
						url: `${service.baseUrl}/styles/${option.id}.png`,
					});
				}
				const ids = data[group].map((option: Json) => option.id);
				expect(new Set(ids).size).toBe(ids.length);
			}
		},
	);

	it('uses real-estate vocabulary, with English and Chinese names', async () => {
		const data = (await styles('change_furniture')).json.data;
		expect(data.roomType[0].name).toEqual({ en: 'Living Room', zh: '客厅' });
		const names = (group: string) => data[group].map((option: Json) => option.name.en);
		expect(names('style')).toEqual(
			expect.arrayContaining(['Scandinavian', 'Japandi', 'Industrial']),
		);
		expect(names('elements')).toEqual(expect.arrayContaining(['Sofa', 'Rug', 'Floor Lamp']));
		const garden = (await styles('landscaping')).json.data.gardenStyle.map(
			(option: Json) => option.name.en,
		);
		expect(garden).toContain('Japanese Zen Garden');
	});

	it("serves each option's preview as a PNG", async () => {
		const option = (await styles('home_decor_ideas')).json.data.decorStyle[0];
		const response = await fetch(option.url);
		expect(response.headers.get('content-type')).toBe('image/png');
		expect(decodePngSize(Buffer.from(await response.arrayBuffer()))).toEqual({
			width: 160,
			height: 120,
		});
		expect((await fetch(`${service.baseUrl}/styles/${'0'.repeat(24)}.png`)).status).toBe(404);
		expect(service.stats().requests.total).toBe(1);
	});

	it('keeps ids stable from run to run and distinct between keys', async () => {
		const first = (await styles('interoir_remodel')).json.data;
		const other = await start();
		const again = (await call(other, 'GET', '/api/v1/style/interoir_remodel/getStyles')).json.data;
		await other.close();
		expect(again).toEqual(
			JSON.parse(JSON.stringify(first).replaceAll(service.baseUrl, other.baseUrl)),
		);
		const furniture = (await styles('change_furniture')).json.data;
		expect(first.roomType[0].name).toEqual(furniture.roomType[0].name);
		expect(first.roomType[0].id).not.toBe(furniture.roomType[0].id);
	});

	it("styleShape 'namedGroupList' answers a list of {group, options}", async () => {
		const asKeys = (await styles('ai_plan_visualizer')).json.data;
		service.configure({ styleShape: 'namedGroupList' });
		const asList = (await styles('ai_plan_visualizer')).json.data;
		expect(asList).toEqual([
			{ group: 'planType', options: asKeys.planType },
			{ group: 'style', options: asKeys.style },
			{ group: 'view', options: asKeys.view },
		]);
		await fetch(`${service.baseUrl}/__admin/config`, {
			method: 'POST',
			body: JSON.stringify({ styleShape: 'groupsAsKeys' }),
		});
		expect((await styles('ai_plan_visualizer')).json.data).toEqual(asKeys);
		expect(() => service.configure({ styleShape: 'nested' as never })).toThrow(
			/styleShape must be one of groupsAsKeys, namedGroupList/,
		);
	});

	it('needs the APIKEY: 5002 without it or with a wrong one', async () => {
		expectEnvelopeError(await styles('landscaping', null), 5002, /missing/);
		expectEnvelopeError(await styles('landscaping', 'wrong'), 5002, /invalid/);
	});

	it('answers an unknown style key with 1011 naming the known ones', async () => {
		for (const key of ['interior_remodel', 'homeDecor', '%E2%9C%93']) {
			expectEnvelopeError(
				await styles(key),
				1011,
				/^styleKey ".*" is not a known style key \(known: home_decor_ideas, change_furniture, interoir_remodel, ai_plan_visualizer, landscaping\)$/,
			);
		}
		const unknown = await service.call('GET', '/api/v1/style/landscaping/getOptions');
		expect(unknown.status).toBe(404);
		expect(unknown.json.code).toBe(1001);
	});

	it('costs nothing, is GET only, and counts as the endpoint style.getStyles', async () => {
		await styles('landscaping');
		await styles('change_furniture');
		await styles('nope');
		const post = await service.call('POST', '/api/v1/style/landscaping/getStyles', { body: {} });
		expect(post.status).toBe(405);
		expect(post.headers.get('allow')).toBe('GET');
		const stats = service.stats();
		expect(service.balance('key')).toBe(5);
		expect(stats.credits.charged).toBe(0);
		expect(stats.tasksCreated.total).toBe(0);
		expect(stats.requests.byEndpoint).toEqual({
			'style.getStyles': { total: 4, byStatus: { 200: 3, 405: 1 } },
		});
		expect(stats.requests.byCode).toEqual({ 0: 2, 1011: 1 });
	});

	it('takes faults like the other endpoints, by name or action', async () => {
		service.configure({ faults: { http502: 1, endpoints: ['style'] } });
		expect((await styles('landscaping')).status).toBe(502);
		service.configure({ faults: { http502: 0, malformed: 1, endpoints: ['getStyles'] } });
		const spoiled = await styles('landscaping');
		expect(spoiled.status).toBe(200);
		expect(spoiled.json).toBeUndefined();
		expect(spoiled.text).toMatch(/^\{code:0,/);
		service.configure({ faults: { endpoints: ['result'] } });
		expect((await styles('landscaping')).json.code).toBe(0);
		expect(service.stats().faults.byEndpoint).toEqual({ 'style.getStyles': 2 });
	});
});

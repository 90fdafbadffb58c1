// House Plan results: one composite image listed in output.resultList (2026-06-12 page), or,
// with housePlanResults: 3, three distinct images (2026-03-06 page).
import { decodePngSize, download, idOf } from './helpers.ts';
import { useService } from './local-service.ts';

describe('house plan results', () => {
	const service = useService({}, 'the test');

	const plan = async () => idOf(await service.generate('housePlan', { stories: '1' }));
	const outputOf = async (id: string) => (await service.result('housePlan', id)).json.data.output;

	it('gives one image, as resultUrl and as the only item of resultList, by default', async () => {
		await service.start({ taskDurationMs: 100 });
		const id = await plan();
		service.clock.advance(100);
		const output = await outputOf(id);
		expect(output).toEqual({
			resultUrl: `${service.baseUrl}/results/${id}.png`,
			width: 1920,
			height: 1080,
			resultList: [`${service.baseUrl}/results/${id}.png`],
		});
		expect(decodePngSize(await download(output.resultUrl))).toEqual({ width: 1920, height: 1080 });
		expect((await fetch(`${service.baseUrl}/results/${id}-1.png`)).status).toBe(404);
	});

	it('gives three distinct images with housePlanResults: 3, fixed when the task is created', async () => {
		await service.start({ taskDurationMs: 100, housePlanResults: 3 });
		const id = await plan();
		service.configure({ housePlanResults: 1 });
		const later = await plan();
		service.clock.advance(200);
		const output = await outputOf(id);
		const list = [1, 2, 3].map((n) => `${service.baseUrl}/results/${id}-${n}.png`);
		expect(output).toEqual({ resultUrl: list[0], width: 1920, height: 1080, resultList: list });
		const files = await Promise.all(list.map((url) => download(url)));
		for (const file of files) expect(decodePngSize(file)).toEqual({ width: 1920, height: 1080 });
		expect(new Set(files.map((file) => file.toString('base64'))).size).toBe(3);
		expect((await fetch(`${service.baseUrl}/results/${id}-4.png`)).status).toBe(404);
		expect((await fetch(`${service.baseUrl}/results/${id}.png`)).status).toBe(404);
		expect((await outputOf(later)).resultList).toHaveLength(1);
	});

	it('serves distinct large images too (resultBytes), and refuses other counts', async () => {
		await service.start({ taskDurationMs: 0, housePlanResults: 3 });
		service.configure({ resultBytes: 200_000 });
		const { resultList } = await outputOf(await plan());
		const [first, second] = await Promise.all(
			resultList.slice(0, 2).map((url: string) => download(url)),
		);
		expect(first.length).toBeGreaterThan(150_000);
		expect(first.equals(second)).toBe(false);
		expect(() => service.configure({ housePlanResults: 2 as never })).toThrow(
			/housePlanResults must be 1 or 3/,
		);
	});
});

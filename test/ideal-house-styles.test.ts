/**
 * The Ideal House AI node's option lists as a user meets them in the editor: each style list
 * loaded from the service when its dropdown opens, whatever shape the service's answer takes, and
 * the clear errors when the answer lacks the group, holds nothing usable, or cannot be had.
 */
import nock from 'nock';
import type { INodeProperties } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { API_KEY, BASE, api, envelope, recorded } from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { SERVICE_DEFAULT, loadOptions } from './helpers/editor';
import { CDN } from './helpers/ideal-house';

eachTestOnAFreshWire();

describe('option lists loaded in the editor', () => {
	const STYLES = '/api/v1/style/change_furniture/getStyles';
	const option = (en: string, id: string) => ({
		name: { en, zh: '中文' },
		id,
		url: `${CDN}/styles/${id}.png`,
	});

	/** Style Config answers with this data, in its envelope. */
	const answerStyles = (data: unknown) =>
		api()
			.get(STYLES)
			.reply(200, envelope(JSON.stringify(data)));
	/** The Change Furniture field of this group's option list, as the editor loads it. */
	const loadFurniture = (group: string) =>
		loadOptions(`styles__change_furniture__${group}`, {
			resource: 'changeFurniture',
			operation: 'create',
		});

	test('the node has one loader per loaded field, each named after its style key and group', () => {
		const methods = new IdealHouse().description.properties
			.map((property: INodeProperties) => property.typeOptions?.loadOptionsMethod)
			.filter(Boolean);
		expect(Object.keys(new IdealHouse().methods.loadOptions).sort()).toEqual(
			[...new Set(methods)].sort(),
		);
		expect(methods).toEqual(
			expect.arrayContaining([
				'styles__landscaping__gardenStyle',
				'styles__landscaping__elements',
				'styles__interoir_remodel__roomType',
				'styles__change_furniture__elements',
				'styles__home_decor_ideas__decorStyle',
				'styles__ai_plan_visualizer__view',
			]),
		);
	});

	test('a group named by its name beside another text field (such as its selection type)', async () => {
		answerStyles([
			{ type: 'single', name: 'roomType', options: [option('Living Room', 'r1')] },
			{
				type: 'multiple',
				name: 'elements',
				options: [option('Sofa', 'e1'), option('Rug', 'e2')],
			},
		]);

		const options = await loadFurniture('elements');

		expect(options.map(({ name, value }) => ({ name, value }))).toEqual([
			{ name: 'Sofa', value: 'e1' },
			{ name: 'Rug', value: 'e2' },
		]);
	});

	test('a group in another nesting and with names in a list of languages', async () => {
		answerStyles({
			groups: [
				{
					groupName: 'style',
					list: [
						{
							name: [
								{ lang: 'zh', value: '北欧风' },
								{ lang: 'en', value: 'Scandinavian' },
							],
							id: 's1',
						},
						{ name: 'Japandi', id: 7 },
					],
				},
			],
		});

		const options = await loadFurniture('style');

		expect(options).toEqual([
			SERVICE_DEFAULT,
			{ name: 'Scandinavian', value: 's1' },
			{ name: 'Japandi', value: '7' },
		]);
		expect(recorded).toHaveLength(1);
		expect(recorded[0]).toMatchObject({ method: 'GET', path: STYLES });
		expect(recorded[0].headers.apikey).toBe(API_KEY);
	});

	test('the English name and the id of each option, with its preview', async () => {
		answerStyles({ roomType: [option('Living Room', 'a1'), option('Bedroom', 'b2')] });

		const options = await loadFurniture('roomType');

		// A single choice starts with the entry that sends nothing, so that the empty default is listed.
		expect(options).toEqual([
			SERVICE_DEFAULT,
			{ name: 'Living Room', value: 'a1' },
			{ name: 'Bedroom', value: 'b2' },
		]);
	});

	test('a group the answer does not hold is a clear error naming the groups it found', async () => {
		answerStyles({
			categories: [option('Sofa', 'x1')],
			rooms: { items: [option('Living Room', 'x2')] },
		});

		await expect(loadFurniture('elements')).rejects.toThrow(
			'No group "elements" in the change_furniture options (found: categories, rooms)',
		);
	});

	test('a long or untidy answer: ids once, entries without one dropped, names cut, at most 500', async () => {
		const many = Array.from({ length: 1200 }, (_, i) => option(`Room ${i}`, `r${i}`));
		const untidy = [
			{ name: { en: 'No id' }, url: `${CDN}/styles/none.png` },
			option('Blank id', '  '),
			option('First a1', 'a1'),
			option('Again a1', 'a1'),
			option('x'.repeat(300), 'long'),
			...many,
		];
		answerStyles({ roomType: untidy });

		const options = await loadFurniture('roomType');

		expect(options).toHaveLength(1 + 500);
		expect(options.slice(0, 4)).toEqual([
			SERVICE_DEFAULT,
			{ name: 'First a1', value: 'a1' },
			{ name: `${'x'.repeat(79)}…`, value: 'long' },
			{ name: 'Room 0', value: 'r0' },
		]);
		expect(options[500]).toEqual({ name: 'Room 497', value: 'r497' });
		// No entry carries a preview address as its description.
		expect(options.slice(1).every((entry) => entry.description === undefined)).toBe(true);
	});

	test('a group with no usable entry is an error naming the group, not an empty list', async () => {
		answerStyles({ roomType: [{ name: { en: 'No id' } }, { id: '' }, 'text'] });

		await expect(loadFurniture('roomType')).rejects.toThrow(
			'The "roomType" group of the change_furniture options has no entry with an ID (3 entries in the answer)',
		);
	});

	test('an invalid key: the service code in the error, and the key in no message', async () => {
		api()
			.get(STYLES)
			.reply(200, envelope('null', 5002, 'invalid API key'));

		const failure = await loadFurniture('style').catch((error: Error) => error);

		expect(failure).toBeInstanceOf(Error);
		expect((failure as Error).message).toBe(
			'Ideal House answered code 5002, the API key is missing or not valid: "invalid API key"',
		);
		expect(JSON.stringify(failure)).not.toContain(API_KEY);
	});

	test('the service out of reach: a clear error that says an ID can still be typed', async () => {
		nock(BASE).get(STYLES).replyWithError('connect ECONNREFUSED');

		const failure = (await loadFurniture('style').catch((error: unknown) => error)) as Error & {
			description?: string;
		};

		expect(failure.message).toMatch(
			/^Could not load the change_furniture options from Ideal House$/,
		);
		expect(failure.description).toMatch(/type an ID using an expression/);
	});
});

/**
 * Settings that come from expressions: n8n evaluates `={{ … }}` as the node reads the parameter,
 * and nothing converts the result to the field's type. The guardrails (Credit Limit, Preview) and
 * every other setting that decides what is sent or spent read it by one rule: a value that cannot
 * be read is an item error with nothing sent; never "no limit", never "off".
 */

import { runNode } from './helpers/engine';
import {
	PE,
	answerCreates,
	api,
	recorded,
	requestsTo,
	resetWire,
	taskResponse,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance } from './helpers/params';

eachTestOnAFreshWire();

/** A value as an expression gives it: n8n hands the node the expression's result as it is. */
function asExpression(value: unknown): string {
	if (value === undefined) return '={{ $json.missing }}';
	if (Number.isNaN(value)) return '={{ $json.missing * 1 }}';
	if (value === Number.POSITIVE_INFINITY) return '={{ 1 / 0 }}';
	return `={{ ${JSON.stringify(value)} }}`;
}

describe('the reading rule, value by value, as the Credit Limit and Preview meet it', () => {
	/** One 10-credit item previewed under this Credit Limit: its error, if it has one. */
	async function previewUnderLimit(limit: unknown): Promise<string | undefined> {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { preview: true, creditLimit: asExpression(limit) } }),
			onError: 'continueRegularOutput',
		});
		expect(recorded).toEqual([]);
		return items[0].json.error as string | undefined;
	}

	test.each([
		[0, 0],
		[20, 20],
		[2.5, 2.5],
		[1e3, 1000],
		['20', 20],
		[' 20 ', 20],
		['0', 0],
		['2.5', 2.5],
		['.5', 0.5],
		['7.', 7],
	])('the number %p reads as %p', async (value, read) => {
		const error = await previewUnderLimit(value);
		if (read === 0 || read >= 10) expect(error).toBeUndefined();
		else expect(error).toMatch(new RegExp(`^'Credit Limit' of ${read} credits? reached`));
	});

	test.each([
		[undefined, 'nothing (an expression on a missing field?)'],
		[null, 'null'],
		['', 'an empty text'],
		['   ', 'a blank text'],
		['twenty', 'the text "twenty"'],
		['0x10', 'the text "0x10"'],
		['1e400', 'the text "1e400"'],
		['1e3', 'the text "1e3"'],
		['-5', 'the text "-5"'],
		['+5', 'the text "+5"'],
		['5 credits', 'the text "5 credits"'],
		[Number.NaN, 'NaN'],
		[-1, '-1'],
		[Number.POSITIVE_INFINITY, 'Infinity'],
		[true, 'true'],
		[[5], 'a list'],
		[{ limit: 5 }, 'a value of type object'],
		['a secret pasted by mistake into this field', 'a text'],
	])('%p is no number: %s', async (value, problem) => {
		expect(await previewUnderLimit(value)).toBe(
			`'Credit Limit' must be a number of credits, 0 or more (got ${problem}) [item 0]`,
		);
	});

	/** One item under this Preview: what went out, and its error if it has one. */
	async function withPreview(preview: unknown) {
		answerCreates(1);
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({
				waitForCompletion: false,
				options: { preview: asExpression(preview) },
			}),
			onError: 'continueRegularOutput',
		});
		return { sent: recorded.length, error: items[0].json.error };
	}

	test.each([
		[true, true],
		[false, false],
		['true', true],
		['false', false],
		[' TRUE ', true],
		['False', false],
		[1, true],
		[0, false],
		['1', true],
		['0', false],
		[' 1 ', true],
	])('the switch %p reads as %p', async (value, on) => {
		expect(await withPreview(value)).toEqual({ sent: on ? 0 : 1, error: undefined });
	});

	test.each([
		[undefined, 'nothing (an expression on a missing field?)'],
		[null, 'null'],
		['', 'an empty text'],
		['yes', 'the text "yes"'],
		['on', 'the text "on"'],
		[2, '2'],
		[-1, '-1'],
		[Number.NaN, 'NaN'],
		['truee', 'the text "truee"'],
	])('%p is no switch: %s', async (value, problem) => {
		expect(await withPreview(value)).toEqual({
			sent: 0,
			error: `'Preview (Send Nothing)' must be on or off (true or false) (got ${problem}) [item 0]`,
		});
	});
});

const PHOTO = 'https://photos.example.com/listing/room.jpg';
const threePhotos = [0, 1, 2].map((index) => ({
	json: { url: `https://photos.example.com/listing/${index}.jpg`, field: 'value' },
}));

/** The Photo Enhancer on each item's photo, not waiting, with the given options. */
const enhanceEach = (options: Record<string, unknown>, parameters: Record<string, unknown> = {}) =>
	enhance({ imageUrl: '={{ $json.url }}', waitForCompletion: false, options, ...parameters });

describe('Credit Limit from an expression', () => {
	test.each([
		['a missing field', '={{ $json.missing }}', 'nothing (an expression on a missing field?)'],
		['an empty text', '={{ "" }}', 'an empty text'],
		['null', '={{ null }}', 'null'],
		['a blank text', '={{ "  " }}', 'a blank text'],
		['text', '={{ "ten" }}', 'the text "ten"'],
		['hex', '={{ "0x10" }}', 'the text "0x10"'],
		['NaN', '={{ $json.missing * 1 }}', 'NaN'],
		['a negative number', '={{ -5 }}', '-5'],
		['Infinity', '={{ 1 / 0 }}', 'Infinity'],
		['1e400 as text', '={{ "1e400" }}', 'the text "1e400"'],
	])('%s is an item error for every item, and no create is sent', async (_case, limit, got) => {
		answerCreates(3);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: limit }),
			items: threePhotos,
			onError: 'continueRegularOutput',
		});

		expect(recorded).toEqual([]);
		expect(items.map((item) => item.json.error)).toEqual(
			[0, 1, 2].map(
				(index) =>
					`'Credit Limit' must be a number of credits, 0 or more (got ${got}) [item ${index}]`,
			),
		);
		expect(items[0].json.details).toEqual({
			description:
				'0 means no limit. An expression here must give a number. Nothing was sent or charged.',
		});
	});

	test('without Continue on Fail the node fails at the first item, with nothing sent', async () => {
		answerCreates(3);

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: '={{ $json.limit }}' }),
			items: threePhotos,
		});

		expect(error?.message).toBe(
			"'Credit Limit' must be a number of credits, 0 or more (got nothing (an expression on a missing field?)) [item 0]",
		);
		expect(recorded).toEqual([]);
	});

	test('a limit given as text is a limit: "20" lets two 10-credit creates go, not the third', async () => {
		answerCreates(3);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhanceEach({ creditLimit: '={{ "20" }}' }),
			items: threePhotos,
			onError: 'continueRegularOutput',
		});

		expect(requestsTo(PE.create)).toHaveLength(2);
		expect(items.map((item) => item.json.id ?? item.json.error)).toEqual([
			'81',
			'82',
			expect.stringMatching(/^'Credit Limit' of 20 credits reached/),
		]);
	});

	test('only a real 0 means no limit: 0 and "0" send all three', async () => {
		for (const limit of [0, '={{ "0" }}']) {
			resetWire();
			answerCreates(3);
			const { items } = await runNode({
				node: 'photoEnhancer',
				parameters: enhanceEach({ creditLimit: limit }),
				items: threePhotos,
			});
			expect(items.map((item) => item.json.id)).toEqual(['81', '82', '83']);
		}
	});
});

describe('Preview from an expression', () => {
	test.each([
		['"true"', '={{ "true" }}'],
		['1', '={{ 1 }}'],
		['" TRUE "', '={{ " TRUE " }}'],
		['"1"', '={{ "1" }}'],
		["a webhook's ?dryRun=true", '={{ $json.query.dryRun }}'],
	])('%s is on: every item is previewed and nothing is sent', async (_case, preview) => {
		answerCreates(3);

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: PHOTO, options: { preview } }),
			items: [{ json: { query: { dryRun: 'true' } } }],
		});

		expect(error).toBeUndefined();
		expect(recorded).toEqual([]);
		expect(items[0].json.preview).toMatchObject({
			method: 'POST',
			path: PE.create,
			credits: 10,
		});
	});

	test.each([
		['"false"', '={{ "false" }}'],
		['0', '={{ 0 }}'],
	])('%s is off: the create is sent', async (_case, preview) => {
		answerCreates(3);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: PHOTO, waitForCompletion: false, options: { preview } }),
		});

		expect(requestsTo(PE.create)).toHaveLength(1);
		expect(items[0].json.id).toBe('81');
	});

	test.each([
		['a missing field', '={{ $json.query.dryRun }}', 'nothing (an expression on a missing field?)'],
		['an empty text', '={{ "" }}', 'an empty text'],
		['"yes"', '={{ "yes" }}', 'the text "yes"'],
		['2', '={{ 2 }}', '2'],
	])('%s cannot be read, so it is an item error: never "off"', async (_case, preview, got) => {
		answerCreates(3);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: PHOTO, options: { preview } }),
			items: [{ json: { query: {} } }],
			onError: 'continueRegularOutput',
		});

		expect(recorded).toEqual([]);
		expect(items[0].json).toEqual({
			error: `'Preview (Send Nothing)' must be on or off (true or false) (got ${got}) [item 0]`,
			details: {
				description:
					'An expression here must give true or false (1 or 0 also do). Nothing was sent or charged.',
			},
		});
	});
});

describe('the other settings that decide what is sent or spent', () => {
	test.each([
		[
			'Timeout (Seconds)',
			{ timeout: '={{ "" }}' },
			'a positive number of seconds',
			'an empty text',
		],
		['Timeout (Seconds)', { timeout: '={{ "0" }}' }, 'a positive number of seconds', '0'],
		[
			'Poll Interval (Seconds)',
			{ pollInterval: '={{ null }}' },
			'a positive number of seconds',
			'null',
		],
		[
			'Max Requests per Second',
			{ maxRequestsPerSecond: '={{ "  " }}' },
			'a number above 0',
			'a blank text',
		],
		[
			'Download Result',
			{ downloadResult: '={{ "yes" }}' },
			'on or off (true or false)',
			'the text "yes"',
		],
		[
			'On Timeout',
			{ onTimeout: '={{ "skip" }}' },
			'one of fail, returnLastStatus',
			'the text "skip"',
		],
	])(
		'%s from an expression that cannot be read: nothing is sent',
		async (field, options, expected, got) => {
			answerCreates(3);

			const { error } = await runNode({
				node: 'photoEnhancer',
				parameters: enhance({ imageUrl: PHOTO, options }),
			});

			expect(error?.message).toBe(`'${field}' must be ${expected} (got ${got}) [item 0]`);
			expect(recorded).toEqual([]);
		},
	);

	test('Wait for Completion from an expression that cannot be read: nothing is sent', async () => {
		answerCreates(3);

		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: PHOTO, waitForCompletion: '={{ $json.wait }}' }),
		});

		expect(error?.message).toBe(
			"'Wait for Completion' must be on or off (true or false) (got nothing (an expression on a missing field?)) [item 0]",
		);
		expect(recorded).toEqual([]);
	});

	test('\'Wait for Completion\' "false" from a webhook does not wait; "1" waits', async () => {
		answerCreates(3);
		api().get(PE.result).query(true).reply(200, taskResponse('82'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ imageUrl: PHOTO, waitForCompletion: '={{ $json.wait }}' }),
			items: [{ json: { wait: 'false' } }, { json: { wait: '1' } }],
		});

		expect(items.map((item) => item.json.status)).toEqual(['Unprocessed', 'Success']);
		expect(requestsTo(PE.result)).toHaveLength(1);
	});
});

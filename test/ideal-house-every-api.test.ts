/**
 * Every API of the Ideal House AI node when an item does not simply succeed, with nock on the
 * wire: Continue on Fail and the error output keep each item linked and name the task and its
 * cost, Stop names the task it was waiting for and sends nothing more, and the tool variant
 * hands a model compact JSON, for each API the node offers.
 */
import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { runNode } from './helpers/engine';
import {
	BIG_ID,
	DONE,
	queued,
	quietAfterStop,
	recorded,
	refuseCreates,
	running,
	serveTask,
} from './helpers/api';
import {
	PHOTO,
	CDN,
	UNLISTED,
	paths,
	create,
	answerTask,
	expectCreateThenPolls,
	asTool,
} from './helpers/ideal-house';
import { eachTestOnAFreshWire } from './helpers/journey';
import { runStoppedInWait } from './helpers/run';

eachTestOnAFreshWire();

describe('Continue on Fail', () => {
	test('each item keeps its link; an item whose task existed names it and what it cost', async () => {
		// The creates are answered in the order they come: 71, then 9051, then 73.
		serveTask(paths('landscaping'), '71', DONE);
		refuseCreates(paths('landscaping'), 9051, 'COINS_NOT_ENOUGH');
		serveTask(paths('landscaping'), '73', { ...running(60), times: 5 });

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: create('landscaping', {
				imageUrl: '={{ $json.url }}',
				modelType: '={{ $json.model }}',
				options: { timeout: 12, pollInterval: 3 },
			}),
			items: [
				{ json: { url: 'https://p.example.com/1.jpg', model: 'Pro' } },
				{ json: { url: 'not a url', model: 'Pro' } },
				{ json: { url: 'https://p.example.com/3.jpg', model: '' } },
				{ json: { url: 'https://p.example.com/4.jpg', model: 'Flash' } },
			],
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		// The bad URL was never sent: three creates, in item order.
		expect(recorded.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
			{ imageUrl: 'https://p.example.com/1.jpg', modelType: 'Pro' },
			{ imageUrl: 'https://p.example.com/3.jpg' },
			{ imageUrl: 'https://p.example.com/4.jpg', modelType: 'Flash' },
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json).toMatchObject({ id: '71', status: 'Success', creditsCharged: 10 });
		expect(items[1].json).toEqual({
			error: '\'Image URL\' must be an absolute http(s) URL (got "not a url") [item 1]',
			details: { description: expect.stringContaining('full public address') },
		});
		expect(items[2].json).toEqual({
			error:
				'Ideal House refused the task: the account does not have enough credits: code 9051, "COINS_NOT_ENOUGH" [item 2]',
			details: {
				description:
					'Nothing was created or charged for this item. Top up credits in your Ideal House account. Then run the node again.',
			},
		});
		expect(items[3].json).toEqual({
			error: 'Task 73 did not finish within 12 s (last status Processing, 60%) [item 3]',
			details: {
				id: '73',
				creditsCharged: 1,
				description: expect.stringContaining('Get Result operation and task ID 73'),
			},
		});
	});
});

describe('the error output', () => {
	test('with On Error = error output, a refused item and a Failed task go there, linked; the rest stays', async () => {
		serveTask(paths('planVisualizer'), '74', DONE);
		serveTask(paths('planVisualizer'), '75', { status: 'Failed' });

		const { items, errorItems, error } = await runNode({
			node: 'idealHouse',
			parameters: create('planVisualizer', { modelType: '={{ $json.model }}' }),
			items: [{ json: { model: 'Pro' } }, { json: { model: 'Ultra' } }, { json: { model: '' } }],
			onError: 'continueErrorOutput',
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json.id, item.json.creditsCharged, item.pairedItem])).toEqual([
			['74', 10, { item: 0 }],
		]);
		expect(errorItems.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(errorItems[0].json).toEqual({
			error: '\'Model Type\' must be one of Base, Pro (got "Ultra") [item 1]',
			details: { description: expect.any(String) },
		});
		expect(errorItems[1].json).toEqual({
			error:
				'Ideal House Plan Visualizer task 75 ended with status "Failed": its 3 credits were refunded automatically [item 2]',
			details: { id: '75', creditsCharged: 0, description: expect.any(String) },
		});
	});
});

describe('Stop', () => {
	test('while waiting for a task, the error names the task', async () => {
		serveTask(paths('homeDecor'), BIG_ID, { ...running(30), times: 1000 });

		// Stop is pressed as the wait after the second status check begins.
		const { error, items } = await runStoppedInWait(
			{ node: 'idealHouse', parameters: create('homeDecor', { modelType: 'Pro' }) },
			2,
		);

		expect(items).toEqual([]);
		expect(error?.message).toBe(`Execution stopped while waiting for task ${BIG_ID} [item 0]`);
		// One create, then only status checks of that task, and none once stopped.
		expect(recorded[0]).toMatchObject({ method: 'POST', path: paths('homeDecor').create });
		expect(recorded[0].body).toEqual({ imageUrl: PHOTO, modelType: 'Pro' });
		const polls = recorded.slice(1);
		expect(polls.length).toBeGreaterThan(0);
		expect(polls.every((r) => r.method === 'GET' && r.query.taskId === BIG_ID)).toBe(true);
		await quietAfterStop(() => recorded.length);
	});

	test('with Continue on Fail, the stopped item names its task and its cost, and the run is cancelled', async () => {
		serveTask(paths('landscaping'), '91', { ...queued(3), times: 1000 });

		const { error, items, run } = await runStoppedInWait(
			{
				node: 'idealHouse',
				parameters: create('landscaping', { modelType: 'Flash' }),
				onError: 'continueRegularOutput',
			},
			2,
		);

		expect(run.status).toBe('canceled');
		expect(error?.message).toBe('The execution was cancelled manually');
		expect(items).toEqual([
			{
				json: {
					error: 'Execution stopped while waiting for task 91 [item 0]',
					details: {
						id: '91',
						creditsCharged: 1,
						description:
							'The task keeps running on the service. Fetch it later with the Get Result operation and task ID 91.',
					},
				},
				pairedItem: { item: 0 },
			},
		]);
		await quietAfterStop(() => recorded.length);
	});
});

describe('each API: as a tool, with Continue on Fail, and on Stop', () => {
	const tool = asTool(new IdealHouse());
	const EACH: Array<[string, Record<string, unknown>, string, string, number | null]> = [
		// resource, parameters, API in the path, label, credits
		['virtualStaging', {}, 'virtualStaging', 'Virtual Staging', 1],
		['exteriorRenovator', {}, 'exteriorRenovator', 'Exterior Renovator', 1],
		['landscaping', { modelType: 'Pro' }, 'landscaping', 'Landscaping', 10],
		['interiorRemodel', {}, 'interiorRemodel', 'Interior Remodel', 1],
		['changeFurniture', {}, 'changeFurniture', 'Change Furniture', 1],
		['homeDecor', {}, 'homeDecor', 'Home Decor', 3],
		['magicEditor', { modelType: 'Base', prompt: 'Tidy up' }, 'magicEditor', 'Magic Editor', 3],
		['planVisualizer', { modelType: 'Pro' }, 'planVisualizer', 'Plan Visualizer', 10],
		[
			'custom',
			{ imageUrl: '', apiName: UNLISTED, extraBody: `{"imageUrl": "${PHOTO}"}` },
			UNLISTED,
			UNLISTED,
			null,
		],
	];
	const refundNote = (credits: number | null) =>
		credits === null
			? 'its credits, if any, were refunded automatically'
			: `its ${credits} credit${credits === 1 ? ' was' : 's were'} refunded automatically`;

	test.each(EACH)(
		'%s as a tool: compact JSON',
		async (resource, parameters, name, _label, credits) => {
			answerTask(name, '101');

			const { items, error } = await runNode({
				node: tool,
				parameters: create(resource, parameters),
			});

			expect(error).toBeUndefined();
			expectCreateThenPolls(name, '101');
			expect(items).toEqual([
				{
					json: {
						id: '101',
						status: 'Success',
						resultUrl: `${CDN}/r/101.png`,
						width: 1600,
						height: 1200,
						creditsCharged: credits,
					},
					pairedItem: { item: 0 },
				},
			]);
		},
	);

	test.each(EACH)(
		'%s with Continue on Fail: a Failed task and a refused item, each linked',
		async (resource, parameters, name, label, credits) => {
			answerTask(name, '102', { status: 'Failed' });

			const { items, error } = await runNode({
				node: 'idealHouse',
				parameters: create(resource, {
					...parameters,
					...(resource === 'custom'
						? { apiName: `={{ $json.ok ? "${UNLISTED}" : "no/such" }}` }
						: { imageUrl: `={{ $json.ok ? "${PHOTO}" : "ftp://x.example.com/a.jpg" }}` }),
				}),
				items: [{ json: { ok: false } }, { json: { ok: true } }],
				onError: 'continueRegularOutput',
			});

			expect(error).toBeUndefined();
			expect(recorded.filter((r) => r.method === 'POST')).toHaveLength(1);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(items[0].json.error).toBe(
				resource === 'custom'
					? "'API Name' must be the API's name as it appears in its path, letters and digits only (got \"no/such\") [item 0]"
					: '\'Image URL\' must be an absolute http(s) URL (got "ftp://x.example.com/a.jpg") [item 0]',
			);
			expect(items[0].json.details).not.toHaveProperty('id');
			expect(items[1].json).toEqual({
				error: `Ideal House ${label} task 102 ended with status "Failed": ${refundNote(credits)} [item 1]`,
				details: { id: '102', creditsCharged: 0, description: expect.any(String) },
			});
		},
	);

	test.each(EACH)('%s on Stop: the error names the task', async (resource, parameters, name) => {
		serveTask(paths(name), '103', { ...running(10), times: 1000 });

		const { items, error } = await runStoppedInWait(
			{ node: 'idealHouse', parameters: create(resource, parameters) },
			2,
		);

		expect(items).toEqual([]);
		expect(error?.message).toBe('Execution stopped while waiting for task 103 [item 0]');
		await quietAfterStop(() => recorded.length);
	});
});

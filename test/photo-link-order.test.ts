/**
 * A photo that is a file gets its link only when its create may go: in the item's turn, right
 * before the create, never for an item its turn refuses. In n8n's engine, Ideal House answered by
 * nock, n8n-core's binary data service in filesystem mode. With Wait for Completion off, every
 * file is copied under the execution's own id as its link is made, so the copies count the links.
 */
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import { runNode } from './helpers/engine';
import { gradientPng } from '../service/png';
import {
	DONE,
	PE,
	api,
	created,
	answerCreates,
	recorded,
	refuseCreates,
	serveTask,
} from './helpers/api';
import { filesForThisFile } from './helpers/binary-store';
import { eachTestOnAFreshWire } from './helpers/journey';
import { REST, linksIn, opened, storedItem } from './helpers/n8n-links';

const files = filesForThisFile();
eachTestOnAFreshWire();

const PHOTO = gradientPng(320, 240, [40, 90, 160], [240, 200, 120]);

const photoItems = async (count: number) =>
	await Promise.all(
		Array.from({ length: count }, (_, index) =>
			storedItem(files, { photo: PHOTO }, undefined, { index }),
		),
	);

/** The Photo Enhancer (10 credits a task) on the item's photo file, not waiting. */
const enhanceFile = (parameters: Record<string, unknown> = {}) => ({
	operation: 'enhance',
	imageSource: 'binary',
	imageBinaryProperty: 'photo',
	presetId: 'sky-replacement-sunset-sky',
	imageSize: '2K',
	waitForCompletion: false,
	...parameters,
});

/** The Photo Enhancer on `count` items, each one photo, with these options; errors stay on the items. */
async function enhancePhotos(count: number, options: Record<string, unknown>) {
	return await enhance(await photoItems(count), options);
}

async function enhance(items: INodeExecutionData[], options: Record<string, unknown>) {
	return await runNode({
		node: 'photoEnhancer',
		restApiUrl: REST,
		parameters: enhanceFile({ options }),
		items,
		onError: 'continueRegularOutput',
	});
}

const creates = () => recorded.filter((request) => request.method === 'POST');
/** The copies made for links in this run, one per link. */
const copiesIn = (executionId: string) => files.storedUnder({ workflowId: 'wf-1', executionId });

describe('a link is made only when its create may go', () => {
	test('an item whose price alone passes the Credit Limit gets no link', async () => {
		answerCreates(1);

		const { items, executionId } = await enhancePhotos(1, { creditLimit: 5 });

		expect(items[0].json.error).toMatch(/^'Credit Limit' of 5 credits reached/);
		expect(copiesIn(executionId)).toEqual([]);
		expect(creates()).toEqual([]);
	});

	test('a limit of 10 and three photos: one link, for the one create', async () => {
		answerCreates(3);

		const { items, executionId } = await enhancePhotos(3, { creditLimit: 10 });

		// The items' photo checks run side by side: whichever item takes its turn first is created.
		const outcomes = items.map((item) => item.json.id ?? item.json.error);
		expect(outcomes.filter((outcome) => outcome === '81')).toHaveLength(1);
		expect(outcomes.filter((outcome) => outcome !== '81')).toEqual([
			expect.stringMatching(/^'Credit Limit' of 10 credits reached/),
			expect.stringMatching(/^'Credit Limit' of 10 credits reached/),
		]);
		expect(copiesIn(executionId)).toHaveLength(1);
		expect(creates()).toHaveLength(1);
		const sent = await opened(files, linksIn(creates()[0].body)[0]);
		expect(sent.id).toContain(`/executions/${executionId}/`);
		expect(sent.bytes.equals(PHOTO)).toBe(true);
	});

	test('after a 9051, the items held back get no link', async () => {
		refuseCreates(PE, 9051, 'coins not enough');

		// One request a second: the second and third items wait their turn behind the first.
		const { items, executionId } = await enhancePhotos(3, { maxRequestsPerSecond: 1 });

		expect(items.map((item) => item.json.error)).toEqual([
			expect.stringMatching(/^Ideal House refused the task: .*code 9051/),
			expect.stringMatching(
				/^Ideal House refused an earlier task .*this item was not sent \[item 1\]$/,
			),
			expect.stringMatching(
				/^Ideal House refused an earlier task .*this item was not sent \[item 2\]$/,
			),
		]);
		expect(creates()).toHaveLength(1);
		expect(copiesIn(executionId)).toHaveLength(1);
	});

	test('a link n8n could not make gives its credits back: the next photo within the limit goes', async () => {
		answerCreates(2);
		const items = await photoItems(2);
		const service = files.service;
		const store = service.store.bind(service);
		let failed = false;
		service.store = async (...args) => {
			if (failed) return await store(...args);
			failed = true;
			throw new Error('ENOSPC: no space left on device, write');
		};

		try {
			// One request a second: the second item's turn comes once the first has ended.
			const { items: out } = await enhance(items, { creditLimit: 10, maxRequestsPerSecond: 1 });

			// Whichever item's link n8n could not store, its credits came back for the other one.
			const outcomes = out.map((item) => item.json.id ?? item.json.error);
			expect(outcomes).toContain('81');
			expect(outcomes.find((outcome) => outcome !== '81')).toMatch(
				/^n8n could not make the link to the photo \[item [01]\]$/,
			);
			expect(creates()).toHaveLength(1);
		} finally {
			service.store = store;
		}
	});
});

describe("the link is made in the item's turn, right before its create", () => {
	test("two items at one request a second: both files checked first, then each link just before its item's create", async () => {
		const events: string[] = [];
		const service = files.service as unknown as {
			createSignedToken(data: IBinaryData, expiresIn?: string): string;
		};
		const sign = service.createSignedToken.bind(service);
		service.createSignedToken = (data, expiresIn) => {
			// The check reads n8n's address from a link signed for a second and dropped.
			events.push(expiresIn === '1s' ? 'address read' : 'link made');
			return sign(data, expiresIn);
		};
		let next = 81;
		api()
			.post(PE.create)
			.times(2)
			.reply(200, () => {
				events.push('create');
				return created(String(next++));
			});

		try {
			const { items } = await enhancePhotos(2, { maxRequestsPerSecond: 1 });

			expect(items.map((item) => item.json.id)).toEqual(['81', '82']);
			expect(events).toEqual([
				'address read',
				'address read',
				'link made',
				'create',
				'link made',
				'create',
			]);
		} finally {
			service.createSignedToken = sign;
		}
	});
});

describe('a task the node leaves unfinished: the item says until when its photo can be fetched', () => {
	test('On Timeout = Output the Last Status, a task that finished: nothing to say', async () => {
		serveTask(PE, '91', DONE);

		const { items } = await runNode({
			node: 'photoEnhancer',
			restApiUrl: REST,
			parameters: enhanceFile({
				waitForCompletion: true,
				options: { timeout: 30, onTimeout: 'returnLastStatus' },
			}),
			items: await photoItems(1),
		});

		expect(items[0].json).toMatchObject({ id: '91', status: 'Success' });
		expect(items[0].json).not.toHaveProperty('photoLink');
	});
});

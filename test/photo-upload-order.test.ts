/**
 * A photo that is a file leaves n8n only when its create may go, and stays where the service can
 * still fetch it while its task is unfinished. In n8n's engine, Ideal House answered by nock, the
 * bucket a real S3-compatible store on loopback (every request recorded).
 */

import { runNode } from '../dev/harness/engine';
import { gradientPng } from '../service/png';
import { DONE, PE, answerCreates, queued, recorded, refuseCreates, serveTask } from './helpers/api';
import type { TestStorage } from './helpers/s3-storage';
import { eachTestWithStorage } from './helpers/journey';

const PHOTO = gradientPng(320, 240, [40, 90, 160], [240, 200, 120]);
const DAY_SECONDS = 24 * 60 * 60;

let storage: TestStorage;
eachTestWithStorage((started) => (storage = started));

const photoItems = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		json: { index },
		binary: {
			photo: { data: PHOTO.toString('base64'), mimeType: 'image/png', fileName: `${index}.png` },
		},
	}));

/** The Photo Enhancer (10 credits a task) on the item's photo file. */
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
const photosToEnhance = (count: number, options: Record<string, unknown>) => ({
	node: 'photoEnhancer' as const,
	parameters: enhanceFile({ options }),
	items: photoItems(count),
	storageCredentials: storage.credentials,
	onError: 'continueRegularOutput' as const,
});

/** The Photo Enhancer on one item holding the photo. */
const onePhotoToEnhance = (parameters: Record<string, unknown>) => ({
	node: 'photoEnhancer' as const,
	parameters: enhanceFile(parameters),
	items: photoItems(1),
	storageCredentials: storage.credentials,
});

const puts = () => storage.requests.filter((request) => request.method === 'PUT');
const deletes = () => storage.requests.filter((request) => request.method === 'DELETE');
const creates = () => recorded.filter((request) => request.method === 'POST');
const keyOf = (path: string) => path.replace(`/${storage.bucket}/`, '');

/** The lifetime the service's link was signed for, read from the link a create carried. */
function linkSeconds(index = 0): number {
	const body = creates()[index].body as { imageUrl: string };
	return Number(new URL(body.imageUrl).searchParams.get('X-Amz-Expires'));
}

describe('a photo leaves n8n only when its create may go', () => {
	test('an item whose price alone passes the Credit Limit uploads nothing', async () => {
		answerCreates(1);

		const { items } = await runNode(photosToEnhance(1, { creditLimit: 5 }));

		expect(items[0].json.error).toMatch(/^Credit Limit of 5 credits reached/);
		expect(storage.requests).toEqual([]);
		expect(creates()).toEqual([]);
	});

	test('a limit of 10 and three photos: one upload, for the one create', async () => {
		answerCreates(3);

		const { items } = await runNode(photosToEnhance(3, { creditLimit: 10 }));

		expect(items.map((item) => item.json.id ?? item.json.error)).toEqual([
			'81',
			expect.stringMatching(/^Credit Limit of 10 credits reached/),
			expect.stringMatching(/^Credit Limit of 10 credits reached/),
		]);
		expect(puts()).toHaveLength(1);
		expect(creates()).toHaveLength(1);
		expect((creates()[0].body as { imageUrl: string }).imageUrl).toContain(keyOf(puts()[0].path));
	});

	test('after a 9051, the items held back upload nothing', async () => {
		refuseCreates(PE, 9051, 'coins not enough');

		// One request a second: the second and third items wait their turn behind the first.
		const { items } = await runNode(photosToEnhance(3, { maxRequestsPerSecond: 1 }));

		expect(items.map((item) => item.json.error)).toEqual([
			expect.stringMatching(/^Ideal House error 9051/),
			expect.stringMatching(/^Ideal House error 9051 .*no request was sent for this item$/),
			expect.stringMatching(/^Ideal House error 9051 .*no request was sent for this item$/),
		]);
		expect(creates()).toHaveLength(1);
		// The first item's photo went up for its create, and was deleted when it was refused.
		expect(puts()).toHaveLength(1);
		expect(deletes().map((request) => request.path)).toEqual([puts()[0].path]);
	});

	test('a failed upload gives its credits back: the next photo within the limit goes', async () => {
		answerCreates(2);
		let failed = false;
		storage.fault = ({ method }) => {
			if (method !== 'PUT' || failed) return undefined;
			failed = true;
			return { status: 403, code: 'AccessDenied', message: 'Access Denied' };
		};

		// One request a second: the second item's turn comes once the first has ended.
		const { items } = await runNode(
			photosToEnhance(2, { creditLimit: 10, maxRequestsPerSecond: 1 }),
		);

		expect(items.map((item) => item.json.id ?? item.json.error)).toEqual([
			expect.stringMatching(/^Upload storage .*\(AccessDenied\)$/),
			'81',
		]);
		expect(puts()).toHaveLength(2);
		expect(creates()).toHaveLength(1);
	});
});

describe('a task the node leaves unfinished keeps its photo', () => {
	test('without waiting: the object is kept, the item says where, and the link lasts a day', async () => {
		answerCreates(1);
		// Links are signed by the real time, which the store checks.
		const before = Date.now();

		const { items } = await runNode(onePhotoToEnhance({ options: { timeout: 1 } }));

		expect(linkSeconds()).toBe(DAY_SECONDS);
		expect(items[0].json).toEqual({
			id: '81',
			status: 'Unprocessed',
			creditsCharged: 10,
			upload: {
				bucket: storage.bucket,
				keys: [keyOf(puts()[0].path)],
				expiresAt: expect.any(String),
			},
		});
		const expiresAt = Date.parse((items[0].json.upload as { expiresAt: string }).expiresAt);
		expect(expiresAt).toBeGreaterThanOrEqual(before + DAY_SECONDS * 1000 - 1000);
		expect(expiresAt).toBeLessThanOrEqual(Date.now() + DAY_SECONDS * 1000);
		expect(deletes()).toEqual([]);
	});

	test('On Timeout = Output the Last Status, a task still queued: the object is kept for it', async () => {
		serveTask(PE, '90', { ...queued(40), times: 100 });

		const { items } = await runNode(
			onePhotoToEnhance({
				waitForCompletion: true,
				options: { timeout: 30, onTimeout: 'returnLastStatus' },
			}),
		);

		expect(items[0].json).toMatchObject({ id: '90', status: 'Unprocessed', waitNumber: 40 });
		expect(items[0].json.upload).toMatchObject({ keys: [keyOf(puts()[0].path)] });
		expect(linkSeconds()).toBe(DAY_SECONDS);
		expect(deletes()).toEqual([]);
	});

	test('On Timeout = Output the Last Status, a task that finished: the object is deleted', async () => {
		serveTask(PE, '91', DONE);

		const { items } = await runNode(
			onePhotoToEnhance({
				waitForCompletion: true,
				options: { timeout: 30, onTimeout: 'returnLastStatus' },
			}),
		);

		expect(items[0].json).toMatchObject({ id: '91', status: 'Success' });
		expect(items[0].json.upload).toBeUndefined();
		expect(deletes().map((request) => request.path)).toEqual([puts()[0].path]);
	});

	test('waiting with On Timeout = Fail the Item: the link lasts the Timeout plus 5 minutes', async () => {
		serveTask(PE, '92', DONE);

		await runNode(onePhotoToEnhance({ waitForCompletion: true, options: { timeout: 60 } }));

		expect(linkSeconds()).toBe(360);
	});
});

/**
 * Photos that are files through n8n's own signed link, end to end: the nodes in n8n's engine,
 * n8n-core's binary data service in filesystem mode holding the files, a stand-in for n8n's
 * `/rest/binary-data/signed` built from n8n-core's own token check and file stream, and the
 * local service, which downloads each `imageUrl` itself. What the service fetched is compared with
 * the file byte for byte (by SHA-256).
 */
import { createHash } from 'node:crypto';

import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RunningService } from '../../service/server.ts';
import { runNode, type NodeName } from '../helpers/engine';
import { filesystemBinaryData } from '../helpers/binary-store';
import { startSignedLinkStandIn, type SignedLinkStandIn } from '../helpers/n8n-signed-links';
import {
	credentialsFor,
	eachTestOnTheLocalService,
	expectExactId,
	HDR_FROM_FILES,
	hdrBrackets,
	sampleBytes,
	tasksOf,
} from './helpers';

const files = filesystemBinaryData();
let service: RunningService;
let n8n: SignedLinkStandIn;
const samples: Record<string, Buffer> = {};

eachTestOnTheLocalService({}, async (started) => {
	service = started;
	await files.init();
	for (const name of [
		'living-room.png',
		'exterior.png',
		'bracket-1.png',
		'bracket-2.png',
		'bracket-3.png',
	]) {
		samples[name] = await sampleBytes(service, name);
	}
	n8n = await startSignedLinkStandIn(files.service);
});
afterAll(async () => {
	await n8n.close();
	files.close();
});
beforeEach(() => {
	n8n.fetches.length = 0;
	n8n.gone.clear();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function storedItem(named: Record<string, Buffer>): Promise<INodeExecutionData> {
	const binary: Record<string, IBinaryData> = {};
	for (const [name, bytes] of Object.entries(named)) {
		binary[name] = await files.store(bytes, `${name}.png`);
	}
	return { json: {}, binary };
}

/** A run of `node` on the local service, its photos the item's files, through n8n's link. */
async function runWithFiles(node: NodeName, parameters: IDataObject, item: INodeExecutionData) {
	return await runNode({
		node,
		restApiUrl: n8n.restApiUrl,
		credentials: credentialsFor(service),
		parameters: { imageSource: 'binary', ...parameters },
		items: [item],
	});
}

/** One item holding a sample photo under `property`, through `node` with Image Source = Binary File. */
async function runOnSample(
	sample: string,
	property: string,
	node: NodeName,
	parameters: IDataObject,
) {
	const photo = samples[sample];
	const item = await storedItem({ [property]: photo });
	const run = await runWithFiles(node, parameters, item);
	/** What n8n's link served: this one file, whole. */
	const servedWhole = { status: 200, id: item.binary![property].id, sha256: sha256(photo) };
	return { ...run, servedWhole };
}

describe("the local service fetches the photo from n8n's own link", () => {
	test('Object Remover: the service received the file itself, and the task is done', async () => {
		const { items, error, servedWhole } = await runOnSample(
			'living-room.png',
			'data',
			'objectRemover',
			{
				operation: 'remove',
				emptyType: 'whole_house',
			},
		);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'Success', creditsCharged: 1 });
		expect(n8n.fetches).toEqual([servedWhole]);
		const [task] = tasksOf(service);
		expect(String(task.imageUrl).startsWith(`${n8n.restApiUrl}/binary-data/signed?token=`)).toBe(
			true,
		);
	});

	test('Photo Enhancer: the service read this very photo, as its result shows', async () => {
		const { items, error, servedWhole } = await runOnSample(
			'exterior.png',
			'data',
			'photoEnhancer',
			{
				operation: 'enhance',
				presetId: 'sky-replacement-sunset-sky',
				imageSize: '1K',
			},
		);

		expect(error).toBeUndefined();
		const json = items[0].json as IDataObject;
		const id = expectExactId(json);
		expect(json).toMatchObject({ status: 'Success', creditsCharged: 10 });
		// The result keeps the source's aspect ratio: the service read this photo (1536 × 1024).
		expect(json.output).toMatchObject({ width: 1024, height: 683 });
		expect(tasksOf(service).map((task) => task.id)).toEqual([id]);
		expect(n8n.fetches).toEqual([servedWhole]);
	});

	test('Ideal House AI takes the file the same way', async () => {
		const { items, error, servedWhole } = await runOnSample(
			'living-room.png',
			'room',
			'idealHouse',
			{
				resource: 'virtualStaging',
				operation: 'create',
				imageBinaryProperty: 'room',
			},
		);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ status: 'Success', creditsCharged: 1 });
		expect(tasksOf(service).map((task) => task.kind)).toEqual(['virtualStaging']);
		expect(n8n.fetches).toEqual([servedWhole]);
	});

	test('without waiting, the service has fetched the file and the item says until when its link works', async () => {
		const photo = samples['living-room.png'];

		const { items } = await runWithFiles(
			'objectRemover',
			{ operation: 'remove', emptyType: 'whole_house', waitForCompletion: false },
			await storedItem({ data: photo }),
		);

		expect(items[0].json.status).toBe('Unprocessed');
		expect(n8n.fetches).toEqual([{ status: 200, id: expect.any(String), sha256: sha256(photo) }]);
		const record = items[0].json.photoLink as { address: string; expiresAt: string };
		expect(record.address).toBe(new URL(n8n.restApiUrl).origin);
		expect(Date.parse(record.expiresAt)).toBeGreaterThan(Date.now() + 23 * 60 * 60 * 1000);
	});

	test('Photo Enhancer HDR: three brackets, one task, each fetched whole', async () => {
		const brackets = hdrBrackets(samples);

		const { items, error } = await runWithFiles(
			'photoEnhancer',
			HDR_FROM_FILES,
			await storedItem(brackets),
		);

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('Success');
		expect(tasksOf(service)).toHaveLength(1);
		expect(n8n.fetches.map((fetch) => fetch.sha256).sort()).toEqual(
			Object.values(brackets).map(sha256).sort(),
		);
	});

	test('a file n8n no longer has: the service answers 1011, the item says what to check, no credit is spent', async () => {
		const item = await storedItem({ room: samples['living-room.png'] });
		n8n.gone.add(String(item.binary!.room.id));
		const balance = service.balance(service.apiKey);

		const { error } = await runWithFiles(
			'idealHouse',
			{ resource: 'virtualStaging', operation: 'create', imageBinaryProperty: 'room' },
			item,
		);

		expect(error?.message).toBe(
			`Ideal House could not download the photo that this n8n instance offered at ${new URL(n8n.restApiUrl).origin} [item 0]`,
		);
		expect(error?.description).toMatch(
			/Nothing was created or charged.*WEBHOOK_URL.*\/rest\/binary-data\/signed/s,
		);
		expect(error?.description).toContain('HTTP 404');
		expect(error?.description).not.toMatch(/token=(?!\[redacted\])/);
		expect(n8n.fetches).toEqual([{ status: 404, id: item.binary!.room.id }]);
		expect(tasksOf(service)).toEqual([]);
		expect(service.balance(service.apiKey)).toBe(balance);
	});
});

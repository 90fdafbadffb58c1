/**
 * Photos that are files, through n8n's own signed link, in n8n's engine: n8n-core's binary data
 * service in filesystem mode holds the files, Ideal House is answered by nock (every request
 * recorded), and each link the service is given is opened with n8n-core's own token check.
 */
import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import type { IdealHouseError } from '../nodes/shared/core/errors';
import { n8nLinks } from '../nodes/shared/photo-files/n8n-links';

import { logLines, runNode, type NodeName, type RunOptions } from './helpers/engine';
import {
	API_KEY,
	OR,
	PE,
	api,
	created,
	envelope,
	pathsOf,
	recorded,
	serveTask,
} from './helpers/api';
import { filesForThisFile, type FileLocation } from './helpers/binary-store';
import { jpegImage, pngImage } from './helpers/images';
import { itemContext } from './helpers/item-context';
import { eachTestOnAFreshWire } from './helpers/journey';
import {
	N8N,
	REST,
	SIGNED,
	claimsOf,
	opened as openedIn,
	storedItem as storedIn,
	tokenOf,
} from './helpers/n8n-links';
import { fromFile } from './helpers/params';

const files = filesForThisFile();
const journey = eachTestOnAFreshWire();

const VS = pathsOf('virtualStaging');
const PATHS = { photoEnhancer: PE, objectRemover: OR, idealHouse: VS };
const JPEG = jpegImage(640, 480);
const PNG = pngImage(800, 600);

const storedItem = (named: Record<string, Buffer>, location?: FileLocation) =>
	storedIn(files, named, location);
const opened = (link: string) => openedIn(files, link);

/** The node on these items, n8n at a public address. */
async function run(node: NodeName, items: INodeExecutionData[], more: Partial<RunOptions> = {}) {
	return await runNode({
		node,
		restApiUrl: REST,
		parameters: fromFile(node),
		items,
		...more,
	});
}

const creates = () => recorded.filter((request) => request.method === 'POST');
const bodyOf = (index = 0) => creates()[index].body as IDataObject;

describe("a photo file reaches Ideal House through n8n's own signed link, with nothing to set up", () => {
	test.each(['photoEnhancer', 'objectRemover', 'idealHouse'] as const)(
		"%s: the create names the link, which opens exactly the item's file for the Timeout, 5 minutes and a day",
		async (node) => {
			serveTask(PATHS[node], '71', { status: 'Success' });
			const item = await storedItem({ photo: JPEG });

			const { items, error } = await run(node, [item]);

			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ id: '71', status: 'Success' });
			expect(items[0].json).not.toHaveProperty('upload');
			expect(items[0].json).not.toHaveProperty('photoLink');
			expect(creates()).toHaveLength(1);
			const link = String(bodyOf().imageUrl);
			const file = await opened(link);
			expect(file.id).toBe(item.binary!.photo.id);
			expect(file.bytes.equals(JPEG)).toBe(true);
			// The default Timeout (600 s), the margin for the create and the service's download, and
			// the day a task left running (at the Timeout) may still fetch its photo.
			const claims = claimsOf(link);
			expect(claims.exp - claims.iat).toBe(600 + 300 + 86_400);
		},
	);

	test('Photo Enhancer HDR: three properties give three links, in the order named', async () => {
		serveTask(PE, '72', { status: 'Success' });
		const brackets = {
			under: jpegImage(640, 480, { exifBytes: 10 }),
			normal: JPEG,
			over: jpegImage(640, 480, { exifBytes: 30 }),
		};
		const item = await storedItem(brackets);

		const { error } = await run('photoEnhancer', [item], {
			parameters: { ...fromFile('photoEnhancer'), imageBinaryProperty: 'under, normal, over' },
		});

		expect(error).toBeUndefined();
		const links = bodyOf().imageUrl as string[];
		expect(links).toHaveLength(3);
		const ids = [];
		for (const [index, name] of ['under', 'normal', 'over'].entries()) {
			const file = await opened(links[index]);
			expect(file.bytes.equals(brackets[name as keyof typeof brackets])).toBe(true);
			ids.push(file.id);
		}
		expect(ids).toEqual([item.binary!.under.id, item.binary!.normal.id, item.binary!.over.id]);
	});

	test.each([
		[90, 90 + 300 + 86_400],
		[0.5, 1 + 300 + 86_400],
		[518_100, 7 * 24 * 60 * 60],
	])(
		'the Timeout sets the lifetime: the wait, 5 minutes and a day, at most 7 days: %s s gives %s s',
		async (timeout, seconds) => {
			serveTask(OR, '73', { status: 'Success' });

			await run('objectRemover', [await storedItem({ photo: JPEG })], {
				parameters: { ...fromFile('objectRemover'), options: { timeout } },
			});

			const claims = claimsOf(String(bodyOf().imageUrl));
			expect(claims.exp - claims.iat).toBe(seconds);
		},
	);
});

describe('a task the node may leave unfinished gets a link that outlives the execution', () => {
	test("Wait off: a copy under the execution's own id, linked for a day, and the item says until when", async () => {
		api().post(OR.create).reply(200, created('75'));
		// As a Form or Webhook trigger stores it before the execution exists.
		const item = await storedItem({ photo: PNG }, { workflowId: 'wf-1', executionId: 'temp' });

		const { items, error, executionId } = await run('objectRemover', [item], {
			parameters: { ...fromFile('objectRemover'), waitForCompletion: false },
		});

		expect(error).toBeUndefined();
		const link = String(bodyOf().imageUrl);
		const file = await opened(link);
		expect(file.id).not.toBe(item.binary!.photo.id);
		expect(file.id).toContain(`/executions/${executionId}/`);
		expect(file.bytes.equals(PNG)).toBe(true);
		expect(file.mimeType).toBe('image/png');
		const claims = claimsOf(link);
		expect(claims.exp - claims.iat).toBe(300 + 24 * 60 * 60);
		expect(items[0].json).toMatchObject({ id: '75', status: 'Unprocessed' });
		const record = items[0].json.photoLink as IDataObject;
		expect(record).toEqual({ address: N8N, expiresAt: expect.any(String) });
		const expiresAt = Date.parse(String(record.expiresAt)) / 1000;
		expect(Math.abs(expiresAt - claims.exp)).toBeLessThanOrEqual(2);
		expect(JSON.stringify(items[0].json)).not.toContain('token=');
	});

	test.each(['saveDataSuccessExecution', 'saveDataErrorExecution'] as const)(
		'Wait off in a workflow whose %s is "none": refused, nothing sent (n8n deletes the run and its files when it ends)',
		async (setting) => {
			const item = await storedItem({ photo: PNG }, { workflowId: 'wf-1', executionId: 'temp' });

			const { error } = await run('objectRemover', [item], {
				parameters: { ...fromFile('objectRemover'), waitForCompletion: false },
				workflowSettings: { [setting]: 'none' },
			});

			expect(error?.message).toContain('This workflow does not save its executions');
			expect(error?.description).toContain('Nothing was sent or charged.');
			expect(recorded).toEqual([]);
		},
	);

	test('Wait on, the same settings: the task ends with the run, so the link is made as usual', async () => {
		serveTask(OR, '77', { status: 'Success' });

		const { error } = await run('objectRemover', [await storedItem({ photo: JPEG })], {
			workflowSettings: { saveDataSuccessExecution: 'none', saveDataErrorExecution: 'none' },
		});

		expect(error).toBeUndefined();
		expect(String(bodyOf().imageUrl).startsWith(`${SIGNED}?token=`)).toBe(true);
	});

	test("Wait on: a trigger's temporary file is linked as a copy too (n8n may move or clear it before the service fetches)", async () => {
		serveTask(OR, '76', { status: 'Success' });
		const item = await storedItem({ photo: JPEG }, { workflowId: 'wf-1', executionId: 'temp' });

		const { executionId } = await run('objectRemover', [item]);

		const file = await opened(String(bodyOf().imageUrl));
		expect(file.id).not.toBe(item.binary!.photo.id);
		expect(file.id).toContain(`/executions/${executionId}/`);
		expect(file.bytes.equals(JPEG)).toBe(true);
	});

	test("Wait on: a file of another execution's is linked as it is, with no copy", async () => {
		serveTask(OR, '79', { status: 'Success' });
		const item = await storedItem({ photo: JPEG });

		const { executionId } = await run('objectRemover', [item]);

		expect((await opened(String(bodyOf().imageUrl))).id).toBe(item.binary!.photo.id);
		expect(files.storedUnder({ workflowId: 'wf-1', executionId })).toEqual([]);
	});

	test('On Timeout = Output the Last Status: linked for a day, and the item says until when', async () => {
		serveTask(OR, '77', { status: 'Processing', percentage: 10, times: 99 });
		const item = await storedItem({ photo: JPEG });

		const { items } = await run('objectRemover', [item], {
			parameters: {
				...fromFile('objectRemover'),
				options: { timeout: 1, onTimeout: 'returnLastStatus' },
			},
		});

		expect(items[0].json).toMatchObject({ id: '77', status: 'Processing' });
		expect(items[0].json.photoLink).toMatchObject({ address: N8N });
		const link = String(bodyOf().imageUrl);
		expect((await opened(link)).bytes.equals(JPEG)).toBe(true);
		// The 1 s Timeout, the margin, and a day after the wait.
		expect(claimsOf(link).exp - claimsOf(link).iat).toBe(1 + 300 + 24 * 60 * 60);
	});
});

describe('refused before anything is sent, saying what to do', () => {
	test('a file held in memory (n8n 1.x default mode): names the binary data mode, and the photo as a URL', async () => {
		const inline = {
			json: {},
			binary: {
				photo: { data: JPEG.toString('base64'), mimeType: 'image/jpeg', fileName: 'photo.jpg' },
			},
		};

		const { error } = await run('idealHouse', [inline]);

		expect(error?.message).toBe(
			`The photo in "photo" is held in n8n's memory (N8N_DEFAULT_BINARY_DATA_MODE=default), and n8n can hand out a link only to a file it stores [item 0]`,
		);
		expect(error?.description).toContain('N8N_DEFAULT_BINARY_DATA_MODE=filesystem');
		expect(error?.description).toContain("or give the photo as a URL ('Image Source' = URL)");
		expect(error?.description).toContain('docs/photos-without-public-n8n.md');
		expect(recorded).toEqual([]);
	});

	test("an n8n without the signing helper (older than n8n's signed links): says what to do instead", async () => {
		const ctx = { ...itemContext(0), helpers: {} } as unknown as IExecuteSingleFunctions;

		const refused = await n8nLinks(ctx, [], { seconds: 900, mayOutliveItem: false }).catch(
			(error: IdealHouseError) => error,
		);

		expect(refused).toMatchObject({
			message: 'This version of n8n cannot hand out links to its files [item 0]',
			outcome: { kind: 'neverSent' },
		});
		expect((refused as IdealHouseError).description).toContain(
			"Update n8n, or give the photo as a URL ('Image Source' = URL)",
		);
	});

	test.each([
		['localhost', 'http://localhost:5678/rest'],
		['a loopback address', 'http://127.0.0.1:5678/rest'],
		['a private address', 'http://192.168.1.20:5678/rest'],
		['a link-local address', 'http://169.254.10.10/rest'],
		['a container name', 'http://n8n:5678/rest'],
	])('n8n at %s while Ideal House is public: names WEBHOOK_URL', async (_name, restApiUrl) => {
		const { error } = await run('photoEnhancer', [await storedItem({ photo: JPEG })], {
			restApiUrl,
		});

		expect(error?.message).toBe(
			`n8n's own address is ${new URL(restApiUrl).origin}, which Ideal House cannot reach to fetch the photo [item 0]`,
		);
		expect(error?.description).toContain("Set WEBHOOK_URL to n8n's public address");
		expect(error?.description).toContain("or give the photo as a URL ('Image Source' = URL)");
		expect(error?.description).toContain('docs/photos-without-public-n8n.md');
		expect(error?.description).toContain('Nothing was sent or charged.');
		expect(recorded).toEqual([]);
	});

	test('an item the Credit Limit refuses makes no link: its file is not even copied', async () => {
		api().post(OR.create).reply(200, created('78'));
		const temp = { workflowId: 'wf-1', executionId: 'temp' };
		const items = [await storedItem({ photo: JPEG }, temp), await storedItem({ photo: PNG }, temp)];

		const { items: out, executionId } = await run('objectRemover', items, {
			parameters: {
				...fromFile('objectRemover'),
				waitForCompletion: false,
				options: { creditLimit: 1 },
			},
			onError: 'continueRegularOutput',
		});

		expect(out[0].json).toMatchObject({ id: '78', status: 'Unprocessed' });
		expect(out[1].json.error).toMatch(/Credit Limit/);
		expect(creates()).toHaveLength(1);
		// One copy under the execution's own id: the first item's.
		expect(files.storedUnder({ workflowId: 'wf-1', executionId })).toHaveLength(1);
	});

	test("n8n's storage failing to take the copy (disk full) fails the item before its create, saying nothing was sent or charged", async () => {
		const item = await storedItem({ photo: JPEG }, { workflowId: 'wf-1', executionId: 'temp' });
		const service = files.service;
		const store = service.store.bind(service);
		service.store = async () => {
			throw new Error('ENOSPC: no space left on device, write');
		};

		try {
			const { error } = await run('objectRemover', [item], {
				parameters: { ...fromFile('objectRemover'), waitForCompletion: false },
			});

			expect(error?.message).toBe('n8n could not make the link to the photo [item 0]');
			expect(error?.description).toContain('ENOSPC: no space left on device, write.');
			expect(error?.description).toContain('N8N_BINARY_DATA_STORAGE_PATH');
			expect(error?.description).toContain('Nothing was sent or charged.');
			expect(recorded).toEqual([]);
		} finally {
			service.store = store;
		}
	});

	test('Preview shows the link without a key, and sends nothing', async () => {
		const { items } = await run('objectRemover', [await storedItem({ photo: JPEG })], {
			parameters: { ...fromFile('objectRemover'), options: { preview: true } },
		});

		const preview = items[0].json.preview as { body: IDataObject };
		expect(preview.body.imageUrl).toBe(`${SIGNED}?token=[made-when-sent]`);
		expect(recorded).toEqual([]);
	});
});

describe('when Ideal House cannot fetch the link', () => {
	test('error 1011 naming imageUrl: says where the photo was offered, what to check, that no credit was spent; no token anywhere', async () => {
		let sentLink = '';
		api()
			.post(OR.create)
			.reply(200, (_path, body) => {
				sentLink = String((body as IDataObject).imageUrl);
				return envelope(
					'null',
					1011,
					`imageUrl (${sentLink}) could not be fetched: the server answered HTTP 404`,
				);
			});

		const { error } = await run('objectRemover', [await storedItem({ photo: JPEG })]);

		expect(error?.message).toBe(
			'Ideal House could not download the photo that this n8n instance offered at https://n8n.example.com [item 0]',
		);
		expect(error?.description).toContain('WEBHOOK_URL');
		expect(error?.description).toContain('/rest/binary-data/signed');
		expect(error?.description).toContain('Nothing was created or charged for this item.');
		const token = tokenOf(sentLink);
		expect(token.length).toBeGreaterThan(20);
		expect(JSON.stringify(error)).not.toContain(token);
		expect(JSON.stringify(error)).not.toContain(API_KEY);
		expect([...journey.loggedInFile, ...logLines].join('\n')).not.toContain(token);
	});

	test('a link the service could not connect to (ECONNREFUSED, as with a worker without WEBHOOK_URL) is explained the same way', async () => {
		api()
			.post(OR.create)
			.reply(200, (_path, body) =>
				envelope(
					'null',
					1011,
					`imageUrl (${String((body as IDataObject).imageUrl)}) could not be fetched (ECONNREFUSED)`,
				),
			);

		const { error } = await run('objectRemover', [await storedItem({ photo: JPEG })]);

		expect(error?.message).toBe(
			'Ideal House could not download the photo that this n8n instance offered at https://n8n.example.com [item 0]',
		);
		expect(error?.description).toContain('WEBHOOK_URL');
		expect(error?.description).toMatch(/The service said: .*ECONNREFUSED/);
		expect(error?.description).not.toMatch(/token=(?!\[redacted\])/);
	});

	test('a 1011 naming imageUrl behind a 502 may come after the service acted: never "no credit was spent"', async () => {
		api()
			.post(OR.create)
			.reply(502, envelope('null', 1011, 'imageUrl could not be fetched'));

		const { error } = await run('objectRemover', [await storedItem({ photo: JPEG })]);

		expect(error?.message).not.toContain('could not download the photo');
		expect(error?.description ?? '').not.toContain('Nothing was created or charged');
	});

	test('a 1011 about another field is left as the service said it', async () => {
		api()
			.post(VS.create)
			.reply(200, envelope('null', 1011, 'indoorStyleId is not valid'));

		const { error } = await run('idealHouse', [await storedItem({ photo: JPEG })]);

		expect(error?.message).toContain('indoorStyleId is not valid');
		expect(error?.message).not.toContain('could not download the photo');
	});
});

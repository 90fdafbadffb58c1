/**
 * Photos that are files, through n8n's own signed link (Photo Link = This n8n Instance, the
 * default from node version 1.1), in n8n's engine: n8n-core's binary data service in filesystem
 * mode holds the files, Ideal House is answered by nock (every request recorded), and each link
 * the service is given is opened with n8n-core's own token check. No storage credential anywhere.
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { logLines, runNode, type NodeName, type RunOptions } from '../dev/harness/engine';
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
import { filesystemBinaryData, type FileLocation } from './helpers/binary-store';
import { jpegImage, pngImage } from './helpers/images';
import { eachTestOnAFreshWire } from './helpers/journey';
import { fromFile } from './helpers/params';

const files = filesystemBinaryData();
beforeAll(async () => await files.init());
afterAll(() => files.close());
const journey = eachTestOnAFreshWire();

const N8N = 'https://n8n.example.com';
const REST = `${N8N}/rest`;
const SIGNED = `${REST}/binary-data/signed`;
const VS = pathsOf('virtualStaging');
const PATHS = { photoEnhancer: PE, objectRemover: OR, idealHouse: VS };
const JPEG = jpegImage(640, 480);
const PNG = pngImage(800, 600);

async function storedItem(
	named: Record<string, Buffer>,
	location?: FileLocation,
): Promise<INodeExecutionData> {
	const binary: Record<string, IBinaryData> = {};
	for (const [name, bytes] of Object.entries(named)) {
		binary[name] = await files.store(bytes, `${name}.jpg`, location);
	}
	return { json: {}, binary };
}

/** The node at version 1.1 on these items, n8n at a public address, no storage credential. */
async function run(node: NodeName, items: INodeExecutionData[], more: Partial<RunOptions> = {}) {
	return await runNode({
		node,
		typeVersion: 1.1,
		restApiUrl: REST,
		parameters: fromFile(node),
		items,
		...more,
	});
}

const creates = () => recorded.filter((request) => request.method === 'POST');
const bodyOf = (index = 0) => creates()[index].body as IDataObject;

/** The token's claims, as jsonwebtoken wrote them. */
function claimsOf(link: string): { id: string; iat: number; exp: number } {
	const token = new URL(link).searchParams.get('token') ?? '';
	return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

/** What n8n's endpoint would serve for this link: n8n-core's own token check, then the file. */
async function opened(link: string) {
	expect(link.startsWith(`${SIGNED}?token=`)).toBe(true);
	const id = files.idOfToken(new URL(link).searchParams.get('token') ?? '');
	return { id, ...(await files.read(id)) };
}

function tokenOf(link: unknown): string {
	return new URL(String(link)).searchParams.get('token') ?? '';
}

describe("a photo file reaches Ideal House through n8n's own signed link, with nothing to set up", () => {
	test.each(['photoEnhancer', 'objectRemover', 'idealHouse'] as const)(
		"%s: the create names the link, which opens exactly the item's file for the Timeout plus 5 minutes",
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
			// The default Timeout (600 s) and the margin for the create and the service's download.
			const claims = claimsOf(link);
			expect(claims.exp - claims.iat).toBe(900);
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

	test('the Timeout sets the lifetime: 90 s gives 390 s', async () => {
		serveTask(OR, '73', { status: 'Success' });

		await run('objectRemover', [await storedItem({ photo: JPEG })], {
			parameters: { ...fromFile('objectRemover'), options: { timeout: 90 } },
		});

		const claims = claimsOf(String(bodyOf().imageUrl));
		expect(claims.exp - claims.iat).toBe(390);
	});

	test('version 1 keeps the bucket: without the storage credential it asks for one, and sends nothing', async () => {
		const { error } = await run('objectRemover', [await storedItem({ photo: JPEG })], {
			typeVersion: 1,
		});

		expect(error?.message).toBe(
			'Image Source is "Binary File", which needs an "Ideal House Upload Storage (S3-compatible)" credential [item 0]',
		);
		expect(recorded).toEqual([]);
	});

	test('version 1 with Photo Link = This n8n Instance uses the n8n link too', async () => {
		serveTask(OR, '74', { status: 'Success' });
		const item = await storedItem({ photo: JPEG });

		const { error } = await run('objectRemover', [item], {
			typeVersion: 1,
			parameters: { ...fromFile('objectRemover'), photoLink: 'n8n' },
		});

		expect(error).toBeUndefined();
		expect((await opened(String(bodyOf().imageUrl))).id).toBe(item.binary!.photo.id);
	});
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
		expect(claims.exp - claims.iat).toBe(24 * 60 * 60);
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
		expect(claimsOf(link).exp - claimsOf(link).iat).toBe(24 * 60 * 60);
	});
});

describe('refused before anything is sent, saying what to do', () => {
	test('a file held in memory (n8n 1.x default mode): names the binary data mode and the bucket', async () => {
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
		expect(error?.description).toContain('Your Bucket (S3-Compatible)');
		expect(recorded).toEqual([]);
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
		expect(error?.description).toContain('Set WEBHOOK_URL');
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
			'Ideal House could not download the photo that this n8n instance offered at https://n8n.example.com',
		);
		expect(error?.description).toContain('WEBHOOK_URL');
		expect(error?.description).toContain('/rest/binary-data/signed');
		expect(error?.description).toContain('No credit was spent.');
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
			'Ideal House could not download the photo that this n8n instance offered at https://n8n.example.com',
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
		expect(error?.description ?? '').not.toContain('No credit was spent');
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

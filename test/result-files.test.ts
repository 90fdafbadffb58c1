/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Result files, paid for once the task has finished: told apart by their bytes however the file
 * host cuts them into reads, and never an error page taken for one; and a result list that
 * attaches every good file, names each bad one, and is bounded in files and in time.
 */
import type { ServerResponse } from 'node:http';

import nock from 'nock';
import { sleep, type INodeType } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { clock as nodeClock } from '../nodes/shared/core/clock';
import { limits } from '../nodes/shared/core/limits';
import { runNode } from './helpers/engine';
import { API_KEY, BIG_ID, TINY_PNG, api, created, taskResponse } from './helpers/api';
import type { LocalServer } from './helpers/local-server';
import { eachTestOnAFreshWire } from './helpers/journey';
import { glb, zipOf } from './helpers/model-files';
import { CDN, PHOTO, create, paths } from './helpers/ideal-house';

const journey = eachTestOnAFreshWire();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), Buffer.alloc(40, 3)]);

/** The binary on the item, with its bytes as a Buffer for an exact comparison. */
function attached(item: { binary?: Record<string, { data: string }> } | undefined) {
	return Object.fromEntries(
		Object.entries(item?.binary ?? {}).map(([key, binary]) => {
			const { data, ...rest } = binary as { data: string; [field: string]: unknown };
			return [key, { ...rest, bytes: Buffer.from(data, 'base64') }];
		}),
	);
}

describe('a result sent a few bytes at a time, on a real socket', () => {
	/**
	 * The service and the file host on one local server. The file goes out in pieces of the given
	 * sizes, each its own write after a pause with Nagle off, so that the client really reads
	 * them one by one.
	 */
	async function trickling(
		resource: string,
		file: Buffer,
		pieces: number[],
		name: string,
	): Promise<LocalServer> {
		const service = await journey.server((req, res) => {
			if (req.url?.startsWith(`/api/v1/${resource}/generate`)) {
				res.end(created(BIG_ID));
				return;
			}
			if (req.url?.startsWith(`/api/v1/${resource}/result`)) {
				const output = { resultUrl: `${service.url}/files/${name}`, width: 1, height: 1 };
				res.end(taskResponse(BIG_ID, { output }));
				return;
			}
			void trickle(res, file, pieces);
		});
		return service;
	}

	async function trickle(res: ServerResponse, file: Buffer, pieces: number[]): Promise<void> {
		res.socket?.setNoDelay(true);
		res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
		res.flushHeaders();
		let at = 0;
		for (let piece = 0; at < file.length; piece++) {
			await sleep(4);
			const size = pieces[piece % pieces.length];
			res.write(file.subarray(at, at + size));
			at += size;
		}
		res.end();
	}

	beforeEach(() => {
		nock.enableNetConnect(/127\.0\.0\.1/);
		nodeClock.now = () => Date.now();
		nodeClock.sleep = async (ms, signal) => await sleep(Math.min(ms, 50), signal);
	});

	/** Runs `node` against a server that trickles `file` as the result of its task, downloaded. */
	async function runTrickled(
		node: 'photoEnhancer' | 'idealHouse',
		parameters: Record<string, unknown>,
		[file, pieces, name]: [Buffer, number[], string],
	) {
		const resource = node === 'idealHouse' ? String(parameters.resource) : node;
		const service = await trickling(resource, file, pieces, name);
		return await runNode({
			node,
			parameters: { ...parameters, options: { downloadResult: true } },
			credentials: { apiKey: API_KEY, baseUrl: service.url },
		});
	}

	test.each([
		['a PNG in 2-byte pieces', TINY_PNG, [2], 'image/png', 'png'],
		['a PNG in 4-byte pieces', TINY_PNG, [4], 'image/png', 'png'],
		['a JPEG in 2-byte pieces', JPEG, [2], 'image/jpeg', 'jpg'],
	])('Photo Enhancer: %s is attached whole', async (_name, file, pieces, mimeType, extension) => {
		const { items, error } = await runTrickled(
			'photoEnhancer',
			{ operation: 'enhance', imageUrl: PHOTO, presetId: 'exterior-enhancement-curb-appeal' },
			[file, pieces, 'enhanced'],
		);

		expect(error).toBeUndefined();
		expect(attached(items[0])).toEqual({
			data: {
				mimeType,
				fileType: 'image',
				fileExtension: extension,
				fileName: `ideal-house-${BIG_ID}.${extension}`,
				fileSize: `${file.length} B`,
				bytes: file,
			},
		});
	});

	const usdz = zipOf([['scene.usdc', 'PXR-USDC'.padEnd(64, '\0')]]);
	test.each<[string, Record<string, unknown>, [Buffer, number[], string], number, object]>([
		[
			'AI 3D: a GLB in 1- and 2-byte pieces is attached as a GLB',
			{ resource: 'ai3d', operation: 'create', prompt: 'a chair' },
			[glb(), [1, 2], 'chair.glb'],
			20,
			{ mimeType: 'model/gltf-binary', fileExtension: 'glb', fileName: 'chair.glb' },
		],
		[
			'Virtual Staging: a PNG in 2-byte pieces is attached',
			create('virtualStaging'),
			[TINY_PNG, [2], 'staged.png'],
			1,
			{ mimeType: 'image/png', fileType: 'image', fileExtension: 'png', fileName: 'staged.png' },
		],
		[
			// The header and part of the name, then the rest: a first read ends inside the name.
			'AI 3D: a USDZ whose first entry name is split across reads is a USDZ',
			{ resource: 'ai3d', operation: 'create', prompt: 'a room' },
			[usdz, [34, 3], 'room'],
			20,
			{
				mimeType: 'model/vnd.usdz+zip',
				fileExtension: 'usdz',
				fileName: `ideal-house-${BIG_ID}.usdz`,
			},
		],
	])('Ideal House AI, %s', async (_name, parameters, served, credits, kind) => {
		const { items, error } = await runTrickled('idealHouse', parameters, served);

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: BIG_ID, status: 'Success', creditsCharged: credits });
		const [file] = served;
		expect(attached(items[0])).toEqual({
			data: { ...kind, fileSize: `${file.length} B`, bytes: file },
		});
	});
});

describe('only a real file of its kind is a result', () => {
	/** A finished task of this resource whose one result file is `file`. */
	function finished(resource: string, file: Buffer, name: string, contentType: string): void {
		api()
			.get(`/api/v1/${resource}/result`)
			.query({ taskId: BIG_ID })
			.reply(
				200,
				taskResponse(BIG_ID, {
					output: { resultUrl: `${CDN}/results/${name}`, width: null, height: null },
				}),
			);
		nock(CDN).get(`/results/${name}`).reply(200, file, { 'Content-Type': contentType });
	}

	const getResult = (resource: string, extra: Record<string, unknown> = {}) =>
		runNode({
			node: 'idealHouse',
			parameters: {
				resource,
				operation: 'getResult',
				taskId: BIG_ID,
				options: { downloadResult: true },
				...extra,
			},
		});

	test.each([
		[
			'a JSON error body with an "asset" key',
			'{"code":404,"message":"asset not found","asset":{"version":"2.0"}}',
			'application/json',
		],
		['text that starts with "v "', 'v 1.2 is retired\nuse v 2 of the API instead\n', 'text/plain'],
		['a ZIP holding only an HTML page', '', 'application/zip'],
	])('AI 3D: %s is no 3D model', async (_name, text, contentType) => {
		const body = text
			? Buffer.from(text)
			: zipOf([['index.html', '<!doctype html><title>Access denied</title>']]);
		finished('ai3d', body, 'model.glb', contentType);

		const { items, error } = await getResult('ai3d');

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			`The result of task ${BIG_ID} was not downloaded: the file is not a 3D model (GLB, glTF, OBJ, FBX, USDZ or a ZIP of them) (the host called it ${contentType}) [item 0]`,
		);
	});

	test('an API called by name: an HTML 403 page sent with HTTP 200 is not its result', async () => {
		finished(
			'imageToVideo',
			Buffer.from('\n  <!DOCTYPE html><html><h1>403 Forbidden</h1></html>'),
			'clip.mp4',
			'text/html',
		);

		const { items, error } = await getResult('custom', { apiName: 'imageToVideo' });

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			`The result of task ${BIG_ID} was not downloaded: the file is not a result file (an image, a 3D model or another binary file, not a web page or text) (the host called it text/html) [item 0]`,
		);
	});

	const fbx = Buffer.from(
		'; FBX 7.4.0 project file\n; ----------------------------------------------------\n\nFBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n}\n',
	);
	const mp4 = Buffer.concat([
		Buffer.from('\0\0\0\x20ftypisom\0\0\x02\0', 'latin1'),
		Buffer.alloc(64, 9),
	]);
	test.each([
		// name, the API the file is served for, the file and its name and type there, the attached name
		['AI 3D: an ASCII FBX is a 3D model', 'ai3d', fbx, 'chair.fbx', 'text/plain', 'chair.fbx'],
		[
			'an API called by name: a binary file of no known kind is attached as it is',
			'imageToVideo',
			mp4,
			'clip.mp4',
			'video/mp4',
			'clip.bin',
		],
	])('%s', async (_name, servedFor, file, name, contentType, attachedName) => {
		finished(servedFor, file, name, contentType);

		const { items, error } = await getResult(
			servedFor === 'ai3d' ? 'ai3d' : 'custom',
			servedFor === 'ai3d' ? {} : { apiName: servedFor },
		);

		expect(error).toBeUndefined();
		expect(attached(items[0])).toEqual({
			data: {
				mimeType: 'application/octet-stream',
				fileExtension: attachedName.split('.')[1],
				fileName: attachedName,
				fileSize: `${file.length} B`,
				bytes: file,
			},
		});
	});
});

describe('a result list', () => {
	const png = (n: number) => Buffer.concat([TINY_PNG, Buffer.from([n])]);

	/** House Plan's Get Result (a Base task: 10 credits) with this output. */
	function listed(output: object): void {
		api()
			.get('/api/v1/housePlan/result')
			.query({ taskId: '61' })
			.reply(200, taskResponse('61', { output, input: { stories: '2', modelType: 'Base' } }));
	}

	const getResult = (extra: Record<string, unknown> = {}) =>
		runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'housePlan',
				operation: 'getResult',
				taskId: '61',
				options: { downloadResult: true },
			},
			...extra,
		});

	const pngFile = (name: string, n: number) => ({
		mimeType: 'image/png',
		fileType: 'image',
		fileExtension: 'png',
		fileName: name,
		fileSize: `${png(n).length} B`,
		bytes: png(n),
	});

	test('attaches every good file and names each bad one with its reason', async () => {
		const urls = [
			`${CDN}/results/61-1.png`,
			'http://10.0.0.5/results/61-2.png',
			`${CDN}/results/61-3.pdf`,
			`${CDN}/results/61-4.png`,
			`${CDN}/results/61-5.png`,
		];
		listed({ resultUrl: urls[0], width: 1920, height: 1080, resultList: urls });
		nock(CDN)
			.get('/results/61-1.png')
			.reply(200, png(1))
			.get('/results/61-3.pdf')
			.reply(200, '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', { 'Content-Type': 'application/pdf' })
			.get('/results/61-4.png')
			.reply(404, '<html><body><h1>Not Found</h1></body></html>')
			.get('/results/61-5.png')
			.reply(200, png(5));

		const { items, error } = await getResult();

		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe('61');
		expect(items[0].json.creditsCharged).toBe(10);
		expect(items[0].json.resultFilesSkipped).toEqual([
			{
				url: 'http://10.0.0.5/results/61-2.png',
				reason:
					'its address 10.0.0.5 is in a private or local network, which a result link never is',
			},
			{
				url: `${CDN}/results/61-3.pdf`,
				reason: 'the file is not a PNG, JPEG or WebP image (the host called it application/pdf)',
			},
			{ url: `${CDN}/results/61-4.png`, reason: 'the file host answered HTTP 404: Not Found' },
		]);
		expect(attached(items[0])).toEqual({
			data: pngFile('61-1.png', 1),
			data_1: pngFile('61-5.png', 5),
		});
	});

	test('with no file attached, the item fails with every reason, its task id and its credits', async () => {
		const urls = [`${CDN}/results/61-1.png`, `${CDN}/results/61-2.png`];
		listed({ resultUrl: urls[0], width: 1920, height: 1080, resultList: urls });
		nock(CDN)
			.get('/results/61-1.png')
			.reply(404, 'gone')
			.get('/results/61-2.png')
			.reply(200, 'oops');

		const { items, error } = await getResult({ onError: 'continueRegularOutput' });

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: {
					error:
						'The result of task 61 was not downloaded: none of its 2 files could be attached (1. the file host answered HTTP 404: gone; 2. the file is not a PNG, JPEG or WebP image) [item 0]',
					details: {
						id: '61',
						creditsCharged: 10,
						description:
							'The task finished and was paid for. Fetch it again with the Get Result operation and task ID 61, or open its result URL yourself.',
					},
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('downloads at most 20 files; the others are listed, not fetched', async () => {
		const urls = Array.from({ length: 25 }, (_url, index) => `${CDN}/results/61-${index}.png`);
		listed({ resultList: urls, width: 1920, height: 1080 });
		const cdn = nock(CDN);
		urls.forEach((_url, index) => cdn.get(`/results/61-${index}.png`).reply(200, png(index)));
		const fetched: string[] = [];
		cdn.on('request', (req: { path: string }) => fetched.push(req.path));

		const { items, error } = await getResult();

		expect(error).toBeUndefined();
		// A list with no resultUrl beside it (the older House Plan page): the JSON keeps it as sent.
		expect(items[0].json.output).toEqual({ resultList: urls, width: 1920, height: 1080 });
		expect(Object.keys(items[0].binary ?? {})).toEqual([
			'data',
			...Array.from({ length: 19 }, (_key, index) => `data_${index + 1}`),
		]);
		expect(attached(items[0]).data_19).toEqual(pngFile('61-19.png', 19));
		expect(items[0].json.resultFilesSkipped).toEqual(
			urls.slice(20).map((url) => ({
				url,
				reason: 'not downloaded: an item downloads at most 20 files',
			})),
		);
		expect(fetched).toEqual(urls.slice(0, 20).map((url) => new URL(url).pathname));
	});

	test("one time bound for the item's downloads, not one per file", async () => {
		nodeClock.now = () => Date.now();
		nodeClock.sleep = async (ms, signal) => await sleep(Math.min(ms, 50), signal);
		limits.downloadTimeoutMs = 2000;
		const urls = [1, 2, 3, 4].map((n) => `${CDN}/results/61-${n}.png`);
		listed({ resultList: urls, width: 1920, height: 1080 });
		// The first file comes at once; each of the others would take longer than the whole bound.
		const cdn = nock(CDN);
		cdn.get('/results/61-1.png').reply(200, png(1));
		[2, 3, 4].forEach((n) => cdn.get(`/results/61-${n}.png`).delay(2500).reply(200, png(n)));

		const { items, error } = await getResult();

		expect(error).toBeUndefined();
		expect(attached(items[0])).toEqual({ data: pngFile('61-1.png', 1) });
		const skipped = items[0].json.resultFilesSkipped as Array<{ url: string; reason: string }>;
		expect(skipped.map((file) => file.url)).toEqual(urls.slice(1));
		expect(skipped[0].reason).toMatch(/^the file host did not send the file within [12](\.\d)? s$/);
		expect(skipped.slice(1).map((file) => file.reason)).toEqual([
			"not downloaded: the item's 2 s for downloads had run out",
			"not downloaded: the item's 2 s for downloads had run out",
		]);
	});

	test('entries written as objects are read', async () => {
		const urls = [`${CDN}/results/61-1.png`, `${CDN}/results/61-2.png`];
		listed({ resultList: urls.map((url) => ({ url, width: 1920 })), width: 1920, height: 1080 });
		nock(CDN)
			.get('/results/61-1.png')
			.reply(200, png(1))
			.get('/results/61-2.png')
			.reply(200, png(2));

		const { items, error } = await getResult();

		expect(error).toBeUndefined();
		expect(attached(items[0])).toEqual({
			data: pngFile('61-1.png', 1),
			data_1: pngFile('61-2.png', 2),
		});
		expect(items[0].json.resultFilesSkipped).toBeUndefined();
	});

	test('a list holding only the resultUrl (the newer House Plan page): one file, downloaded once', async () => {
		const single = {
			resultUrl: `${CDN}/results/61-1.png`,
			width: 1920,
			height: 1080,
			resultList: [`${CDN}/results/61-1.png`],
		};
		listed(single);
		const cdn = nock(CDN).get('/results/61-1.png').once().reply(200, png(1));

		const { items, error } = await getResult();

		expect(error).toBeUndefined();
		expect(cdn.isDone()).toBe(true);
		expect(items[0].json.output).toEqual(single);
		expect(attached(items[0])).toEqual({ data: pngFile('61-1.png', 1) });
	});

	test('in the field the user named, from Get Result of another listed API priced by its stored input', async () => {
		const urls = [1, 2, 3].map((n) => `${CDN}/results/61-${n}.png`);
		api()
			.get(paths('planVisualizer').result)
			.query({ taskId: '61' })
			.reply(
				200,
				taskResponse('61', {
					output: { resultUrl: urls[0], width: 1920, height: 1080, resultList: urls },
					input: { imageUrl: PHOTO, modelType: 'Pro' },
				}),
			);
		const cdn = nock(CDN);
		[1, 2, 3].forEach((n) => cdn.get(`/results/61-${n}.png`).reply(200, png(n)));

		const { items, error } = await runNode({
			node: 'idealHouse',
			parameters: {
				resource: 'planVisualizer',
				operation: 'getResult',
				taskId: '61',
				options: { downloadResult: true, binaryPropertyName: 'plan' },
			},
		});

		expect(error).toBeUndefined();
		expect(items[0].json.creditsCharged).toBe(10);
		expect(attached(items[0])).toEqual({
			plan: pngFile('61-1.png', 1),
			plan_1: pngFile('61-2.png', 2),
			plan_2: pngFile('61-3.png', 3),
		});
	});

	test('a single URL as the list is read', async () => {
		listed({ resultList: ` ${CDN}/results/61-1.png `, width: 1920, height: 1080 });
		nock(CDN).get('/results/61-1.png').reply(200, png(1));

		const { items, error } = await getResult();

		expect(error).toBeUndefined();
		expect(attached(items[0])).toEqual({ data: pngFile('61-1.png', 1) });
	});

	test('as a tool, the model reads the first ten files not attached and how many more', async () => {
		const tool = {
			...new IdealHouse(),
			description: { ...new IdealHouse().description, name: 'idealHouseTool' },
		} as INodeType;
		Object.assign(limits, { downloadMaxFiles: 1 });
		const urls = Array.from({ length: 13 }, (_url, index) => `${CDN}/results/61-${index}.png`);
		listed({ resultUrl: urls[0], resultList: urls, width: 1920, height: 1080 });
		nock(CDN).get('/results/61-0.png').reply(200, png(0));

		const { items, error } = await runNode({
			node: tool,
			parameters: {
				resource: 'housePlan',
				operation: 'getResult',
				taskId: '61',
				options: { downloadResult: true },
			},
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toEqual({
			id: '61',
			status: 'Success',
			resultUrl: urls[0],
			width: 1920,
			height: 1080,
			creditsCharged: 10,
			resultList: urls,
			resultFilesSkipped: urls.slice(1, 11).map((url) => ({
				url,
				reason: 'not downloaded: an item downloads at most 1 file',
			})),
			resultFilesSkippedMore: 2,
		});
	});
});

/**
 * Photos that are files, in n8n's engine: Ideal House answered by nock (every request recorded),
 * the bucket a real S3-compatible store on loopback whose proxy verifies every signature.
 */
import nock from 'nock';
import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, sleep } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node';

import { logLines, runNode } from '../dev/harness/engine';
import { imageFileLimits } from '../nodes/shared/storage/image-files';
import { storageLimits } from '../nodes/shared/basics/limits';
import {
	API_KEY,
	OR,
	PE,
	api,
	flushEventLoop,
	recorded,
	resetWire,
	serveTask,
} from './helpers/api';
import { jpegImage, pngImage } from './helpers/images';
import { runStoppedInWait, settles, startRun } from './helpers/run';
import { STORAGE_REGION, STORAGE_SECRET, type TestStorage } from './helpers/s3-storage';
import { eachTestWithStorage } from './helpers/journey';
import { verifySigV4 } from './helpers/sigv4-verifier';

const JPEG = jpegImage(640, 480);
const PNG = pngImage(320, 240);
const VS_CREATE = '/api/v1/virtualStaging/generate';
const VS_RESULT = '/api/v1/virtualStaging/result';

let storage: TestStorage;
eachTestWithStorage((started) => (storage = started));

function fileItem(files: Record<string, Buffer>, json = {}) {
	return {
		json,
		binary: Object.fromEntries(
			Object.entries(files).map(([name, bytes]) => [
				name,
				{ data: bytes.toString('base64'), mimeType: 'application/octet-stream', fileName: name },
			]),
		),
	};
}

const remove = (parameters: Record<string, unknown> = {}) => ({
	operation: 'remove',
	imageSource: 'binary',
	imageBinaryProperty: 'photo',
	emptyType: 'whole_house',
	...parameters,
});

/** The Object Remover on one item whose photo is a JPEG file, with the test store's credential. */
const oneJpegToRemove = () => ({
	node: 'objectRemover' as const,
	parameters: remove(),
	items: [fileItem({ photo: JPEG })],
	storageCredentials: storage.credentials,
});

/** Ideal House AI's Virtual Staging on one item holding this file (its only property), through the store. */
function stageFile(file: Record<string, Buffer>, options: Record<string, unknown> = {}) {
	return {
		node: 'idealHouse' as const,
		parameters: {
			resource: 'virtualStaging',
			operation: 'create',
			imageSource: 'binary',
			imageBinaryProperty: Object.keys(file)[0],
			options,
		},
		items: [fileItem(file)],
		storageCredentials: storage.credentials,
	};
}

function answerTask(create: string, result: string, id: string, status = 'Success') {
	serveTask({ create, result }, id, { status });
}

const puts = () => storage.requests.filter((request) => request.method === 'PUT');
const deletes = () => storage.requests.filter((request) => request.method === 'DELETE');
const creates = () => recorded.filter((request) => request.method === 'POST');
/** The object keys this test uploaded (earlier tests may have kept theirs on purpose). */
const uploadedKeys = () => puts().map((put) => put.path.replace(`/${storage.bucket}/`, ''));
async function stillStored(): Promise<string[]> {
	const keys = await storage.keys();
	return uploadedKeys().filter((key) => keys.includes(key));
}

/** Verifies a link the service was given, as the service's GET would present it. */
function verifyLink(link: string) {
	const url = new URL(link);
	return verifySigV4(
		{ method: 'GET', rawUrl: `${url.pathname}${url.search}`, headers: { host: url.host } },
		{
			secrets: { [String(storage.credentials.accessKeyId)]: STORAGE_SECRET },
			region: STORAGE_REGION,
		},
	);
}

/** Deletes after Stop run on their own: waits until they have arrived. */
async function settled(count: () => number, expected: number): Promise<void> {
	for (let waited = 0; count() < expected && waited < 3000; waited += 20) await sleep(20);
}

describe('a photo that is a file goes through the bucket, and the service gets a signed link', () => {
	test('Object Remover: signed PUT of the bytes, a presigned GET link as imageUrl, the object deleted at the end', async () => {
		answerTask(OR.create, OR.result, '41');

		const { items, error } = await runNode(oneJpegToRemove());

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '41', status: 'Success', creditsCharged: 1 });
		expect(items[0].json).not.toHaveProperty('upload');
		expect(items[0].json).not.toHaveProperty('warnings');

		const [put] = puts();
		expect(put.verdict).toMatchObject({ ok: true, presigned: false });
		expect(put.status).toBe(200);
		expect(put.headers['content-type']).toBe('image/jpeg');
		expect(put.bytes).toBe(JPEG.length);
		expect(put.path).toMatch(
			new RegExp(`^/${storage.bucket}/ideal-house-uploads/[0-9a-f]{32}\\.jpg$`),
		);

		const body = creates()[0].body as { imageUrl: string; emptyType: string };
		expect(Object.keys(body).sort()).toEqual(['emptyType', 'imageUrl']);
		const link = new URL(body.imageUrl);
		expect(`${link.origin}${link.pathname}`).toBe(`${storage.endpoint}${put.path}`);
		expect(link.searchParams.get('X-Amz-Expires')).toBe('900');
		expect(verifyLink(body.imageUrl)).toMatchObject({ ok: true, presigned: true });

		expect(deletes()).toHaveLength(1);
		expect(deletes()[0]).toMatchObject({ path: put.path, status: 204, verdict: { ok: true } });
		expect(await stillStored()).toEqual([]);
	});

	test('what leaves n8n: the Ideal House key never goes to the storage, the storage secret goes nowhere', async () => {
		answerTask(OR.create, OR.result, '42');

		const { items } = await runNode(oneJpegToRemove());

		for (const request of storage.requests) {
			expect(JSON.stringify(request.headers)).not.toContain(API_KEY);
			expect(JSON.stringify(request.headers)).not.toContain(STORAGE_SECRET);
			expect(request.query.toString()).not.toContain(encodeURIComponent(STORAGE_SECRET));
		}
		const everythingElse = JSON.stringify([recorded, items, logLines]);
		expect(everythingElse).not.toContain(STORAGE_SECRET);
		expect(everythingElse).not.toContain(encodeURIComponent(STORAGE_SECRET));
	});

	test('Photo Enhancer: several property names are uploaded and sent as one list, in order (HDR brackets)', async () => {
		answerTask(PE.create, PE.result, '43');
		// Exposures of one shot: one size, whatever their formats.
		const png = pngImage(640, 480);
		const brackets = { dark: png, mid: JPEG, bright: png };

		const { items, error } = await runNode({
			node: 'photoEnhancer',
			parameters: {
				operation: 'enhance',
				imageSource: 'binary',
				imageBinaryProperty: 'dark, mid,bright',
				presetId: 'hdr-merge-hdr-merge',
				imageSize: '2K',
			},
			items: [fileItem(brackets)],
			storageCredentials: storage.credentials,
		});

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('Success');
		expect(puts().map((put) => put.bytes)).toEqual([png.length, JPEG.length, png.length]);
		expect(puts().map((put) => put.headers['content-type'])).toEqual([
			'image/png',
			'image/jpeg',
			'image/png',
		]);
		const { imageUrl } = creates()[0].body as { imageUrl: string[] };
		expect(imageUrl.map((link) => new URL(link).pathname)).toEqual(puts().map((put) => put.path));
		expect(deletes()).toHaveLength(3);
		expect(await stillStored()).toEqual([]);
	});

	test('Ideal House AI: a resource with imageUrl takes the file the same way', async () => {
		answerTask(VS_CREATE, VS_RESULT, '44');

		const { items, error } = await runNode(stageFile({ room: PNG }));

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('Success');
		const { imageUrl } = creates()[0].body as { imageUrl: string };
		expect(new URL(imageUrl).pathname).toBe(puts()[0].path);
		expect(puts()[0].path).toMatch(/\.png$/);
		expect(await stillStored()).toEqual([]);
	});

	test("the link is signed once the photo is up, in the item's turn: its lifetime counts from the create, not from the check", async () => {
		answerTask(OR.create, OR.result, '42');
		// The upload takes over two seconds, as a large photo on a slow line would.
		storage.fault = ({ method }) => (method === 'PUT' ? { holdMs: 2100 } : undefined);

		const { error } = await runNode(oneJpegToRemove());

		expect(error).toBeUndefined();
		const amzDate = (text: string | null) =>
			Date.parse(
				String(text).replace(
					/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
					'$1-$2-$3T$4:$5:$6Z',
				),
			);
		const putSigned = amzDate(String(puts()[0].headers['x-amz-date']));
		const link = new URL((creates()[0].body as { imageUrl: string }).imageUrl);
		const linkSigned = amzDate(link.searchParams.get('X-Amz-Date'));
		expect(linkSigned - putSigned).toBeGreaterThanOrEqual(2000);
		expect(verifyLink(link.href)).toMatchObject({ ok: true, presigned: true });
	});

	test('the link lasts the Timeout plus 5 minutes, at least 5 minutes and at most 7 days', async () => {
		const expiresFor = async (timeout: number) => {
			resetWire();
			nock.enableNetConnect('127.0.0.1');
			answerTask(OR.create, OR.result, '45');
			await runNode({
				node: 'objectRemover',
				parameters: remove({ options: { timeout } }),
				items: [fileItem({ photo: JPEG })],
				storageCredentials: storage.credentials,
			});
			const { imageUrl } = creates()[0].body as { imageUrl: string };
			return new URL(imageUrl).searchParams.get('X-Amz-Expires');
		};
		expect(await expiresFor(60)).toBe('360');
		expect(await expiresFor(0.5)).toBe('301');
		expect(await expiresFor(30 * 24 * 3600)).toBe('604800');
	});
});

describe('a bad file is an item error naming the item and the property, with no request at all', () => {
	test.each([
		[
			'a property the item does not have',
			{ other: JPEG },
			'photo',
			/Image Binary Property "photo" is not on the item \(it has: other\) \[item 0\]/,
		],
		[
			'a file that is not an image',
			{ photo: Buffer.from('<html>not a photo</html>') },
			'photo',
			/Image Binary Property "photo" is not a JPEG, PNG or WebP image \[item 0\]/,
		],
		[
			'an empty file',
			{ photo: Buffer.alloc(0) },
			'photo',
			/Image Binary Property "photo" is empty \[item 0\]/,
		],
		[
			'several names for an API that takes one photo',
			{ photo: JPEG, more: JPEG },
			'photo,more',
			/Image Binary Property names 2 properties, but this API takes one photo per task \[item 0\]/,
		],
	])('%s', async (_case, files, property, message) => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove({ imageBinaryProperty: property }),
			items: [fileItem(files)],
			storageCredentials: storage.credentials,
		});

		expect(error?.message).toMatch(message);
		expect(storage.requests).toEqual([]);
		expect(recorded).toEqual([]);
	});

	test('a file over 20 MB', async () => {
		const limit = imageFileLimits.maxBytes;
		imageFileLimits.maxBytes = 1000;
		try {
			const { error } = await runNode(oneJpegToRemove());
			expect(error?.message).toMatch(
				/Image Binary Property "photo" is larger than 20 MB .* \[item 0\]/,
			);
		} finally {
			imageFileLimits.maxBytes = limit;
		}
		expect(storage.requests).toEqual([]);
		expect(recorded).toEqual([]);
	});

	test('the second item is refused, the first goes through', async () => {
		answerTask(OR.create, OR.result, '46');

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [fileItem({ photo: JPEG }), fileItem({ photo: Buffer.from('GIF89a...') })],
			storageCredentials: storage.credentials,
			onError: 'continueRegularOutput',
		});

		expect(items[0].json.status).toBe('Success');
		expect(items[1].json.error).toMatch(/"photo" is not a JPEG, PNG or WebP image \[item 1\]/);
		expect(puts()).toHaveLength(1);
		expect(creates()).toHaveLength(1);
	});

	test('no storage credential: the error says which one is needed', async () => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [fileItem({ photo: JPEG })],
		});

		expect(error?.message).toMatch(
			/Image Source is "Binary File", which needs an "Ideal House Upload Storage \(S3-compatible\)" credential \[item 0\]/,
		);
		expect(recorded).toEqual([]);
	});

	test('a bad field elsewhere in the item uploads nothing', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'enhance', imageSource: 'binary', imageSize: '4K', presetId: '' },
			items: [fileItem({ data: JPEG })],
			storageCredentials: storage.credentials,
		});

		expect(error?.message).toMatch(/Preset or Prompt is required/);
		expect(storage.requests).toEqual([]);
		expect(recorded).toEqual([]);
	});
});

describe('storage faults at each step of the upload', () => {
	test('a PUT that fails with 503 is sent again, then the task is created', async () => {
		answerTask(OR.create, OR.result, '47');
		let failures = 1;
		storage.fault = ({ method }) =>
			method === 'PUT' && failures-- > 0 ? { status: 503, code: 'SlowDown' } : undefined;

		const { items, error } = await runNode(oneJpegToRemove());

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('Success');
		expect(puts().map((put) => put.status)).toEqual([503, 200]);
		expect(puts()[0].path).toBe(puts()[1].path);
		expect(creates()).toHaveLength(1);
	});

	test('a PUT whose connection drops is sent again', async () => {
		answerTask(OR.create, OR.result, '48');
		let failures = 1;
		storage.fault = ({ method }) =>
			method === 'PUT' && failures-- > 0 ? { reset: true } : undefined;

		const { items } = await runNode(oneJpegToRemove());

		expect(items[0].json.status).toBe('Success');
		expect(puts()).toHaveLength(2);
	});

	test('a PUT that keeps failing with 5xx fails the item after 4 attempts, before the create', async () => {
		storage.fault = ({ method }) =>
			method === 'PUT' ? { status: 500, code: 'InternalError' } : undefined;

		const { error } = await runNode(oneJpegToRemove());

		expect(error?.message).toMatch(
			/Upload storage \(bucket "listing-photos" at 127\.0\.0\.1:\d+\) failed while uploading the photo: the storage is failing right now \(HTTP 500 InternalError\)/,
		);
		expect(puts()).toHaveLength(storageLimits.putAttempts);
		expect(creates()).toEqual([]);
	});

	test.each([
		['AccessDenied', 403, /the key may not do this \(AccessDenied\)/, /s3:PutObject/],
		['InvalidAccessKeyId', 403, /access key ID is not known/, /Access Key ID/],
		['SignatureDoesNotMatch', 403, /secret access key does not belong/, /Secret Access Key/],
		['NoSuchBucket', 404, /no such bucket/, /Force Path Style/],
		['AuthorizationHeaderMalformed', 400, /not in region "eu-west-1"/, /Set Region/],
	])(
		'a PUT refused with %s is an item error that says what to fix, sent once, nothing created',
		async (code, status, message, todo) => {
			storage.fault = ({ method }) => (method === 'PUT' ? { status, code } : undefined);

			const { error } = await runNode(oneJpegToRemove());

			expect(error?.message).toMatch(/^Upload storage \(bucket "listing-photos" at /);
			expect(error?.message).toMatch(message);
			expect(error?.description).toMatch(todo);
			expect(error?.description).toMatch(/no credit was spent/);
			expect(puts()).toHaveLength(1);
			expect(creates()).toEqual([]);
		},
	);

	test('the real refusals, from the verifying store: a wrong secret and a wrong region', async () => {
		const wrongSecret = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [fileItem({ photo: JPEG })],
			storageCredentials: { ...storage.credentials, secretAccessKey: 'not-the-right-secret' },
		});
		expect(wrongSecret.error?.message).toMatch(/SignatureDoesNotMatch/);
		expect(wrongSecret.error?.message).not.toContain('not-the-right-secret');

		const wrongRegion = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [fileItem({ photo: JPEG })],
			storageCredentials: { ...storage.credentials, region: 'us-west-2' },
		});
		expect(wrongRegion.error?.message).toMatch(/not in region "us-west-2"/);
		expect(creates()).toEqual([]);
	});

	test('a redirect from the storage is not followed: the signed request goes nowhere else', async () => {
		storage.fault = ({ method }) =>
			method === 'PUT'
				? {
						status: 301,
						code: 'PermanentRedirect',
						headers: {
							location: 'http://127.0.0.1:9/elsewhere',
							'x-amz-bucket-region': 'ap-south-1',
						},
					}
				: undefined;

		const { error } = await runNode(oneJpegToRemove());

		expect(error?.message).toMatch(/the bucket is not in region "eu-west-1" but in "ap-south-1"/);
		expect(puts()).toHaveLength(1);
		expect(creates()).toEqual([]);
	});

	test('Stop during the PUT ends the item at once; nothing is created', async () => {
		// The PUT is held back far longer than any test runs; Stop is pressed once it has arrived.
		storage.fault = ({ method }) => {
			if (method !== 'PUT') return undefined;
			run.stop();
			return { holdMs: 600_000 };
		};

		const run = startRun(oneJpegToRemove());
		const { error } = await settles(run.result, 'the run ends on Stop while the PUT is held');

		expect(error?.message).toBe('Execution stopped while the photo was being uploaded');
		expect(error?.description).toMatch(/Nothing was sent to Ideal House/);
		await flushEventLoop();
		expect(recorded).toEqual([]);
	});

	test('a DELETE that fails never fails the paid item: it is a warning on it', async () => {
		answerTask(OR.create, OR.result, '49');
		storage.fault = ({ method }) =>
			method === 'DELETE' ? { status: 500, code: 'InternalError' } : undefined;

		const { items, error } = await runNode(oneJpegToRemove());

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '49', status: 'Success', creditsCharged: 1 });
		expect(items[0].json.warnings).toEqual([
			expect.stringMatching(
				/^The uploaded photo could not be deleted from the upload storage: ideal-house-uploads\/[0-9a-f]{32}\.jpg \(.*HTTP 500 InternalError.*\)\. It stays there until the bucket's lifecycle rule/,
			),
		]);
		expect(await stillStored()).toHaveLength(1);
		expect(logLines.join('\n')).toMatch(/could not be deleted/);
	});
});

describe('how long the object lives', () => {
	test('without waiting, the object is kept and the item says where it is and until when', async () => {
		serveTask(OR, '50');
		const before = Date.now();

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: remove({ waitForCompletion: false }),
			items: [fileItem({ photo: JPEG })],
			storageCredentials: storage.credentials,
		});

		const upload = items[0].json.upload as { bucket: string; keys: string[]; expiresAt: string };
		expect(items[0].json).toMatchObject({ id: '50', status: 'Unprocessed' });
		expect(upload.bucket).toBe('listing-photos');
		expect(upload.keys).toEqual([puts()[0].path.replace('/listing-photos/', '')]);
		// The task may wait in the service's queue after the item ends: its link lasts a day.
		const expiresAt = Date.parse(upload.expiresAt);
		expect(expiresAt).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
		expect(expiresAt).toBeLessThanOrEqual(Date.now() + 86_400_000);
		expect(deletes()).toEqual([]);
		expect(await stillStored()).toEqual(upload.keys);
	});

	test('Keep Uploaded Photos keeps the object after the task', async () => {
		answerTask(OR.create, OR.result, '51');

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: remove({ options: { keepUploads: true } }),
			items: [fileItem({ photo: JPEG })],
			storageCredentials: storage.credentials,
		});

		expect(items[0].json.status).toBe('Success');
		expect((items[0].json.upload as { keys: string[] }).keys).toHaveLength(1);
		expect(deletes()).toEqual([]);
	});

	test('a task that ends Failed: the object is deleted', async () => {
		answerTask(OR.create, OR.result, '52', 'Failed');

		const { error } = await runNode(oneJpegToRemove());

		expect(error?.message).toMatch(/task 52 failed/);
		expect(deletes()).toHaveLength(1);
		expect(await stillStored()).toEqual([]);
	});

	test('a create the service refuses: nothing was created, the object is deleted at once', async () => {
		api()
			.post(OR.create)
			.reply(200, '{"code":1011,"message":"imageUrl could not be fetched","data":null}');

		const { error } = await runNode(oneJpegToRemove());

		expect(error?.message).toMatch(/1011/);
		expect(deletes()).toHaveLength(1);
		expect(await stillStored()).toEqual([]);
	});

	test("a refusal that quotes the presigned link keeps the link's address, not its signature", async () => {
		let link = '';
		api()
			.post(OR.create)
			.reply(200, (_path, body) => {
				link = String((body as { imageUrl: string }).imageUrl);
				const query = link.slice(link.indexOf('?'));
				return { code: 1011, message: `cannot fetch ${query}`, data: null };
			});

		const { error, run } = await runNode(oneJpegToRemove());

		const signature = new URL(link).searchParams.get('X-Amz-Signature') ?? '';
		expect(signature).toMatch(/^[0-9a-f]{64}$/);
		expect(error?.message).toContain('X-Amz-Expires=900&X-Amz-Signature=[redacted]');
		expect(JSON.stringify([error, run, logLines])).not.toContain(signature);
	});

	test('Stop while the task runs: the object is deleted all the same', async () => {
		serveTask(OR, '53', { status: 'Processing', times: 1000 });
		// Stop is pressed as the wait after the second status check begins.
		const { error } = await runStoppedInWait(oneJpegToRemove(), 2);

		expect(error?.message).toMatch(/stopped/i);
		// The delete runs on after Stop: wait for the bucket's answer to it, not only its arrival.
		await settled(() => deletes().filter((request) => request.status !== 0).length, 1);
		expect(deletes()).toHaveLength(1);
		expect(await stillStored()).toEqual([]);
	});
});

describe('Preview with a photo that is a file', () => {
	test('checks the file, shows the signed link the service would get, and uploads nothing', async () => {
		const { items, error } = await runNode(stageFile({ photo: JPEG }, { preview: true }));

		expect(error).toBeUndefined();
		expect(storage.requests).toEqual([]);
		expect(recorded).toEqual([]);
		const preview = items[0].json.preview as { body: { imageUrl: string } };
		expect(preview).toMatchObject({
			method: 'POST',
			path: '/api/v1/virtualStaging/generate',
			credits: 1,
		});
		const link = new URL(preview.body.imageUrl);
		expect(`${link.origin}${link.pathname}`).toMatch(
			new RegExp(`^${storage.endpoint}/${storage.bucket}/ideal-house-uploads/[^/]+\\.jpg$`),
		);
		expect(link.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
		expect(JSON.stringify(items)).not.toContain(STORAGE_SECRET);
		expect(JSON.stringify(items)).not.toContain(API_KEY);
	});

	test('a file that is not a photo is refused in a preview too, with nothing sent', async () => {
		const notAPhoto = Buffer.from('<html>not a photo</html>');
		const { error } = await runNode(stageFile({ photo: notAPhoto }, { preview: true }));

		expect(error?.message).toMatch(/photo/);
		expect(storage.requests).toEqual([]);
		expect(recorded).toEqual([]);
	});
});

describe('the panel keeps Resource and Operation with Image Source on it', () => {
	const nodes: Array<[string, INodeTypeDescription]> = [
		['Photo Enhancer', new PhotoEnhancer().description],
		['Object Remover', new ObjectRemover().description],
		['Ideal House AI', new IdealHouse().description],
	];

	// n8n's editor takes each parameter a credential's `show` names for an authentication field,
	// and leaves off the panel every parameter that such a field's own `show` names.
	test.each(nodes)('%s: no parameter is taken for part of the authentication', (_node, node) => {
		const credentialKeys = new Set(
			(node.credentials ?? []).flatMap((credential) =>
				Object.keys(credential.displayOptions?.show ?? {}),
			),
		);
		const authFields = node.properties.filter((property) => credentialKeys.has(property.name));
		// Photo Link twice: one field per node version, each with its own default.
		expect(authFields.map((field) => field.name).sort()).toEqual([
			'authentication',
			'imageSource',
			'photoLink',
			'photoLink',
		]);
		const leftOff = node.properties.filter((property) =>
			authFields.some((field) => property.name in (field.displayOptions?.show ?? {})),
		);
		expect(leftOff.map((property) => property.name)).toEqual([]);
	});

	function shownIn(node: INodeTypeDescription, name: string, parameters: INodeParameters) {
		return node.properties
			.filter((property) => property.name === name)
			.some((property) =>
				NodeHelpers.displayParameter(parameters, property, { typeVersion: 1 } as never, node),
			);
	}

	test('Image Source is on every Create that takes imageUrl, and on nothing else', () => {
		const node = new IdealHouse().description;
		const at = (resource: string, operation: string) =>
			shownIn(node, 'imageSource', { resource, operation });

		expect(at('virtualStaging', 'create')).toBe(true);
		expect(at('magicEditor', 'create')).toBe(true);
		expect(at('floorPlan', 'create')).toBe(false);
		expect(at('housePlan', 'create')).toBe(false);
		expect(at('custom', 'create')).toBe(false);
		expect(at('virtualStaging', 'getResult')).toBe(false);
		const enhancer = new PhotoEnhancer().description;
		expect(shownIn(enhancer, 'imageSource', { operation: 'enhance' })).toBe(true);
		expect(shownIn(enhancer, 'imageSource', { operation: 'getResult' })).toBe(false);
	});
});

/**
 * The bucket as S3 clients treat it, in n8n's engine: endpoints at an IP address or `localhost`
 * addressed path style, a bucket name with a dot too over https, S3's bucket naming rules before
 * any request, a PUT answered not as S3 does taken for what it is, and storage errors that never
 * quote the signed request. Ideal House is answered by nock; the bucket is the verifying local
 * store, an https stand-in behind an S3 endpoint's certificate, or nock where a host must be
 * named that this machine cannot reach.
 */
import nock from 'nock';

import { logLines, runCredentialTest, runNode } from '../dev/harness/engine';
import { bucketNameProblem } from '../nodes/shared/storage/bucket-names';
import { bucketUrl, objectUrl, storageSettings } from '../nodes/shared/storage/settings';
import { storageLimits } from '../nodes/shared/basics/limits';
import { DONE, OR, TINY_PNG, api, created, recorded, serveTask, taskResponse } from './helpers/api';
import {
	STORAGE_KEY_ID,
	STORAGE_REGION,
	STORAGE_SECRET,
	type TestStorage,
} from './helpers/s3-storage';
import { eachTestWithStorage } from './helpers/journey';
import { verifySigV4 } from './helpers/sigv4-verifier';
import { startTlsStorage, type TlsStorage } from './helpers/tls-storage';

const KEY_PATH = /^\/listing-photos\/ideal-house-uploads\/[0-9a-f]{32}\.png$/;
/** Text of the signed request that no error, item or log line may carry. */
const SIGNED_REQUEST_TEXTS = ['Authorization', 'Credential=', 'Signature=', 'X-Amz-Signature'];
/** AWS's documented example secret, as a user might paste it into the wrong field. */
const PASTED_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

let storage: TestStorage;
eachTestWithStorage((started) => (storage = started));
/** Requests no nock interceptor took: a request to a host the test did not expect. */
const unexpected: string[] = [];
const onNoMatch = (req: { method?: string; path?: string; host?: string }) =>
	unexpected.push(`${req.method} ${req.host ?? ''}${req.path ?? ''}`);

beforeAll(() => nock.emitter.on('no match', onNoMatch));
afterAll(() => nock.emitter.removeListener('no match', onNoMatch));
beforeEach(() => (unexpected.length = 0));

const remove = () => ({
	operation: 'remove',
	imageSource: 'binary',
	imageBinaryProperty: 'photo',
	emptyType: 'whole_house',
});
const photoItem = () => ({
	json: {},
	binary: {
		photo: { data: TINY_PNG.toString('base64'), mimeType: 'image/png', fileName: 'room.png' },
	},
});
const creates = () => recorded.filter((request) => request.method === 'POST');

function answerTask(id: string) {
	serveTask(OR, id, DONE);
}

/** A credential for a storage this machine cannot reach: nock answers for it. */
function remoteCredentials(endpoint: string, change: Record<string, unknown> = {}) {
	return {
		endpoint,
		region: STORAGE_REGION,
		bucket: 'listing-photos',
		accessKeyId: STORAGE_KEY_ID,
		secretAccessKey: STORAGE_SECRET,
		forcePathStyle: false,
		...change,
	};
}

/** What a storage on the wire saw: each request's method, full URL and headers. */
function wire(host: string) {
	const seen: Array<{ method: string; url: string; headers: Record<string, unknown> }> = [];
	const scope = nock(host);
	scope.on('request', (req: { method: string; path: string; headers: Record<string, unknown> }) =>
		seen.push({ method: req.method, url: `${host}${req.path}`, headers: req.headers }),
	);
	return { scope, seen };
}

describe('an endpoint at an IP address or localhost is addressed path style, whatever Force Path Style says', () => {
	test('MinIO at http://127.0.0.1 with Force Path Style off: PUT, link and DELETE all go to <endpoint>/<bucket>/<key>', async () => {
		answerTask('71');

		const { items, error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: { ...storage.credentials, forcePathStyle: false },
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '71', status: 'Success' });
		const [put, removed] = storage.requests;
		expect(storage.requests.map(({ method }) => method)).toEqual(['PUT', 'DELETE']);
		expect(put).toMatchObject({ status: 200, verdict: { ok: true, presigned: false } });
		expect(put.path).toMatch(KEY_PATH);
		expect(removed).toMatchObject({ path: put.path, status: 204 });
		const { imageUrl } = creates()[0].body as { imageUrl: string };
		const link = new URL(imageUrl);
		expect(`${link.origin}${link.pathname}`).toBe(`${storage.endpoint}${put.path}`);
		expect(
			verifySigV4(
				{ method: 'GET', rawUrl: `${link.pathname}${link.search}`, headers: { host: link.host } },
				{ secrets: { [STORAGE_KEY_ID]: STORAGE_SECRET }, region: STORAGE_REGION },
			),
		).toMatchObject({ ok: true, presigned: true });
	});

	test.each([
		['MinIO at https://192.168.1.10:9000', 'https://192.168.1.10:9000'],
		['an IPv6 endpoint', 'https://[fd00::10]:9000'],
		['localhost', 'http://localhost:9000'],
	])(
		'%s with Force Path Style off: the PUT is sent to <endpoint>/<bucket>/<key>',
		async (_case, endpoint) => {
			answerTask('72');
			const storageWire = wire(endpoint);
			storageWire.scope
				.put(KEY_PATH)
				.reply(200, '', { ETag: '"5d41402abc4b2a76b9719d911017c592"' })
				.delete(KEY_PATH)
				.reply(204);

			const { items, error } = await runNode({
				node: 'objectRemover',
				parameters: remove(),
				items: [photoItem()],
				storageCredentials: remoteCredentials(endpoint),
			});

			expect(error).toBeUndefined();
			expect(items[0].json.status).toBe('Success');
			expect(unexpected).toEqual([]);
			const [put, removed] = storageWire.seen;
			expect(storageWire.seen.map(({ method }) => method)).toEqual(['PUT', 'DELETE']);
			expect(put.url).toMatch(
				new RegExp(
					`^${endpoint.replace(/[.[\]]/g, '\\$&')}/listing-photos/ideal-house-uploads/[0-9a-f]{32}\\.png$`,
				),
			);
			expect(put.headers.host).toBe(new URL(endpoint).host);
			expect(removed.url).toBe(put.url);
			const { imageUrl } = creates()[0].body as { imageUrl: string };
			expect(imageUrl.startsWith(`${put.url}?`)).toBe(true);
		},
	);

	test('plain http to another machine stays refused, named, with nothing sent (photos must not travel unencrypted)', async () => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: remoteCredentials('http://192.168.1.10:9000'),
		});

		expect(error?.message).toMatch(
			/^The storage endpoint must start with https:\/\/ \(plain http only on this machine\).* \[item 0\]$/,
		);
		expect(error?.message).not.toMatch(/Invalid URL/);
		expect(unexpected).toEqual([]);
		expect(recorded).toEqual([]);
	});

	test('a host name that does not resolve with the bucket in front of it: the error names Force Path Style', async () => {
		const storageWire = wire('https://listing-photos.minio:9000');
		storageWire.scope
			.put(/.*/)
			.times(storageLimits.putAttempts)
			.replyWithError(
				Object.assign(new Error('getaddrinfo ENOTFOUND listing-photos.minio'), {
					code: 'ENOTFOUND',
				}),
			);

		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: remoteCredentials('https://minio:9000'),
		});

		expect(error?.message).toMatch(
			/^Upload storage \(bucket "listing-photos" at minio:9000\) could not be reached while uploading the photo/,
		);
		expect(error?.description).toMatch(
			/network error ENOTFOUND\. .* The bucket is addressed as listing-photos\.minio:9000 \(Force Path Style off\): .*turn on Force Path Style/,
		);
		expect(creates()).toEqual([]);
	});
});

describe('a bucket name with a dot, over https with Force Path Style off, is addressed path style: no certificate covers it as a host name', () => {
	/** The stand-in's certificate names this host and `*.` it, as an S3 endpoint's does. */
	const HOST = 's3.storage.test';
	const DOTTED = 'listing.photos.eu';
	let store: TlsStorage;
	beforeAll(async () => (store = await startTlsStorage(HOST)));
	afterAll(async () => await store.close());
	beforeEach(() => {
		store.requests.length = 0;
		// The stand-in's names resolve to loopback; nock lets them through with loopback itself.
		nock.enableNetConnect((host: string) =>
			/^(?:127\.0\.0\.1|(?:[a-z0-9.-]+\.)?s3\.storage\.test)(?::\d+)?$/.test(host),
		);
	});

	/** The create fetches its photo's link before it answers, as the service does. */
	function serveTaskFetchingTheLink(id: string): { statuses: number[] } {
		const fetched = { statuses: [] as number[] };
		api()
			.post(OR.create)
			.reply(async (_uri, body) => {
				fetched.statuses.push(await store.fetch((body as { imageUrl: string }).imageUrl));
				return [200, created(id)];
			})
			.get(OR.result)
			.query({ taskId: id })
			.reply(200, taskResponse(id, DONE));
		return fetched;
	}

	test(`${DOTTED}: PUT, link and DELETE all go to <endpoint>/${DOTTED}/<key>, signed for that URL, and the link opens`, async () => {
		const fetched = serveTaskFetchingTheLink('75');

		const { items, error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: store.credentials(DOTTED),
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '75', status: 'Success' });
		const endpointHost = new URL(store.endpoint).host;
		expect(store.requests.map(({ method, host }) => `${method} ${host}`)).toEqual([
			`PUT ${endpointHost}`,
			`GET ${endpointHost}`,
			`DELETE ${endpointHost}`,
		]);
		const [put, get, removed] = store.requests;
		expect(put.path).toMatch(/^\/listing\.photos\.eu\/ideal-house-uploads\/[0-9a-f]{32}\.png$/);
		expect(put).toMatchObject({ status: 200, verdict: { ok: true, presigned: false } });
		expect(get).toMatchObject({
			path: put.path,
			status: 200,
			sha256: put.sha256,
			verdict: { ok: true, presigned: true },
		});
		expect(fetched.statuses).toEqual([200]);
		expect(removed).toMatchObject({ path: put.path, status: 204, verdict: { ok: true } });
		const { imageUrl } = creates()[0].body as { imageUrl: string };
		const link = new URL(imageUrl);
		expect(`${link.origin}${link.pathname}`).toBe(`${store.endpoint}${put.path}`);
		expect(store.keys()).toEqual([]);
	});

	test('a name without a dot at the same endpoint stays virtual-hosted: the certificate covers <bucket>.<endpoint host>', async () => {
		const fetched = serveTaskFetchingTheLink('76');

		const { items, error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: store.credentials('listing-photos'),
		});

		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: '76', status: 'Success' });
		const bucketHost = `listing-photos.${new URL(store.endpoint).host}`;
		expect(store.requests.map(({ method, host, status }) => `${method} ${host} ${status}`)).toEqual(
			[`PUT ${bucketHost} 200`, `GET ${bucketHost} 200`, `DELETE ${bucketHost} 204`],
		);
		expect(store.requests[0].path).toMatch(/^\/ideal-house-uploads\/[0-9a-f]{32}\.png$/);
		expect(fetched.statuses).toEqual([200]);
	});

	test(`the credential's Test lists ${DOTTED} path style too`, async () => {
		const result = await runCredentialTest(store.credentials(DOTTED), 'idealHouseStorageApi');

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(store.requests).toHaveLength(1);
		expect(store.requests[0]).toMatchObject({
			method: 'GET',
			host: new URL(store.endpoint).host,
			path: `/${DOTTED}`,
			verdict: { ok: true },
		});
	});
});

describe("bucket names follow S3's rules, checked before any request; the message names the rule, never the value", () => {
	test.each([
		['a..b', /it has two dots in a row/],
		['Listing', /it has upper-case letters, .*with Force Path Style on only/],
		['my_bucket', /it has underscores, .*with Force Path Style on only/],
		// Sent path style for its dot, but S3 refuses upper case whatever the addressing.
		['Listing.Photos', /it has upper-case letters, .*with Force Path Style on only/],
		['192.168.1.1', /it is shaped like an IP address/],
		['xn--abc', /it begins with "xn--", which AWS keeps for itself/],
		['a'.repeat(64), /it has 64 characters, and a bucket name has 3 to 63/],
		['photos-s3alias', /it ends with "-s3alias"/],
		[PASTED_SECRET, /it has a character other than lower-case letters, digits, dots, hyphens/],
	])('%s', async (bucket, rule) => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: remoteCredentials('https://s3.eu-west-1.amazonaws.com', { bucket }),
		});

		expect(error?.message).toMatch(/^Bucket is not a valid bucket name: /);
		expect(error?.message).toMatch(rule);
		expect(error?.message).toMatch(
			/Fix it in the "Ideal House Upload Storage \(S3-compatible\)" credential\. \[item 0\]$/,
		);
		expect(error?.message).not.toContain(bucket);
		expect(JSON.stringify(error)).not.toContain(bucket);
		expect(unexpected).toEqual([]);
		expect(recorded).toEqual([]);
	});

	test('with Force Path Style on, upper case and underscores are sent, path style (MinIO, older stores)', async () => {
		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: { ...storage.credentials, bucket: 'Old_Listing' },
		});

		// The verifying store has no such bucket: what matters is where the PUT went, signed.
		expect(error?.message).toMatch(/no such bucket at this endpoint \(NoSuchBucket\)/);
		expect(storage.requests[0]).toMatchObject({ method: 'PUT', verdict: { ok: true } });
		expect(storage.requests[0].path).toMatch(
			/^\/Old_Listing\/ideal-house-uploads\/[0-9a-f]{32}\.png$/,
		);
		expect(creates()).toEqual([]);
	});
});

describe('a PUT answered 2xx not as S3 does (no ETag, a weak one, an HTML page) did not store the photo', () => {
	test('a login page answered 200: the item fails before the create, the object is deleted as on any failed upload', async () => {
		const endpoint = 'https://listing-photos.storage.example.com';
		const storageWire = wire(endpoint);
		storageWire.scope
			.put(/^\/ideal-house-uploads\/[0-9a-f]{32}\.png$/)
			.reply(200, '<html><body>Sign in to the guest network</body></html>', {
				'Content-Type': 'text/html',
			})
			.delete(/^\/ideal-house-uploads\/[0-9a-f]{32}\.png$/)
			.reply(204);

		const { error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: remoteCredentials('https://storage.example.com'),
		});

		expect(error?.message).toBe(
			'Upload storage (bucket "listing-photos" at storage.example.com) failed while uploading the photo: it answered, but not as S3 does (HTTP 200 without an ETag): a proxy or a login page?',
		);
		expect(error?.description).toMatch(
			/not its web console.*Nothing was sent to Ideal House and no credit was spent\./,
		);
		expect(storageWire.seen.map(({ method }) => method)).toEqual(['PUT', 'DELETE']);
		expect(storageWire.seen[1].url).toBe(storageWire.seen[0].url);
		expect(creates()).toEqual([]);
		expect(unexpected).toEqual([]);
	});

	const STRONG_ETAG = '"5d41402abc4b2a76b9719d911017c592"';
	test.each([
		['a weak ETag', 'with a weak ETag', { ETag: 'W/"5d41402abc4b2a76b9719d911017c592"' }, ''],
		[
			'an ETag without quotes',
			'with an unquoted ETag',
			{ ETag: '5d41402abc4b2a76b9719d911017c592' },
			'',
		],
		[
			'a strong ETag and a sign-in page',
			'with an HTML page',
			{ ETag: STRONG_ETAG, 'Content-Type': 'text/html; charset=utf-8' },
			'<!DOCTYPE html><html><body>Sign in to continue</body></html>',
		],
		[
			'a strong ETag and an HTML page sent as something else',
			'with an HTML page',
			{ ETag: STRONG_ETAG, 'Content-Type': 'application/octet-stream' },
			'\n<html lang="en"><head><title>Web console</title></head></html>',
		],
	])(
		'200 with %s: "not as S3 does", the object deleted, nothing created',
		async (_case, how, headers, page) => {
			const endpoint = 'https://listing-photos.storage.example.com';
			const key = /^\/ideal-house-uploads\/[0-9a-f]{32}\.png$/;
			const storageWire = wire(endpoint);
			storageWire.scope.put(key).reply(200, page, headers).delete(key).reply(204);

			const { error } = await runNode({
				node: 'objectRemover',
				parameters: remove(),
				items: [photoItem()],
				storageCredentials: remoteCredentials('https://storage.example.com'),
			});

			expect(error?.message).toBe(
				`Upload storage (bucket "listing-photos" at storage.example.com) failed while uploading the photo: it answered, but not as S3 does (HTTP 200 ${how}): a proxy or a login page?`,
			);
			expect(error?.description).toMatch(
				/not its web console.*Nothing was sent to Ideal House and no credit was spent\./,
			);
			// Sent once (the answer is no passing fault), then deleted at the same address.
			expect(storageWire.seen.map(({ method }) => method)).toEqual(['PUT', 'DELETE']);
			expect(storageWire.seen[1].url).toBe(storageWire.seen[0].url);
			expect(creates()).toEqual([]);
			expect(unexpected).toEqual([]);
		},
	);
});

describe('storage errors never carry the signed request', () => {
	function expectNoSignedRequest(texts: unknown[], signature: string) {
		const all = JSON.stringify(texts);
		for (const text of [...SIGNED_REQUEST_TEXTS, signature, STORAGE_KEY_ID, STORAGE_SECRET]) {
			expect(all).not.toContain(text);
		}
	}

	test("S3's <Message> quotes the Authorization header of the PUT, and a link's query on the DELETE", async () => {
		const endpoint = 'https://listing-photos.storage.example.com';
		const storageWire = wire(endpoint);
		let signature = '';
		storageWire.scope
			.put(/.*/)
			.reply(function () {
				const authorization = String(this.req.headers.authorization);
				signature = /Signature=([0-9a-f]{64})/.exec(authorization)?.[1] ?? 'none';
				return [
					400,
					`<?xml version="1.0" encoding="UTF-8"?><Error><Code>InvalidArgument</Code><Message>Unsupported header: Authorization: ${authorization}</Message><RequestId>1</RequestId></Error>`,
					{ 'Content-Type': 'application/xml' },
				];
			})
			.delete(/.*/)
			.reply(function () {
				return [
					400,
					`<Error><Code>InvalidRequest</Code><Message>Request ${endpoint}${this.req.path}?X-Amz-Algorithm=AWS4-HMAC-SHA256&amp;X-Amz-Credential=${STORAGE_KEY_ID}%2F20261126&amp;X-Amz-Signature=${signature} is refused</Message></Error>`,
					{ 'Content-Type': 'application/xml' },
				];
			});

		const { items, error } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: remoteCredentials('https://storage.example.com'),
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		expect(signature).toMatch(/^[0-9a-f]{64}$/);
		const json = items[0].json as { error: string; description?: string };
		expect(json.error).toMatch(
			/failed while uploading the photo: the storage answered HTTP 400 InvalidArgument \(its message quoted the signed request and is left out\)/,
		);
		expect(storageWire.seen.map(({ method }) => method)).toEqual(['PUT', 'DELETE']);
		// The failed DELETE is logged: the log line is cleared the same way.
		expect(logLines.join('\n')).toMatch(
			/could not be deleted.*HTTP 400 InvalidRequest \(its message quoted/,
		);
		expectNoSignedRequest([items, logLines], signature);
		expect(creates()).toEqual([]);
	});

	test('a network error whose text quotes the request is told by its code alone', async () => {
		const storageWire = wire('https://listing-photos.storage.example.com');
		storageWire.scope
			.put(/.*/)
			.times(storageLimits.putAttempts)
			.replyWithError(
				Object.assign(
					new Error(
						`socket hang up; Authorization: AWS4-HMAC-SHA256 Credential=${STORAGE_KEY_ID}/x, Signature=${'ab'.repeat(32)}`,
					),
					{ code: 'ECONNRESET' },
				),
			)
			.delete(/.*/)
			.reply(204);

		const { items } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			items: [photoItem()],
			storageCredentials: remoteCredentials('https://storage.example.com'),
			onError: 'continueRegularOutput',
		});

		expect(items[0].json.error).toMatch(/could not be reached while uploading the photo/);
		expect(JSON.stringify(items)).toMatch(/network error ECONNRESET/);
		expectNoSignedRequest([items, logLines], 'ab'.repeat(32));
	});
});

describe('the rules as pure functions', () => {
	test.each([
		['listing-photos', false, undefined],
		['my.photos.2026', false, undefined],
		['abc', false, undefined],
		['a'.repeat(63), false, undefined],
		['ab', false, 'it has 2 characters, and a bucket name has 3 to 63'],
		['', false, 'it is empty'],
		['-photos', false, 'it must begin and end with a letter or a digit'],
		['photos.', false, 'it must begin and end with a letter or a digit'],
		['Listing', true, undefined],
		['my_bucket', true, undefined],
		['_bucket', true, 'it must begin and end with a letter or a digit'],
		['Listing..Old', true, 'it has two dots in a row'],
		['10.0.0.1', true, 'it is shaped like an IP address'],
		[
			'my bucket',
			true,
			'it has a character other than letters, digits, dots, hyphens and underscores (a space, a slash, a colon or the like)',
		],
		['sthree-photos', false, 'it begins with "sthree-", which AWS keeps for itself'],
		['amzn-s3-demo-photos', false, 'it begins with "amzn-s3-demo-", which AWS keeps for itself'],
		['XN--abc', true, 'it begins with "xn--", which AWS keeps for itself'],
		[
			'photos--ol-s3',
			false,
			'it ends with "--ol-s3", which AWS keeps for access points and other bucket kinds',
		],
		[
			'photos.mrap',
			false,
			'it ends with ".mrap", which AWS keeps for access points and other bucket kinds',
		],
		[
			'photos--x-s3',
			false,
			'it ends with "--x-s3", which AWS keeps for access points and other bucket kinds',
		],
		[
			'photos--table-s3',
			false,
			'it ends with "--table-s3", which AWS keeps for access points and other bucket kinds',
		],
	])('%s (path style %s)', (name, pathStyle, problem) => {
		expect(bucketNameProblem(name, pathStyle)).toBe(problem);
	});

	test.each([
		['http://127.0.0.1:9000', false, 'http://127.0.0.1:9000/listing-photos'],
		['http://[::1]:9000/', false, 'http://[::1]:9000/listing-photos'],
		['https://[2001:db8::5]', false, 'https://[2001:db8::5]/listing-photos'],
		['http://localhost:9000/s3', false, 'http://localhost:9000/s3/listing-photos'],
		['https://10.0.0.7', false, 'https://10.0.0.7/listing-photos'],
		[
			'https://s3.eu-west-1.amazonaws.com',
			false,
			'https://listing-photos.s3.eu-west-1.amazonaws.com',
		],
		[
			'https://s3.eu-west-1.amazonaws.com',
			true,
			'https://s3.eu-west-1.amazonaws.com/listing-photos',
		],
		['https://minio.example.com:9000/', false, 'https://listing-photos.minio.example.com:9000'],
	])('%s, Force Path Style %s: %s', (endpoint, forcePathStyle, address) => {
		const settings = storageSettings(remoteCredentials(endpoint, { forcePathStyle }));
		if (typeof settings === 'string') throw new Error(settings);
		expect(bucketUrl(settings)).toBe(address);
		expect(new URL(objectUrl(settings, 'a b.png')).href).toBe(`${address}/a%20b.png`);
	});

	test.each([
		[
			'https://s3.eu-west-1.amazonaws.com',
			false,
			'https://s3.eu-west-1.amazonaws.com/listing.photos.eu',
		],
		[
			'https://s3.eu-west-1.amazonaws.com',
			true,
			'https://s3.eu-west-1.amazonaws.com/listing.photos.eu',
		],
		[
			'https://minio.example.com:9000/s3',
			false,
			'https://minio.example.com:9000/s3/listing.photos.eu',
		],
		['http://localhost:9000', false, 'http://localhost:9000/listing.photos.eu'],
	])('a dotted bucket at %s, Force Path Style %s: %s', (endpoint, forcePathStyle, address) => {
		const settings = storageSettings(
			remoteCredentials(endpoint, { forcePathStyle, bucket: 'listing.photos.eu' }),
		);
		if (typeof settings === 'string') throw new Error(settings);
		expect(bucketUrl(settings)).toBe(address);
	});

	test.each([
		['us-east-1', true],
		['auto', true],
		['garage', true],
		['eu west 1', false],
		[PASTED_SECRET, false],
	])('Region %s is accepted: %s', (region, accepted) => {
		const settings = storageSettings(
			remoteCredentials('https://s3.eu-west-1.amazonaws.com', { region }),
		);
		if (accepted) {
			expect(settings).toMatchObject({ region });
		} else {
			expect(settings).toMatch(/^Region may hold only letters, digits, hyphens and underscores/);
			expect(settings).not.toContain(region);
		}
	});
});

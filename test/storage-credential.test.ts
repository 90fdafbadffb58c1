import nock from 'nock';

import { IdealHouseStorageApi } from '../credentials/IdealHouseStorageApi.credentials';
import { runCredentialTest } from '../dev/harness/engine';
import {
	READ_ONLY_KEY_ID,
	READ_ONLY_SECRET,
	STORAGE_SECRET,
	startTestStorage,
	type TestStorage,
} from './helpers/s3-storage';

const TYPE = 'idealHouseStorageApi';
const UNKNOWN_KEY_ID = ['AKIA', 'UNKNOWN', '0000000'].join('');
/** AWS's documented example secret, as a user might paste it into the wrong field. */
const PASTED_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
let storage: TestStorage;

beforeAll(async () => {
	nock.enableNetConnect('127.0.0.1');
	storage = await startTestStorage();
});
afterAll(async () => {
	await storage.close();
	nock.restore();
});
beforeEach(() => {
	storage.requests.length = 0;
	storage.fault = undefined;
});

describe('the upload storage credential', () => {
	test('declares the fields of the contract', () => {
		const credential = new IdealHouseStorageApi();
		expect(credential.name).toBe('idealHouseStorageApi');
		expect(credential.displayName).toBe('Ideal House Upload Storage (S3-compatible)');
		expect(
			credential.properties.map(({ name, type, default: value }) => ({ name, type, value })),
		).toEqual([
			{ name: 'endpoint', type: 'string', value: '' },
			{ name: 'region', type: 'string', value: 'us-east-1' },
			{ name: 'bucket', type: 'string', value: '' },
			{ name: 'accessKeyId', type: 'string', value: '' },
			{ name: 'secretAccessKey', type: 'string', value: '' },
			{ name: 'forcePathStyle', type: 'boolean', value: false },
		]);
		expect(credential.properties[4].typeOptions).toEqual({ password: true });
	});

	test('Test passes with one signed, harmless request: a list of at most one upload', async () => {
		const result = await runCredentialTest(storage.credentials, TYPE);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(storage.requests).toHaveLength(1);
		const [request] = storage.requests;
		expect(request).toMatchObject({ method: 'GET', path: `/${storage.bucket}`, status: 200 });
		expect(request.verdict).toMatchObject({ ok: true, presigned: false });
		expect(Object.fromEntries(request.query)).toEqual({
			'list-type': '2',
			'max-keys': '1',
			prefix: 'ideal-house-uploads/',
		});
		expect(JSON.stringify(request.headers)).not.toContain(STORAGE_SECRET);
	});

	test.each([
		['an unknown access key ID', { accessKeyId: UNKNOWN_KEY_ID }, /HTTP 403.*InvalidAccessKeyId/],
		[
			'a wrong secret',
			{ secretAccessKey: 'not-the-secret-key' },
			/HTTP 403.*SignatureDoesNotMatch/,
		],
		['a bucket that does not exist', { bucket: 'no-such-bucket' }, /HTTP 404 NoSuchBucket/],
		['the wrong region', { region: 'us-west-2' }, /another region|wrong Region/],
	])('Test fails with what to fix for %s', async (_case, change, message) => {
		const result = await runCredentialTest({ ...storage.credentials, ...change }, TYPE);

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
		expect(result.message).not.toContain(STORAGE_SECRET);
	});

	test('a region redirect (301 with the bucket region) is reported as the wrong region, not followed', async () => {
		storage.fault = () => ({
			status: 301,
			code: 'PermanentRedirect',
			headers: { 'x-amz-bucket-region': 'ap-south-1', location: 'http://127.0.0.1:1/elsewhere' },
		});

		const result = await runCredentialTest(storage.credentials, TYPE);

		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/another region/) });
		expect(storage.requests).toHaveLength(1);
	});

	test('a read-only key passes the Test: listing is all it proves', async () => {
		const result = await runCredentialTest(
			{ ...storage.credentials, accessKeyId: READ_ONLY_KEY_ID, secretAccessKey: READ_ONLY_SECRET },
			TYPE,
		);
		expect(result.status).toBe('OK');
	});

	test('MinIO at 127.0.0.1 with Force Path Style off: Test passes, the bucket addressed path style', async () => {
		const result = await runCredentialTest({ ...storage.credentials, forcePathStyle: false }, TYPE);

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(storage.requests).toHaveLength(1);
		expect(storage.requests[0]).toMatchObject({
			method: 'GET',
			path: `/${storage.bucket}`,
			status: 200,
			verdict: { ok: true },
		});
	});

	describe('a bucket name S3 refuses fails the Test with the rule it breaks, never the value, and nothing is sent', () => {
		const unexpected: string[] = [];
		const onNoMatch = (req: { method?: string; host?: string; path?: string }) =>
			unexpected.push(`${req.method} ${req.host ?? ''}${req.path ?? ''}`);
		beforeAll(() => nock.emitter.on('no match', onNoMatch));
		afterAll(() => nock.emitter.removeListener('no match', onNoMatch));
		beforeEach(() => {
			unexpected.length = 0;
		});

		test.each([
			['a..b', /two dots in a row/],
			['Listing', /upper-case letters, .*Force Path Style on only/],
			['my_bucket', /underscores, .*Force Path Style on only/],
			['192.168.1.1', /shaped like an IP address/],
			['xn--abc', /begins with "xn--"/],
			['a'.repeat(64), /has 64 characters, and a bucket name has 3 to 63/],
			[PASTED_SECRET, /a character other than lower-case letters, digits, dots, hyphens/],
		])('%s', async (bucket, rule) => {
			const result = await runCredentialTest(
				{
					...storage.credentials,
					endpoint: 'https://s3.eu-west-1.amazonaws.com',
					forcePathStyle: false,
					bucket,
				},
				TYPE,
			);

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^Bucket is not a valid bucket name: /);
			expect(result.message).toMatch(rule);
			expect(result.message).not.toContain(bucket);
			expect(unexpected).toEqual([]);
			expect(storage.requests).toEqual([]);
		});

		test('a Region that holds a pasted secret is refused without quoting it', async () => {
			const result = await runCredentialTest(
				{ ...storage.credentials, region: PASTED_SECRET },
				TYPE,
			);

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^Region may hold only letters, digits, hyphens and underscores/,
			);
			expect(result.message).not.toContain(PASTED_SECRET);
			expect(storage.requests).toEqual([]);
		});
	});

	test('upper case and underscores are tried, path style, with Force Path Style on (MinIO, older stores)', async () => {
		const result = await runCredentialTest({ ...storage.credentials, bucket: 'Old_Listing' }, TYPE);

		// The verifying store has no such bucket; the signed request went to it by that name.
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/HTTP 404 NoSuchBucket/),
		});
		expect(storage.requests[0]).toMatchObject({ path: '/Old_Listing', verdict: { ok: true } });
	});

	test.each(['http://s3.example.com', 'http://minio.localhost:9000'])(
		'a plain-http endpoint on another host (%s) is refused before anything is sent',
		async (endpoint) => {
			const result = await runCredentialTest({ ...storage.credentials, endpoint }, TYPE);

			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/must start with https:\/\//);
			expect(storage.requests).toEqual([]);
		},
	);
});

import { createHash } from 'node:crypto';

import {
	EMPTY_SHA256,
	encodeKeyPath,
	presignedUrl,
	signedHeaders,
	type SigningKeys,
} from '../nodes/shared/storage/sigv4';
import { verifySigV4 } from './helpers/sigv4-verifier';

// AWS's published example (S3 "Signature Calculations for the Authorization Header" and
// "Query String Authentication"); these values are documentation, not secrets.
const AWS_KEYS: SigningKeys = {
	accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
	secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
	region: 'us-east-1',
};
const AWS_DATE = new Date('2013-05-24T00:00:00Z');
const PRESIGNED_SIGNATURE = 'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404';
const HEADER_SIGNATURE = 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41';
const AWS_PRESIGNED_QUERY =
	'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host';
const secrets = { [AWS_KEYS.accessKeyId]: AWS_KEYS.secretAccessKey };
const atAwsDate = { secrets, region: 'us-east-1', now: AWS_DATE.getTime() + 1000 };

describe("the node's signer reproduces AWS's published signatures", () => {
	test('a presigned GET of examplebucket/test.txt valid for a day', () => {
		const link = presignedUrl(
			{
				method: 'GET',
				url: 'https://examplebucket.s3.amazonaws.com/test.txt',
				expiresSeconds: 86400,
			},
			AWS_KEYS,
			AWS_DATE,
		);
		// The documentation puts the signature last; the node writes the pairs sorted by name, as
		// AWS's SDK does (S3 reads the query as a set, so both are the same link to it).
		expect(link).toBe(
			'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400' +
				`&X-Amz-Signature=${PRESIGNED_SIGNATURE}&X-Amz-SignedHeaders=host`,
		);
	});

	test('a header-signed GET with a Range header and an empty body', () => {
		const headers = signedHeaders(
			{
				method: 'GET',
				url: 'https://examplebucket.s3.amazonaws.com/test.txt',
				headers: { Range: 'bytes=0-9' },
				payloadHash: EMPTY_SHA256,
			},
			AWS_KEYS,
			AWS_DATE,
		);
		expect(headers).toEqual({
			Range: 'bytes=0-9',
			'x-amz-content-sha256': EMPTY_SHA256,
			'x-amz-date': '20130524T000000Z',
			Authorization: `AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=${HEADER_SIGNATURE}`,
		});
	});

	test('the signature leaves the secret out of everything it returns', () => {
		const headers = signedHeaders(
			{ method: 'PUT', url: 'https://b.example.com/k', payloadHash: EMPTY_SHA256 },
			AWS_KEYS,
			AWS_DATE,
		);
		const link = presignedUrl(
			{ method: 'GET', url: 'https://b.example.com/k', expiresSeconds: 60 },
			AWS_KEYS,
			AWS_DATE,
		);
		for (const text of [JSON.stringify(headers), link, decodeURIComponent(link)]) {
			expect(text).not.toContain(AWS_KEYS.secretAccessKey);
		}
	});
});

describe("the tests' own verifier accepts AWS's published examples and nothing else", () => {
	const presigned = (query: string) => ({
		method: 'GET',
		rawUrl: `/test.txt?${query}&X-Amz-Signature=${PRESIGNED_SIGNATURE}`,
		headers: { host: 'examplebucket.s3.amazonaws.com' },
	});
	const headerSigned = (range: string) => ({
		method: 'GET',
		rawUrl: '/test.txt',
		headers: {
			host: 'examplebucket.s3.amazonaws.com',
			range,
			'x-amz-content-sha256': EMPTY_SHA256,
			'x-amz-date': '20130524T000000Z',
			authorization: `AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=${HEADER_SIGNATURE}`,
		},
	});

	test('the presigned example verifies; one changed query value does not', () => {
		expect(verifySigV4(presigned(AWS_PRESIGNED_QUERY), atAwsDate)).toMatchObject({ ok: true });
		const tampered = AWS_PRESIGNED_QUERY.replace('X-Amz-Expires=86400', 'X-Amz-Expires=86401');
		expect(verifySigV4(presigned(tampered), atAwsDate)).toMatchObject({
			ok: false,
			code: 'SignatureDoesNotMatch',
		});
	});

	test('the header example verifies; another Range, another secret or another host does not', () => {
		expect(verifySigV4(headerSigned('bytes=0-9'), atAwsDate)).toMatchObject({ ok: true });
		expect(verifySigV4(headerSigned('bytes=0-10'), atAwsDate)).toMatchObject({
			code: 'SignatureDoesNotMatch',
		});
		expect(
			verifySigV4(headerSigned('bytes=0-9'), {
				...atAwsDate,
				secrets: { AKIAIOSFODNN7EXAMPLE: 'another-secret' },
			}),
		).toMatchObject({ code: 'SignatureDoesNotMatch' });
		const moved = headerSigned('bytes=0-9');
		moved.headers.host = 'examplebucket.s3.amazonaws.com:8443';
		expect(verifySigV4(moved, atAwsDate)).toMatchObject({ code: 'SignatureDoesNotMatch' });
	});

	test('an unknown key id, a wrong region, an expired link and an unsigned request are refused as S3 would', () => {
		expect(verifySigV4(headerSigned('bytes=0-9'), { ...atAwsDate, secrets: {} })).toMatchObject({
			code: 'InvalidAccessKeyId',
		});
		expect(
			verifySigV4(headerSigned('bytes=0-9'), { ...atAwsDate, region: 'eu-west-1' }),
		).toMatchObject({ code: 'AuthorizationHeaderMalformed' });
		expect(
			verifySigV4(presigned(AWS_PRESIGNED_QUERY), {
				...atAwsDate,
				now: AWS_DATE.getTime() + 86401_000,
			}),
		).toMatchObject({ code: 'AccessDenied' });
		expect(
			verifySigV4({ method: 'GET', rawUrl: '/test.txt', headers: { host: 'h' } }, atAwsDate),
		).toMatchObject({ code: 'AccessDenied' });
	});
});

describe("what the node signs, the tests' verifier accepts", () => {
	const keys: SigningKeys = {
		accessKeyId: 'LOCALKEY',
		secretAccessKey: 'local/secret+with=odd*chars',
		region: 'auto',
	};
	const options = { secrets: { LOCALKEY: keys.secretAccessKey }, region: 'auto' };
	const now = new Date();
	const key = "ideal-house-uploads/a b/ü!'()*~.jpg";

	test('a PUT with its body hash, through a port, with a key that needs encoding', () => {
		const body = Buffer.from('photo bytes');
		const bodySha256 = createHash('sha256').update(body).digest('hex');
		const url = `http://127.0.0.1:9000/bucket/${encodeKeyPath(key)}`;
		const headers = signedHeaders(
			{ method: 'PUT', url, headers: { 'Content-Type': 'image/jpeg' }, payloadHash: bodySha256 },
			keys,
			now,
		);
		const wire = {
			method: 'PUT',
			rawUrl: new URL(url).pathname,
			headers: {
				host: '127.0.0.1:9000',
				...Object.fromEntries(Object.entries(headers).map(([n, v]) => [n.toLowerCase(), v])),
			},
			bodySha256,
		};
		expect(verifySigV4(wire, options)).toMatchObject({ ok: true, presigned: false });
		expect(
			verifySigV4(
				{ ...wire, bodySha256: createHash('sha256').update('other').digest('hex') },
				options,
			),
		).toMatchObject({ code: 'XAmzContentSHA256Mismatch' });
	});

	test('a presigned GET on a virtual-hosted bucket, and the same link with its expiry stretched', () => {
		const link = new URL(
			presignedUrl(
				{
					method: 'GET',
					url: `https://bucket.s3.example.com/${encodeKeyPath(key)}`,
					expiresSeconds: 300,
				},
				keys,
				now,
			),
		);
		const wire = (search: string) => ({
			method: 'GET',
			rawUrl: `${link.pathname}${search}`,
			headers: { host: link.host },
		});
		expect(verifySigV4(wire(link.search), options)).toMatchObject({ ok: true, presigned: true });
		expect(
			verifySigV4(wire(link.search.replace('X-Amz-Expires=300', 'X-Amz-Expires=3000')), options),
		).toMatchObject({ code: 'SignatureDoesNotMatch' });
	});
});

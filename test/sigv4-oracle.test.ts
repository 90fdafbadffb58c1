/**
 * The package signs S3 requests by hand (a community node may have no runtime dependency). Here
 * AWS's own signer, `@smithy/signature-v4` (a dev dependency, the oracle and never the signer),
 * signs the same random requests, and every Authorization header and every presigned link must be
 * the same text, byte for byte.
 *
 * The library is set up as AWS's S3 client sets it up: service `s3`, the path taken as it is sent
 * (`uriEscapePath: false`), each key segment encoded once with the library's own `escapeUriPath`,
 * and a presigned link written out with the library's own `buildQueryString`, as the S3 presigner's
 * `formatUrl` does.
 */
import { createHash } from 'node:crypto';

import { Sha256 } from '@aws-crypto/sha256-js';
// From @smithy/core, which @smithy/signature-v4 is built on (its own URI encoding): these
// are the helpers AWS's S3 client encodes a key and writes a presigned link with.
import { buildQueryString, escapeUriPath } from '@smithy/core/protocols';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

import { mulberry32 } from '../service/prng';

import { objectUrl, storageSettings, type StorageSettings } from '../nodes/shared/storage/settings';
import { signRequestFor } from '../nodes/shared/storage/signed-request';
import { presignedUrl, type SigningKeys } from '../nodes/shared/storage/sigv4';

/** Each case is signed twice: with headers (through the node's request signer) and as a link. */
const CASES = 2000;
const SEED = 0x5eed_34;

/** mulberry32 (the local service's own seeded generator): the same sequence on every machine. */
const seededRandom = mulberry32;

const random = seededRandom(SEED);
const below = (n: number) => Math.floor(random() * n);
const pick = <T>(list: readonly T[]): T => list[below(list.length)];
const chance = (p: number) => random() < p;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const UPPER = LOWER.toUpperCase();
/** RFC 3986's reserved characters and the ones `encodeURIComponent` leaves alone but AWS does not. */
const RESERVED = ':/?#[]@!$&\'()*+,;=%"<>\\^`{|}~ ';
const UNICODE = [
	'é',
	'ü',
	'ß',
	'Ø',
	'日本',
	'写真',
	'фото',
	'ελ',
	'עב',
	'🏠',
	'📷',
	'\u00a0',
	'\u200b',
];

function textOf(alphabet: string, min: number, max: number): string {
	const length = min + below(max - min + 1);
	let out = '';
	for (let i = 0; i < length; i++) out += alphabet[below(alphabet.length)];
	return out;
}

/** A piece of a key or a query value: letters, spaces, reserved characters and unicode. */
function mixedText(min: number, max: number): string {
	const length = min + below(max - min + 1);
	let out = '';
	for (let i = 0; i < length; i++) {
		const kind = below(10);
		if (kind < 4) out += pick([...LOWER, ...UPPER, ...DIGITS, '-', '_', '.']);
		else if (kind < 7) out += pick([...RESERVED]);
		else out += pick(UNICODE);
	}
	return out;
}

/**
 * An object key of 1–4 segments. A segment that is exactly `.` or `..` is left out: a URL parser
 * (the node's and any HTTP client's) resolves it away, so such a key cannot be addressed by any
 * client that sends what it signs; the keys the node writes are `ideal-house-uploads/<hex>.<ext>`.
 */
function randomKey(): string {
	const segments: string[] = [];
	const count = 1 + below(4);
	for (let i = 0; i < count; i++) {
		let segment = mixedText(chance(0.1) ? 0 : 1, 12);
		if (segment === '.' || segment === '..') segment = `${segment}x`;
		segments.push(segment);
	}
	return segments.join('/');
}

function randomBucket(): string {
	const middle = textOf(`${LOWER}${DIGITS}-`, 1, 20);
	const name = `${pick([...LOWER])}${middle}${pick([...DIGITS])}`;
	return chance(0.2) ? `${name}.${textOf(LOWER, 2, 8)}` : name;
}

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-2', 'cn-north-1', 'us-gov-west-1', 'auto'];
const HOSTS = [
	's3.amazonaws.com',
	's3.eu-west-1.amazonaws.com',
	'0123456789abcdef.r2.cloudflarestorage.com',
	's3.us-west-004.backblazeb2.com',
	'fra1.digitaloceanspaces.com',
	'minio.example.com',
	'127.0.0.1',
	'192.168.1.10',
	'[::1]',
	'[fd00::10]',
	'localhost',
];
const METHODS = ['GET', 'PUT', 'DELETE', 'HEAD', 'POST', 'put', 'get'];

function randomSettings(): StorageSettings {
	const secure = chance(0.7);
	const port = pick(['', '', ':9000', ':8443', secure ? ':443' : ':80']);
	const host = pick(HOSTS);
	const prefix = chance(0.15) ? `/${textOf(LOWER, 2, 8)}` : '';
	// Plain http is allowed only on this machine, so only loopback hosts get it.
	const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(host);
	const settings = storageSettings({
		endpoint: `${secure || !loopback ? 'https' : 'http'}://${host}${port}${prefix}`,
		bucket: randomBucket(),
		region: chance(0.8)
			? pick(REGIONS)
			: `${textOf(LOWER, 2, 2)}-${textOf(LOWER, 4, 9)}-${1 + below(9)}`,
		accessKeyId: `AKIA${textOf(`${UPPER}${DIGITS}`, 12, 16)}`,
		secretAccessKey: textOf(`${LOWER}${UPPER}${DIGITS}/+`, 40, 40),
		forcePathStyle: chance(0.5),
	});
	if (typeof settings === 'string') throw new Error(settings);
	return settings;
}

/** 1970 to 2099, to the millisecond (both signers drop the milliseconds). */
function randomDate(): Date {
	return new Date(below(4_102_444_800_000));
}

/** Query pairs as a user of S3 would send them: sub-resources without a value, repeated names. */
function randomPairs(): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	const count = chance(0.3) ? 0 : 1 + below(4);
	for (let i = 0; i < count; i++) {
		const name = chance(0.3)
			? pick(['uploads', 'acl', 'versionId', 'response-content-disposition', 'list-type'])
			: mixedText(1, 8);
		// `__proto__` would set the library's query object's prototype instead of a key.
		pairs.push([name === '__proto__' ? 'proto' : name, chance(0.2) ? '' : mixedText(0, 16)]);
		if (chance(0.15)) pairs.push([name === '__proto__' ? 'proto' : name, mixedText(0, 8)]);
	}
	return pairs;
}

/** As a URL is written by hand: `encodeURIComponent`, or RFC 3986's stricter form. */
function queryText(pairs: Array<[string, string]>): string {
	const encode = (text: string) =>
		chance(0.5)
			? encodeURIComponent(text)
			: encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
	return pairs
		.map(([name, value]) =>
			value === '' && chance(0.5) ? encode(name) : `${encode(name)}=${encode(value)}`,
		)
		.join('&');
}

function queryObject(pairs: Array<[string, string]>): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	for (const [name, value] of pairs) {
		const held = query[name];
		query[name] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
	}
	return query;
}

function randomHeaders(): Record<string, string> {
	const headers: Record<string, string> = {};
	if (chance(0.6)) headers['Content-Type'] = pick(['image/jpeg', 'image/png', 'image/webp']);
	if (chance(0.2)) headers.Range = `bytes=${below(100)}-${100 + below(100)}`;
	if (chance(0.3)) {
		const spaced = `${pick(['', ' ', '  '])}${textOf(`${LOWER} \t`, 1, 12)}${pick(['', ' ', '\t'])}`;
		headers[`x-amz-meta-${textOf(LOWER, 1, 6)}`] = spaced;
	}
	return headers;
}

/**
 * Where S3's own client sends the request: path style for IP and `localhost` endpoints too, and
 * for a bucket name with a dot over https (`@aws-sdk/client-s3`'s endpoint rules do the same).
 */
function expectedAddress(settings: StorageSettings, key: string) {
	const { endpoint, bucket } = settings;
	const bare = endpoint.hostname.replace(/^\[|\]$/g, '');
	const pathStyle =
		settings.forcePathStyle ||
		bare === 'localhost' ||
		/^[\d.]+$|:/.test(bare) ||
		(endpoint.protocol === 'https:' && bucket.includes('.'));
	const prefix = endpoint.pathname === '/' ? '' : endpoint.pathname;
	return {
		protocol: endpoint.protocol,
		hostname: pathStyle ? endpoint.hostname : `${bucket}.${endpoint.hostname}`,
		port: endpoint.port ? Number(endpoint.port) : undefined,
		path: `${prefix}${pathStyle ? `/${bucket}` : ''}/${escapeUriPath(key)}`,
	};
}

function oracleFor(keys: SigningKeys): SignatureV4 {
	return new SignatureV4({
		service: 's3',
		region: keys.region,
		credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey },
		sha256: Sha256,
		uriEscapePath: false,
	});
}

function hostHeader(address: { hostname: string; port?: number }): string {
	return `${address.hostname}${address.port ? `:${address.port}` : ''}`;
}

/** The link as AWS's S3 presigner writes a presigned request out (`formatUrl`). */
function linkOf(
	address: ReturnType<typeof expectedAddress>,
	presigned: Partial<Pick<HttpRequest, 'query'>>,
): string {
	return `${address.protocol}//${hostHeader(address)}${address.path}?${buildQueryString(presigned.query ?? {})}`;
}

interface Difference {
	case: number;
	what: string;
	node: string;
	library: string;
}

describe("the node's SigV4 signer against AWS's own (@smithy/signature-v4)", () => {
	test(`${CASES} random requests: the same Authorization header and the same presigned link`, async () => {
		const differences: Difference[] = [];
		const seen = {
			pathStyle: 0,
			virtualHost: 0,
			dottedOverHttps: 0,
			withQuery: 0,
			unicodeKeys: 0,
			methods: new Set(),
		};

		for (let n = 0; n < CASES; n++) {
			const settings = randomSettings();
			const key = randomKey();
			const address = expectedAddress(settings, key);
			const now = randomDate();
			const oracle = oracleFor(settings);
			const method = pick(METHODS);
			seen.methods.add(method.toUpperCase());
			if (address.hostname === settings.endpoint.hostname) seen.pathStyle++;
			else seen.virtualHost++;
			if (settings.endpoint.protocol === 'https:' && settings.bucket.includes('.')) {
				seen.dottedOverHttps++;
			}
			if ([...key].some((char) => char.charCodeAt(0) > 0x7f)) seen.unicodeKeys++;

			// Header-signed, through the node's request signer: a query in the URL and in `qs`.
			const inUrl = randomPairs();
			// `qs` is an object: one value a name, and no name the URL already has.
			const qs = Object.fromEntries(
				randomPairs().filter(([name]) => !inUrl.some(([taken]) => taken === name)),
			);
			const inQs = Object.entries(qs);
			if (inUrl.length + inQs.length > 0) seen.withQuery++;
			const url = `${objectUrl(settings, key)}${inUrl.length ? `?${queryText(inUrl)}` : ''}`;
			const headers = randomHeaders();
			const body = chance(0.5) ? mixedText(0, 40) : undefined;
			const unsigned = body === undefined && chance(0.3);
			const signed = signRequestFor(
				settings,
				{
					method: method as 'GET',
					url,
					qs: inQs.length ? qs : undefined,
					headers: unsigned ? { ...headers, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } : headers,
					body,
				},
				now,
			);
			const library = await oracle.sign(
				new HttpRequest({
					...address,
					method: method.toUpperCase(),
					query: queryObject([...inUrl, ...inQs]),
					headers: {
						host: hostHeader(address),
						...headers,
						...(unsigned ? { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } : {}),
					},
					body,
				}),
				{ signingDate: now },
			);
			const nodeHeaders = signed.headers as Record<string, string>;
			const sent = new URL(signed.url);
			const compare = (what: string, node: string, lib: string) => {
				if (node !== lib) differences.push({ case: n, what, node, library: lib });
			};
			compare(
				'the address',
				`${sent.protocol}//${sent.host}${sent.pathname}`,
				`${address.protocol}//${hostHeader(address)}${address.path}`,
			);
			compare('Authorization', nodeHeaders.Authorization, library.headers.authorization);
			compare('x-amz-date', nodeHeaders['x-amz-date'], library.headers['x-amz-date']);
			compare(
				'x-amz-content-sha256',
				nodeHeaders['x-amz-content-sha256'],
				library.headers['x-amz-content-sha256'],
			);

			// Presigned, as the node signs the service's link: any method, any expiry S3 allows.
			const linkPairs = randomPairs();
			const expires = chance(0.1) ? pick([1, 604800]) : 1 + below(604800);
			const link = presignedUrl(
				{
					method,
					url: `${objectUrl(settings, key)}${linkPairs.length ? `?${queryText(linkPairs)}` : ''}`,
					expiresSeconds: expires,
				},
				settings,
				now,
			);
			const presigned = await oracle.presign(
				new HttpRequest({
					...address,
					method: method.toUpperCase(),
					query: queryObject(linkPairs),
					// What a link signs instead of a body it cannot know; a header of the request, not a query value.
					headers: { host: hostHeader(address), 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
				}),
				{
					signingDate: now,
					expiresIn: expires,
					unhoistableHeaders: new Set(['x-amz-content-sha256']),
					unsignableHeaders: new Set(['x-amz-content-sha256']),
				},
			);
			compare('the presigned link', link, linkOf(address, presigned));
		}

		expect({ count: differences.length, first: differences.slice(0, 5) }).toEqual({
			count: 0,
			first: [],
		});
		// The cases covered what they were meant to.
		expect(seen.methods).toEqual(new Set(['GET', 'PUT', 'DELETE', 'HEAD', 'POST']));
		expect(seen.pathStyle).toBeGreaterThan(CASES / 4);
		// Dotted names over https go path style, so fewer cases are virtual-hosted than path style.
		expect(seen.virtualHost).toBeGreaterThan(CASES / 6);
		expect(seen.dottedOverHttps).toBeGreaterThan(CASES / 10);
		expect(seen.withQuery).toBeGreaterThan(CASES / 2);
		expect(seen.unicodeKeys).toBeGreaterThan(CASES / 2);
	});

	test('a link asked for longer than 7 days is signed for exactly 7 days, as the library allows at most', async () => {
		const settings = randomSettings();
		const now = new Date('2026-11-26T12:34:56Z');
		const address = expectedAddress(settings, 'ideal-house-uploads/a.jpg');
		const link = presignedUrl(
			{
				method: 'GET',
				url: objectUrl(settings, 'ideal-house-uploads/a.jpg'),
				expiresSeconds: 30 * 86400,
			},
			settings,
			now,
		);
		const presigned = await oracleFor(settings).presign(
			new HttpRequest({
				...address,
				method: 'GET',
				headers: { host: hostHeader(address), 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
			}),
			{
				signingDate: now,
				expiresIn: 604800,
				unhoistableHeaders: new Set(['x-amz-content-sha256']),
				unsignableHeaders: new Set(['x-amz-content-sha256']),
			},
		);
		expect(link).toBe(linkOf(address, presigned));
		await expect(
			oracleFor(settings).presign(new HttpRequest({ ...address, method: 'GET' }), {
				signingDate: now,
				expiresIn: 604801,
			}),
		).rejects.toMatch(/less than one week/);
	});

	test('the body hash the node signs is the SHA-256 of the bytes sent', () => {
		const settings = randomSettings();
		const signed = signRequestFor(
			settings,
			{ method: 'PUT', url: objectUrl(settings, 'k.jpg'), body: Buffer.from('photo') },
			new Date(),
		);
		expect((signed.headers as Record<string, string>)['x-amz-content-sha256']).toBe(
			createHash('sha256').update('photo').digest('hex'),
		);
	});
});

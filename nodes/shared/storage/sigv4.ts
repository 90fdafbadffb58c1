import { createHash, createHmac } from 'crypto';

/**
 * AWS Signature Version 4 for S3 and the stores that speak its API (R2, B2, Wasabi, Spaces,
 * MinIO). Written out here rather than taken from an SDK because a community node may have no
 * runtime dependency. The secret is used only as the first HMAC key: nothing returned holds it.
 */

export interface SigningKeys {
	accessKeyId: string;
	secretAccessKey: string;
	region: string;
}

/** SHA-256 of no bytes, the payload hash of every request without a body. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** What a presigned link signs instead of a body it cannot know. */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** S3 refuses a presigned link valid for longer than 7 days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';

export function sha256Hex(data: string | Buffer): string {
	return createHash('sha256').update(data).digest('hex');
}

/** RFC 3986: `encodeURIComponent` leaves `!'()*` as they are, AWS does not. */
export function encodeRfc3986(text: string): string {
	return encodeURIComponent(text).replace(
		/[!'()*]/g,
		(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

/** An object key as a URL path: each segment encoded once, `/` kept (S3's rule, not other services'). */
export function encodeKeyPath(key: string): string {
	return key.split('/').map(encodeRfc3986).join('/');
}

/** `20130524T000000Z`. */
export function amzDate(date: Date): string {
	return date
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');
}

function scopeOf(date: string, region: string): string {
	return `${date.slice(0, 8)}/${region}/${SERVICE}/aws4_request`;
}

function signingKey(keys: SigningKeys, date: string): Buffer {
	const hmac = (key: string | Buffer, data: string) =>
		createHmac('sha256', key).update(data).digest();
	const day = hmac(`AWS4${keys.secretAccessKey}`, date.slice(0, 8));
	return hmac(hmac(hmac(day, keys.region), SERVICE), 'aws4_request');
}

/**
 * The path exactly as the request carries it. The URL parser keeps percent-escapes as written,
 * so the key's encoding (done once, by `encodeKeyPath`) is what is signed.
 */
function canonicalPath(url: URL): string {
	return url.pathname === '' ? '/' : url.pathname;
}

/** Every name and value RFC 3986-encoded, sorted by name then value; the signature itself left out. */
function canonicalQuery(url: URL): string {
	const pairs: Array<[string, string]> = [];
	for (const [name, value] of url.searchParams) {
		if (name === 'X-Amz-Signature') continue;
		pairs.push([encodeRfc3986(name), encodeRfc3986(value)]);
	}
	pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
	return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

function stringToSign(
	method: string,
	url: URL,
	headers: Record<string, string>,
	payloadHash: string,
	date: string,
	region: string,
): { text: string; signedHeaders: string } {
	const names = Object.keys(headers)
		.map((name) => name.toLowerCase())
		.sort();
	const lower = Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
	const canonicalHeaders = names
		.map((name) => `${name}:${String(lower[name]).trim().replace(/\s+/g, ' ')}\n`)
		.join('');
	const signedHeaders = names.join(';');
	const canonicalRequest = [
		method.toUpperCase(),
		canonicalPath(url),
		canonicalQuery(url),
		canonicalHeaders,
		signedHeaders,
		payloadHash,
	].join('\n');
	const text = [ALGORITHM, date, scopeOf(date, region), sha256Hex(canonicalRequest)].join('\n');
	return { text, signedHeaders };
}

function signature(keys: SigningKeys, date: string, text: string): string {
	return createHmac('sha256', signingKey(keys, date)).update(text).digest('hex');
}

export interface HeaderSigned {
	method: string;
	url: string;
	/** Further headers to sign, sent exactly as given (e.g. Content-Type, Range). */
	headers?: Record<string, string>;
	/** SHA-256 of the body in hex, EMPTY_SHA256 without one, or UNSIGNED_PAYLOAD. */
	payloadHash: string;
}

/**
 * The headers that sign a request: the ones given, plus `x-amz-date`, `x-amz-content-sha256` and
 * `Authorization`. `Host` is signed as the URL names it, which is what the HTTP client sends.
 */
export function signedHeaders(
	request: HeaderSigned,
	keys: SigningKeys,
	now: Date,
): Record<string, string> {
	const url = new URL(request.url);
	const date = amzDate(now);
	const headers: Record<string, string> = {
		...request.headers,
		'x-amz-content-sha256': request.payloadHash,
		'x-amz-date': date,
	};
	const { text, signedHeaders: names } = stringToSign(
		request.method,
		url,
		{ host: url.host, ...headers },
		request.payloadHash,
		date,
		keys.region,
	);
	return {
		...headers,
		Authorization: `${ALGORITHM} Credential=${keys.accessKeyId}/${scopeOf(date, keys.region)}, SignedHeaders=${names}, Signature=${signature(keys, date, text)}`,
	};
}

/**
 * A link that lets whoever holds it make this one request until it expires, signed in its query.
 * The query is written out as AWS's own presigner writes it: every pair RFC 3986-encoded (never
 * `+` for a space, which S3 reads otherwise), sorted by name, the signature among them.
 */
export function presignedUrl(
	request: { method: string; url: string; expiresSeconds: number },
	keys: SigningKeys,
	now: Date,
): string {
	const url = new URL(request.url);
	const date = amzDate(now);
	const expires = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor(request.expiresSeconds)));
	const pairs: Array<[string, string]> = [
		...url.searchParams,
		['X-Amz-Algorithm', ALGORITHM],
		['X-Amz-Credential', `${keys.accessKeyId}/${scopeOf(date, keys.region)}`],
		['X-Amz-Date', date],
		['X-Amz-Expires', String(expires)],
		['X-Amz-SignedHeaders', 'host'],
	];
	const written = (list: Array<[string, string]>) =>
		list.map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(value)}`).join('&');
	url.search = written(pairs);
	const { text } = stringToSign(
		request.method,
		url,
		{ host: url.host },
		UNSIGNED_PAYLOAD,
		date,
		keys.region,
	);
	pairs.push(['X-Amz-Signature', signature(keys, date, text)]);
	// A stable sort: pairs of one name keep their order.
	url.search = written(pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
	return url.href;
}

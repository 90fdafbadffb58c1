/**
 * An S3 Signature Version 4 verifier for the tests, written from AWS's documentation without
 * looking at the node's signer and importing nothing from it: a mistake in one is caught by the
 * other instead of being copied into both. It checks both forms S3 accepts, the Authorization
 * header and the presigned query, against a table of known secrets, as S3 would.
 */
import * as crypto from 'node:crypto';

export interface RawRequest {
	method: string;
	/** Path and query exactly as they arrived on the wire (`req.url`). */
	rawUrl: string;
	/** Header names in lower case, as Node's HTTP server gives them. */
	headers: Record<string, string | string[] | undefined>;
	/** SHA-256 (hex) of the body that arrived; checked against `x-amz-content-sha256` when that is a hash. */
	bodySha256?: string;
}

export type Verdict =
	| { ok: true; accessKeyId: string; presigned: boolean }
	| { ok: false; status: number; code: string; message: string };

const hex = (data: crypto.BinaryLike) => crypto.createHash('sha256').update(data).digest('hex');
const mac = (key: crypto.BinaryLike, data: string) =>
	crypto.createHmac('sha256', key).update(data, 'utf8').digest();

/** The strict URI encoding of AWS's docs: everything but A–Z a–z 0–9 - _ . ~ as %XY, upper case. */
function uriEncode(text: string, keepSlash: boolean): string {
	let out = '';
	for (const byte of Buffer.from(text, 'utf8')) {
		const char = String.fromCharCode(byte);
		if (/[A-Za-z0-9\-_.~]/.test(char) || (keepSlash && char === '/')) out += char;
		else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
	}
	return out;
}

function decode(text: string): string {
	return decodeURIComponent(text.replace(/\+/g, ' '));
}

function splitUrl(rawUrl: string): { path: string; pairs: Array<[string, string]> } {
	const at = rawUrl.indexOf('?');
	const path = at < 0 ? rawUrl : rawUrl.slice(0, at);
	const query = at < 0 ? '' : rawUrl.slice(at + 1);
	const pairs = query
		.split('&')
		.filter((part) => part !== '')
		.map((part): [string, string] => {
			const eq = part.indexOf('=');
			return eq < 0 ? [decode(part), ''] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))];
		});
	return { path, pairs };
}

function canonicalRequest(
	method: string,
	path: string,
	pairs: Array<[string, string]>,
	headers: RawRequest['headers'],
	signedNames: string[],
	payload: string,
): string {
	// S3: the path is encoded once, so the decoded path is encoded again here to compare like with like.
	const canonicalUri = uriEncode(decode(path), true) || '/';
	const canonicalQuery = pairs
		.filter(([name]) => name !== 'X-Amz-Signature')
		.map(([name, value]) => `${uriEncode(name, false)}=${uriEncode(value, false)}`)
		.sort()
		.join('&');
	const headerLines = signedNames
		.map((name) => {
			const value = headers[name];
			const text = Array.isArray(value) ? value.join(',') : (value ?? '');
			return `${name}:${text.trim().replace(/ +/g, ' ')}\n`;
		})
		.join('');
	return [method, canonicalUri, canonicalQuery, headerLines, signedNames.join(';'), payload].join(
		'\n',
	);
}

function expectedSignature(
	secret: string,
	amzDate: string,
	scope: string,
	canonical: string,
): string {
	const [day, region, service] = scope.split('/');
	const key = mac(mac(mac(mac(`AWS4${secret}`, day), region), service), 'aws4_request');
	const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${hex(canonical)}`;
	return crypto.createHmac('sha256', key).update(toSign).digest('hex');
}

function refuse(status: number, code: string, message: string): Verdict {
	return { ok: false, status, code, message };
}

function parseAmzDate(text: string): number {
	const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
	if (!m) return NaN;
	return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

export interface VerifyOptions {
	/** accessKeyId → secret. */
	secrets: Record<string, string>;
	/** The region requests must be signed for. */
	region: string;
	/** Now, for the expiry of presigned links. */
	now?: number;
}

export function verifySigV4(request: RawRequest, options: VerifyOptions): Verdict {
	const { path, pairs } = splitUrl(request.rawUrl);
	const query = new Map(pairs);
	const method = request.method.toUpperCase();
	const authorization = request.headers.authorization;
	let accessKeyId: string;
	let scope: string;
	let signedNames: string[];
	let given: string;
	let amzDate: string;
	let payload: string;
	let presigned = false;
	if (typeof authorization === 'string') {
		const m =
			/^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/([^,\s]+), ?SignedHeaders=([^,\s]+), ?Signature=([0-9a-f]{64})$/.exec(
				authorization,
			);
		if (!m) return refuse(400, 'AuthorizationHeaderMalformed', 'unreadable Authorization header');
		[, accessKeyId, scope] = m;
		signedNames = m[3].split(';');
		given = m[4];
		amzDate = String(request.headers['x-amz-date'] ?? '');
		payload = String(request.headers['x-amz-content-sha256'] ?? '');
		if (!signedNames.includes('host') || !signedNames.includes('x-amz-date')) {
			return refuse(403, 'AccessDenied', 'host and x-amz-date must be signed');
		}
		if (payload === '') return refuse(400, 'InvalidRequest', 'missing x-amz-content-sha256');
		if (
			payload !== 'UNSIGNED-PAYLOAD' &&
			request.bodySha256 !== undefined &&
			payload !== request.bodySha256
		) {
			return refuse(400, 'XAmzContentSHA256Mismatch', 'the body does not match its hash');
		}
	} else if (query.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
		presigned = true;
		const credential = query.get('X-Amz-Credential') ?? '';
		const slash = credential.indexOf('/');
		accessKeyId = credential.slice(0, slash);
		scope = credential.slice(slash + 1);
		signedNames = (query.get('X-Amz-SignedHeaders') ?? '').split(';');
		given = query.get('X-Amz-Signature') ?? '';
		amzDate = query.get('X-Amz-Date') ?? '';
		payload = 'UNSIGNED-PAYLOAD';
		const expires = Number(query.get('X-Amz-Expires'));
		if (!Number.isInteger(expires) || expires < 1 || expires > 604800) {
			return refuse(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires out of range');
		}
		const now = options.now ?? Date.now();
		if (now > parseAmzDate(amzDate) + expires * 1000) {
			return refuse(403, 'AccessDenied', 'Request has expired');
		}
	} else {
		return refuse(403, 'AccessDenied', 'the request is not signed');
	}
	const secret = Object.hasOwn(options.secrets, accessKeyId) ? options.secrets[accessKeyId] : '';
	if (!secret) return refuse(403, 'InvalidAccessKeyId', 'unknown access key id');
	const [day, region, service, terminator] = scope.split('/');
	if (region !== options.region) {
		return refuse(400, 'AuthorizationHeaderMalformed', `the region '${region}' is wrong`);
	}
	if (service !== 's3' || terminator !== 'aws4_request' || day !== amzDate.slice(0, 8)) {
		return refuse(403, 'SignatureDoesNotMatch', 'bad credential scope');
	}
	const canonical = canonicalRequest(method, path, pairs, request.headers, signedNames, payload);
	if (expectedSignature(secret, amzDate, scope, canonical) !== given) {
		return refuse(
			403,
			'SignatureDoesNotMatch',
			'The request signature we calculated does not match',
		);
	}
	return { ok: true, accessKeyId, presigned };
}

/** S3's error body. */
export function s3ErrorXml(code: string, message: string): string {
	return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>TEST</RequestId></Error>`;
}

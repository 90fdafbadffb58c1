import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { NO_REDIRECTS } from '../http/http';
import { bucketUrl, type StorageSettings } from './settings';
import { EMPTY_SHA256, UNSIGNED_PAYLOAD, encodeRfc3986, sha256Hex, signedHeaders } from './sigv4';

function queryText(qs: IDataObject | undefined): string {
	return Object.entries(qs ?? {})
		.filter(([, value]) => value !== undefined && value !== null)
		.map(([name, value]) => `${encodeRfc3986(name)}=${encodeRfc3986(String(value))}`)
		.join('&');
}

function payloadHashOf(options: IHttpRequestOptions): string {
	const given = Object.entries(options.headers ?? {}).find(
		([name]) => name.toLowerCase() === 'x-amz-content-sha256',
	)?.[1];
	if (typeof given === 'string' && given !== '') return given;
	const { body } = options;
	if (body === undefined || body === null || body === '') return EMPTY_SHA256;
	if (typeof body === 'string' || Buffer.isBuffer(body)) return sha256Hex(body);
	// A stream cannot be hashed before it is sent; S3 accepts an unsigned payload then.
	return UNSIGNED_PAYLOAD;
}

/**
 * A request to the bucket, signed: a relative URL is taken inside the bucket, the query is folded
 * into the URL exactly as it was signed (n8n's serializer could encode it otherwise), and
 * redirects are never followed (the storage credential's Test sends it as it is).
 */
export function signRequestFor(
	settings: StorageSettings,
	options: IHttpRequestOptions,
	now: Date,
): IHttpRequestOptions {
	const relative = !/^[a-z][a-z0-9+.-]*:/i.test(options.url);
	const base = relative
		? `${bucketUrl(settings)}${options.url === '' || options.url.startsWith('/') ? '' : '/'}${options.url}`
		: options.url;
	const query = queryText(options.qs);
	const url = query ? `${base}${base.includes('?') ? '&' : '?'}${query}` : base;
	const method = (options.method ?? 'GET').toUpperCase();
	const given = Object.fromEntries(
		Object.entries(options.headers ?? {})
			.filter(([name]) => name.toLowerCase() !== 'x-amz-content-sha256')
			.map(([name, value]) => [name, String(value)]),
	);
	const headers = signedHeaders(
		{ method, url, headers: given, payloadHash: payloadHashOf(options) },
		settings,
		now,
	);
	const signed: IHttpRequestOptions = {
		...options,
		method: method as IHttpRequestOptions['method'],
		url,
		headers,
		...NO_REDIRECTS,
		maxRedirects: 0,
	};
	delete signed.qs;
	delete signed.baseURL;
	return signed;
}

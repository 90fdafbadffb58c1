import type { IDataObject } from 'n8n-workflow';

export function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (body === undefined || body === null) return '';
	// Already parsed by someone else: digits beyond 2^53 may be gone, but the shape is usable.
	return JSON.stringify(body);
}

/** A Retry-After in milliseconds, from seconds or an HTTP date; undefined without a readable one. */
export function retryAfterMs(headers: IDataObject | undefined): number | undefined {
	const value = headers?.['retry-after'];
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(value));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// Input images are judged by their bytes, never by the URL's extension or Content-Type, because
// that is all a server can trust. Only the headers are parsed: enough for format and dimensions.
import * as http from 'node:http';
import * as https from 'node:https';

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export interface ImageInfo {
	format: ImageFormat;
	width: number;
	height: number;
	bytes: number;
}

export const MEGABYTE = 1024 * 1024;

export function detectFormat(bytes: Buffer): ImageFormat | null {
	if (
		bytes.length >= 8 &&
		bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
	) {
		return 'png';
	}
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
		return 'jpeg';
	if (
		bytes.length >= 12 &&
		bytes.toString('latin1', 0, 4) === 'RIFF' &&
		bytes.toString('latin1', 8, 12) === 'WEBP'
	) {
		return 'webp';
	}
	return null;
}

function pngSize(bytes: Buffer): [number, number] | null {
	if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
	return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

// SOF0..SOF15 carry the frame size, except C4 (DHT), C8 (reserved JPG) and CC (DAC).
function isStartOfFrame(marker: number): boolean {
	return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Buffer): [number, number] | null {
	let i = 2;
	while (i + 1 < bytes.length) {
		if (bytes[i] !== 0xff) return null;
		const marker = bytes[i + 1];
		if (marker === 0xff) {
			i += 1; // fill byte before a marker
			continue;
		}
		if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
			i += 2; // markers without a length field
			continue;
		}
		if (marker === 0xd9 || marker === 0xda) return null; // image data reached, no frame header seen
		if (i + 4 > bytes.length) return null;
		const length = bytes.readUInt16BE(i + 2);
		if (length < 2) return null;
		if (isStartOfFrame(marker)) {
			if (i + 9 > bytes.length) return null;
			return [bytes.readUInt16BE(i + 7), bytes.readUInt16BE(i + 5)];
		}
		i += 2 + length;
	}
	return null;
}

function webpSize(bytes: Buffer): [number, number] | null {
	if (bytes.length < 30) return null;
	const fourcc = bytes.toString('latin1', 12, 16);
	if (fourcc === 'VP8 ') {
		if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
		return [bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff];
	}
	if (fourcc === 'VP8L') {
		if (bytes[20] !== 0x2f) return null;
		const bits = bytes.readUInt32LE(21);
		return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
	}
	if (fourcc === 'VP8X') {
		return [bytes.readUIntLE(24, 3) + 1, bytes.readUIntLE(27, 3) + 1];
	}
	return null;
}

export function readDimensions(
	bytes: Buffer,
	format: ImageFormat,
): { width: number; height: number } | null {
	const size =
		format === 'png' ? pngSize(bytes) : format === 'jpeg' ? jpegSize(bytes) : webpSize(bytes);
	if (!size || size[0] < 1 || size[1] < 1) return null;
	return { width: size[0], height: size[1] };
}

/** Format and dimensions, or a sentence saying what is wrong (used in 1011 messages). */
export function inspectImage(bytes: Buffer): ImageInfo | string {
	const format = detectFormat(bytes);
	if (!format) return 'is not a JPEG, PNG or WebP image';
	const size = readDimensions(bytes, format);
	if (!size) return `is a ${format.toUpperCase()} file whose dimensions cannot be read`;
	return { format, ...size, bytes: bytes.length };
}

export interface FetchOptions {
	maxBytes: number;
	timeoutMs: number;
	/** Registers the request so that closing the service can abort it; returns the unregister call. */
	track?: (request: http.ClientRequest) => () => void;
}

const MAX_REDIRECTS = 5;

/** GETs a URL into memory; rejects with a short reason (no URL in it) for the 1011 message. */
export function fetchBytes(url: string, options: FetchOptions, redirects = 0): Promise<Buffer> {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return Promise.reject(new Error('is not a valid URL'));
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return Promise.reject(new Error('must be an http or https URL'));
	}
	const client = parsed.protocol === 'https:' ? https : http;
	return new Promise<Buffer>((resolve, reject) => {
		let settled = false;
		const finish = (error: Error | null, value?: Buffer) => {
			if (settled) return;
			settled = true;
			untrack();
			if (error) reject(error);
			else resolve(value as Buffer);
		};
		// agent: false, so no pooled keep-alive socket outlives the download.
		const request = client.get(parsed, {
			agent: false,
			headers: { accept: 'image/*', 'user-agent': 'ideal-house-local-service' },
		});
		const untrack = options.track ? options.track(request) : () => undefined;
		request.setTimeout(options.timeoutMs, () => {
			request.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
		});
		request.on('error', (error: NodeJS.ErrnoException) => {
			finish(new Error(`could not be fetched (${error.code ?? error.message})`));
		});
		request.on('response', (response) => {
			const status = response.statusCode ?? 0;
			if (status >= 300 && status < 400 && response.headers.location && redirects < MAX_REDIRECTS) {
				response.resume();
				const next = new URL(response.headers.location, parsed).toString();
				fetchBytes(next, options, redirects + 1).then(
					(value) => finish(null, value),
					(error: Error) => finish(error),
				);
				return;
			}
			if (status < 200 || status >= 300) {
				response.resume();
				finish(new Error(`could not be fetched: the server answered HTTP ${status}`));
				request.destroy();
				return;
			}
			const tooLarge = () =>
				new Error(`is larger than ${options.maxBytes / MEGABYTE} MB (${options.maxBytes} bytes)`);
			const declared = Number(response.headers['content-length']);
			if (Number.isFinite(declared) && declared > options.maxBytes) {
				finish(tooLarge());
				request.destroy();
				return;
			}
			const parts: Buffer[] = [];
			let received = 0;
			response.on('data', (part: Buffer) => {
				received += part.length;
				if (received > options.maxBytes) {
					finish(tooLarge());
					request.destroy();
					return;
				}
				parts.push(part);
			});
			response.on('end', () => finish(null, Buffer.concat(parts)));
			response.on('error', (error: Error) =>
				finish(new Error(`could not be fetched (${error.message})`)),
			);
		});
	});
}

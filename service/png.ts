/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// A minimal PNG encoder (8-bit grey, RGB or palette, no interlace). Rows are produced by a
// callback; returning the very same Buffer as the previous row marks it as a repeat, which is
// written with the "Up" filter as zeros, so flat or banded pictures of 4096 px compress in a few ms.
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

/** CRC-32 as PNG (and zlib) define it; `previous` continues a running checksum. */
export function crc32(bytes: Uint8Array, previous = 0): number {
	let c = (previous ^ 0xffffffff) >>> 0;
	for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

/** A PNG chunk: its length, its type, its data and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer = Buffer.alloc(0)): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'ascii');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))), 0);
	return Buffer.concat([head, data, crc]);
}

export type PngColor = 'gray' | 'rgb' | 'palette';

const COLOR_TYPE: Record<PngColor, number> = { gray: 0, rgb: 2, palette: 3 };
const BYTES_PER_PIXEL: Record<PngColor, number> = { gray: 1, rgb: 3, palette: 1 };

export interface PngImage {
	width: number;
	height: number;
	color: PngColor;
	/** RGB triples, required for 'palette' (at most 256 entries). */
	palette?: Buffer;
	/** Pixel bytes of row y: width * (3 for rgb, else 1). */
	row: (y: number) => Buffer;
}

export function encodePng(image: PngImage): Buffer {
	const { width, height, color } = image;
	if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
		throw new Error(`invalid PNG size ${width}x${height}`);
	}
	const bpp = BYTES_PER_PIXEL[color];
	const stride = width * bpp;
	const raw = Buffer.alloc(height * (stride + 1));
	let previous: Buffer | undefined;
	for (let y = 0; y < height; y++) {
		const row = image.row(y);
		if (row.length !== stride)
			throw new Error(`row ${y} has ${row.length} bytes, expected ${stride}`);
		const offset = y * (stride + 1);
		if (row === previous) {
			raw[offset] = 2; // Up: the difference to the row above is all zeros, already in place.
		} else {
			raw[offset] = 1; // Sub: flat runs and gradients become small repeating values.
			for (let i = 0; i < stride; i++) {
				raw[offset + 1 + i] = (row[i] - (i >= bpp ? row[i - bpp] : 0)) & 0xff;
			}
		}
		previous = row;
	}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8;
	ihdr[9] = COLOR_TYPE[color];
	const chunks = [SIGNATURE, pngChunk('IHDR', ihdr)];
	if (color === 'palette') {
		if (!image.palette || image.palette.length % 3 !== 0 || image.palette.length > 768) {
			throw new Error('a palette PNG needs 1..256 RGB triples');
		}
		chunks.push(pngChunk('PLTE', image.palette));
	}
	chunks.push(pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0)));
	return Buffer.concat(chunks);
}

/** A horizontal gradient between two colours: a cheap picture whose size is easy to check. */
export function gradientPng(
	width: number,
	height: number,
	from: readonly [number, number, number],
	to: readonly [number, number, number],
): Buffer {
	const palette = Buffer.alloc(256 * 3);
	for (let i = 0; i < 256; i++) {
		for (let c = 0; c < 3; c++)
			palette[i * 3 + c] = Math.round(from[c] + ((to[c] - from[c]) * i) / 255);
	}
	const row = Buffer.alloc(width);
	for (let x = 0; x < width; x++) row[x] = width === 1 ? 0 : Math.round((x * 255) / (width - 1));
	return encodePng({ width, height, color: 'palette', palette, row: () => row });
}

/**
 * An RGB picture of the given size that takes about `bytes` as a file: the top rows are
 * pseudo-random noise (which deflate cannot shrink), the rest one flat row repeated. Stands in
 * for a full-size photo, whose file is several MB.
 */
export function noisyPng(width: number, height: number, bytes: number, seed: number): Buffer {
	const stride = width * 3;
	const noisyRows = Math.min(height, Math.max(1, Math.round(bytes / (stride + 1))));
	let state = seed >>> 0 || 1;
	const noise = Buffer.alloc(noisyRows * stride);
	for (let i = 0; i < noise.length; i += 4) {
		// xorshift32: fast, and enough to defeat compression.
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		noise.writeUInt32LE(state >>> 0, Math.min(i, noise.length - 4));
	}
	const flat = Buffer.alloc(stride, 128);
	return encodePng({
		width,
		height,
		color: 'rgb',
		row: (y) => (y < noisyRows ? noise.subarray(y * stride, (y + 1) * stride) : flat),
	});
}

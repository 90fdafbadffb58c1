/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Whole image files of any size, built in a few bytes: photos and masks for the tests. The JPEG
 * and the lossless WebP are real pictures (one flat colour) that decoders read; the lossy WebP has
 * a real frame header before filler bytes. PNGs come from the local service's encoder, or for
 * the tightest and the broken ones, from their chunks.
 */
import { deflateSync } from 'node:zlib';

import { gradientPng, pngChunk } from '../../service/png.ts';

export { pngChunk };

/** A grey-to-blue PNG of this size. */
export function pngImage(width: number, height: number): Buffer {
	return gradientPng(width, height, [200, 200, 200], [40, 60, 160]);
}

/** The signature and an IHDR of this size (1-bit greyscale), then `chunks` as they are given. */
export function pngOfChunks(width: number, height: number, chunks: Buffer[]): Buffer {
	const header = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return Buffer.concat([signature, pngChunk('IHDR', header), ...chunks]);
}

/** An IDAT chunk of these rows (each a filter byte, then the pixels), deflated. */
export function idatChunk(rows: Buffer): Buffer {
	return pngChunk('IDAT', deflateSync(rows));
}

/** 66 bytes: a PNG whose header gives this size, and whose image data is one deflated byte. */
export function pngClaiming(width: number, height: number): Buffer {
	return pngOfChunks(width, height, [idatChunk(Buffer.alloc(1)), pngChunk('IEND')]);
}

/**
 * An all-black 1-bit PNG, deflated as tightly as zlib can: as many pixels per byte as a real PNG
 * ever holds.
 */
export function tightestPng(width: number, height: number): Buffer {
	const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
	return pngOfChunks(width, height, [
		pngChunk('IDAT', deflateSync(rows, { level: 9 })),
		pngChunk('IEND'),
	]);
}

function segment(marker: number, data: Buffer): Buffer {
	const head = Buffer.from([0xff, marker, 0, 0]);
	head.writeUInt16BE(data.length + 2, 2);
	return Buffer.concat([head, data]);
}

/** APP1 segments of filler, as a camera's EXIF block and thumbnail take room before the frame. */
function appSegments(bytes: number): Buffer[] {
	const segments: Buffer[] = [];
	for (let left = bytes; left > 0; left -= 65_000) {
		const filler = Buffer.alloc(Math.min(left, 65_000), 0xff);
		filler.write('Exif\0\0', 'latin1');
		segments.push(segment(0xe1, filler));
	}
	return segments;
}

/** A Huffman table of one symbol, 0, coded by one bit: every block is "DC 0, end of block". */
const oneSymbolTable = (tableClass: number) =>
	segment(0xc4, Buffer.from([tableClass << 4, 1, ...Buffer.alloc(15), 0]));

/**
 * A baseline greyscale JPEG, all mid-grey. `exifBytes` of APP1 segments come before the frame
 * header; `after` is appended after EOI (a phone's trailer, say).
 */
export function jpegImage(
	width: number,
	height: number,
	{ exifBytes = 0, after = Buffer.alloc(0) }: { exifBytes?: number; after?: Buffer } = {},
): Buffer {
	const jfif = segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'));
	const quantisation = segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)]));
	const frame = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
	frame.writeUInt16BE(height, 1);
	frame.writeUInt16BE(width, 3);
	const scanHeader = segment(0xda, Buffer.from([1, 1, 0, 0, 63, 0]));
	// Two bits per 8 × 8 block, all zero; the last byte is padded with ones.
	const bits = 2 * Math.ceil(width / 8) * Math.ceil(height / 8);
	const data = Buffer.alloc(Math.ceil(bits / 8));
	if (bits % 8) data[data.length - 1] = (1 << (8 - (bits % 8))) - 1;
	return Buffer.concat([
		Buffer.from([0xff, 0xd8]),
		jfif,
		...appSegments(exifBytes),
		quantisation,
		segment(0xc0, frame),
		oneSymbolTable(0),
		oneSymbolTable(1),
		scanHeader,
		data,
		Buffer.from([0xff, 0xd9]),
		after,
	]);
}

/** Bits written least significant first, as VP8L reads them. */
class BitWriter {
	private readonly bytes: number[] = [];
	private bit = 0;

	write(value: number, count: number): this {
		for (let i = 0; i < count; i++) {
			if (this.bit % 8 === 0) this.bytes.push(0);
			this.bytes[this.bytes.length - 1] |= ((value >>> i) & 1) << this.bit % 8;
			this.bit++;
		}
		return this;
	}

	done(): Buffer {
		return Buffer.from(this.bytes);
	}
}

export function riffChunk(fourcc: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.write(fourcc, 'latin1');
	head.writeUInt32LE(data.length, 4);
	return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
}

function riff(chunks: Buffer[]): Buffer {
	const body = Buffer.concat(chunks);
	const head = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
	head.writeUInt32LE(body.length + 4, 4);
	return Buffer.concat([head, body]);
}

/**
 * A lossless picture of one colour (opaque black): no transform, no colour cache, and five
 * prefix codes of one symbol each, so that every pixel takes no bits at all.
 */
export function vp8lChunk(width: number, height: number): Buffer {
	const bits = new BitWriter()
		.write(0x2f, 8)
		.write(width - 1, 14)
		.write(height - 1, 14)
		.write(0, 1) // no alpha in use
		.write(0, 3) // version 0
		.write(0, 1) // no transform
		.write(0, 1) // no colour cache
		.write(0, 1); // one set of prefix codes for the whole image
	// Green, red, blue: the one symbol 0; alpha: 255; distance: 0.
	for (const symbol of [0, 0, 0, 255, 0]) {
		bits.write(1, 1).write(0, 1); // a simple code of one symbol
		if (symbol < 2) bits.write(0, 1).write(symbol, 1);
		else bits.write(1, 1).write(symbol, 8);
	}
	return riffChunk('VP8L', bits.done());
}

/** A lossy key frame's header (its 14-bit size after the start code), then filler for the data. */
function vp8Chunk(width: number, height: number): Buffer {
	const frame = Buffer.alloc(40, 0x55);
	// Frame tag: key frame, version 0, shown, first partition of 20 bytes.
	frame.writeUIntLE((20 << 5) | 0x10, 0, 3);
	frame.writeUIntBE(0x9d012a, 3, 3);
	frame.writeUInt16LE(width, 6);
	frame.writeUInt16LE(height, 8);
	return riffChunk('VP8 ', frame);
}

export type WebpKind = 'lossy' | 'lossless' | 'extended';

/** An extended WebP: a VP8X header of this canvas and flags (0x02: an animation), then `chunks`. */
export function extendedWebp(
	canvas: { width: number; height: number; flags?: number },
	chunks: Buffer[],
): Buffer {
	const header = Buffer.alloc(10);
	header[0] = canvas.flags ?? 0;
	header.writeUIntLE(canvas.width - 1, 4, 3);
	header.writeUIntLE(canvas.height - 1, 7, 3);
	return riff([riffChunk('VP8X', header), ...chunks]);
}

/** A WebP: simple lossy (VP8), simple lossless (VP8L), or extended (VP8X, then a lossless image). */
export function webpImage(kind: WebpKind, width: number, height: number): Buffer {
	if (kind === 'lossy') return riff([vp8Chunk(width, height)]);
	if (kind === 'lossless') return riff([vp8lChunk(width, height)]);
	return extendedWebp({ width, height }, [vp8lChunk(width, height)]);
}

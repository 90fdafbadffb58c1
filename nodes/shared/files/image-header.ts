import { sniffImageType, type FileType } from './file-types';

// An image's type, size and wholeness, read as its bytes stream past, a few dozen of them kept.
// What "whole" means, and why: docs/design/file-checks.md

type ImageFormat = 'JPEG' | 'PNG' | 'WebP';

interface ImageHeader {
	type: FileType;
	format: ImageFormat;
	width: number;
	height: number;
}

export type ImageVerdict =
	| ({ ok: true } & ImageHeader)
	| {
			ok: false;
			/** Absent when the bytes are no JPEG, PNG or WebP at all. */
			format?: ImageFormat;
			/** The file ends before its structure does: cut off, rather than malformed. */
			cut: boolean;
			/** Complete, but holding no image of its header's size (no data, size 0, too few bytes). */
			hollow?: true;
			/** What is wrong, as the end of a sentence: "it ends before its end-of-image marker". */
			reason: string;
	  };

/** What a parser asks of the bytes next. */
type Want =
	| { take: number }
	| { skip: number }
	/** A JPEG scan's entropy-coded data: pass over it up to the marker that ends it. */
	| { scanToMarker: true }
	/** Bytes already taken, to be read again. */
	| { unread: Buffer }
	/** How many bytes of the file have been read so far. */
	| { position: true };
/** What it gets: the bytes taken (fewer at the end of the file), the count skipped, the marker. */
type Got = Buffer | number | undefined;
type Parse<T> = Generator<Want, T, Got>;

function* take(count: number): Parse<Buffer> {
	return (yield { take: count }) as Buffer;
}

/** True when all `count` bytes were there. */
function* skip(count: number): Parse<boolean> {
	return (yield { skip: count }) === count;
}

function* position(): Parse<number> {
	return (yield { position: true }) as number;
}

const FORMAT_OF: Record<string, ImageFormat> = { jpg: 'JPEG', png: 'PNG', webp: 'WebP' };

function* readImage(): Parse<ImageVerdict> {
	const head = yield* take(12);
	const type = sniffImageType(head);
	if (!type) return { ok: false, cut: false, reason: 'it is not a JPEG, PNG or WebP image' };
	const format = FORMAT_OF[type.extension];
	if (format === 'JPEG') {
		yield { unread: head.subarray(2) };
		return yield* jpeg(type);
	}
	if (format === 'PNG') {
		yield { unread: head.subarray(8) };
		return yield* png(type);
	}
	return yield* webp(type, head);
}

type Failure = 'broken' | 'cut' | 'hollow';

function failure(format: ImageFormat, reason: string, how: Failure = 'broken'): ImageVerdict {
	const verdict: ImageVerdict = { ok: false, format, cut: how === 'cut', reason };
	if (how === 'hollow') verdict.hollow = true;
	return verdict;
}

const px = (width: number, height: number) => `${width} × ${height} px`;

/** Whether the bytes read can code the header's size at `pixelsPerByte`: if not, it is hollow. */
function* holds(
	format: ImageFormat,
	size: { width: number; height: number },
	pixelsPerByte: number,
): Parse<ImageVerdict | undefined> {
	const bytes = yield* position();
	if (size.width * size.height <= pixelsPerByte * bytes) return undefined;
	return failure(
		format,
		`its header gives ${px(size.width, size.height)}, more than its ${bytes} bytes can hold`,
		'hollow',
	);
}

// SOF0–SOF15 carry the frame's size, except C4 (DHT), C8 (JPG, reserved) and CC (DAC).
const isFrameHeader = (marker: number) =>
	marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const TEM = 0x01;
/** Sequential frames coded with Huffman tables: baseline, extended and lossless. */
const SEQUENTIAL_HUFFMAN = [0xc0, 0xc1, 0xc3];
// At most 4 × 1024 px per byte, twice that allowed (docs/design/file-checks.md); progressive and
// arithmetic-coded scans are not bounded.
const JPEG_PIXELS_PER_BYTE = 2 * 4 * 32 * 32;

/** The next marker between segments: 0xFF (fill bytes allowed), then its code; 'broken' if no 0xFF. */
function* segmentMarker(): Parse<number | 'broken' | undefined> {
	const first = yield* take(1);
	if (first.length === 0) return undefined;
	if (first[0] !== 0xff) return 'broken';
	for (;;) {
		const code = yield* take(1);
		if (code.length === 0) return undefined;
		if (code[0] !== 0xff) return code[0];
	}
}

function* jpeg(type: FileType): Parse<ImageVerdict> {
	let size: { width: number; height: number } | undefined;
	let frame = 0;
	let scanned = false;
	const cut = () =>
		failure(
			'JPEG',
			size ? 'it ends before its end-of-image marker' : 'it ends before its frame header',
			'cut',
		);
	let marker = yield* segmentMarker();
	for (;;) {
		if (marker === undefined) return cut();
		if (marker === 'broken' || marker === SOI || (marker > TEM && marker < 0xc0)) {
			return failure('JPEG', 'its marker segments are broken');
		}
		if (marker === EOI) {
			if (!size || !scanned) {
				return failure('JPEG', 'it ends (EOI) before any image data', 'hollow');
			}
			if (SEQUENTIAL_HUFFMAN.includes(frame)) {
				const refused = yield* holds('JPEG', size, JPEG_PIXELS_PER_BYTE);
				if (refused) return refused;
			}
			return { ok: true, type, format: 'JPEG', ...size };
		}
		if (marker !== TEM && !isRestart(marker)) {
			const lengthBytes = yield* take(2);
			if (lengthBytes.length < 2) return cut();
			const length = lengthBytes.readUInt16BE(0) - 2;
			if (length < 0) return failure('JPEG', 'its marker segments are broken');
			let rest = length;
			if (isFrameHeader(marker) && !size) {
				// Precision, then the height and the width.
				const header = yield* take(Math.min(length, 5));
				if (header.length < 5) {
					return length < 5 ? failure('JPEG', 'its frame header is broken') : cut();
				}
				frame = marker;
				size = { width: header.readUInt16BE(3), height: header.readUInt16BE(1) };
				if (size.width === 0 || size.height === 0) {
					return failure(
						'JPEG',
						`its frame header gives a size of ${px(size.width, size.height)}`,
						'hollow',
					);
				}
				rest -= 5;
			}
			if (!(yield* skip(rest))) return cut();
			if (marker === SOS) {
				if (!size) return failure('JPEG', 'its image data comes before its frame header');
				scanned = true;
				marker = (yield { scanToMarker: true }) as number | undefined;
				continue;
			}
		}
		marker = yield* segmentMarker();
	}
}

const PNG_MAX = 0x7fffffff;
// At most 8 × 1032 px per byte (1 bit a pixel, deflate's best 1032:1), twice that allowed.
const PNG_PIXELS_PER_BYTE = 2 * 8 * 1032;

function* png(type: FileType): Parse<ImageVerdict> {
	const beforeIhdr = () => failure('PNG', 'it ends before its IHDR header chunk', 'cut');
	const beforeIend = () => failure('PNG', 'it ends before its IEND chunk', 'cut');
	const first = yield* take(8);
	if (first.length < 8) return beforeIhdr();
	if (first.toString('latin1', 4, 8) !== 'IHDR' || first.readUInt32BE(0) !== 13) {
		return failure('PNG', 'it does not start with its IHDR header chunk');
	}
	const header = yield* take(13);
	if (header.length < 13 || !(yield* skip(4))) return beforeIhdr();
	const width = header.readUInt32BE(0);
	const height = header.readUInt32BE(4);
	if (width === 0 || height === 0 || width > PNG_MAX || height > PNG_MAX) {
		return failure('PNG', `its IHDR header gives a size of ${px(width, height)}`, 'hollow');
	}
	let imageData = false;
	for (;;) {
		const chunk = yield* take(8);
		if (chunk.length < 8) return beforeIend();
		const length = chunk.readUInt32BE(0);
		const name = chunk.toString('latin1', 4, 8);
		if (length > PNG_MAX || !/^[A-Za-z]{4}$/.test(name)) {
			return failure('PNG', 'its chunks are broken');
		}
		if (name === 'IDAT') imageData = true;
		if (!(yield* skip(length + 4))) return beforeIend();
		if (name === 'IEND') {
			if (!imageData) {
				return failure('PNG', 'it holds no image data (IDAT) before IEND', 'hollow');
			}
			const refused = yield* holds('PNG', { width, height }, PNG_PIXELS_PER_BYTE);
			return refused ?? { ok: true, type, format: 'PNG', width, height };
		}
	}
}

/** The size in a WebP's first chunk, from its first bytes; a reason if they are broken. */
function webpSize(fourcc: string, bytes: Buffer): { width: number; height: number } | string {
	if (fourcc === 'VP8 ') {
		// Frame tag (a key frame has bit 0 clear), start code 9D 01 2A, 14-bit width and height.
		if (bytes.length < 10 || (bytes[0] & 1) !== 0 || bytes.readUIntBE(3, 3) !== 0x9d012a) {
			return 'its VP8 frame header is broken';
		}
		return {
			width: bytes.readUInt16LE(6) & 0x3fff,
			height: bytes.readUInt16LE(8) & 0x3fff,
		};
	}
	if (fourcc === 'VP8L') {
		// Signature 0x2F, then width − 1 and height − 1 in 14 bits each, alpha, a 3-bit version 0.
		const bits = bytes.length >= 5 ? bytes.readUInt32LE(1) : 0;
		if (bytes.length < 5 || bytes[0] !== 0x2f || bits >>> 29 !== 0) {
			return 'its VP8L header is broken';
		}
		return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
	}
	if (fourcc === 'VP8X') {
		// Flags and reserved bytes, then canvas width − 1 and height − 1 in 24 bits each.
		if (bytes.length < 10) return 'its VP8X header is broken';
		return { width: bytes.readUIntLE(4, 3) + 1, height: bytes.readUIntLE(7, 3) + 1 };
	}
	return 'its first chunk is not VP8, VP8L or VP8X';
}

const WEBP_IMAGE_CHUNKS = ['VP8 ', 'VP8L', 'ANMF'];
/** VP8X's flag of an animation, whose frames (ANMF) may be smaller than its canvas. */
const ANIMATION_FLAG = 0x02;
// libwebp refuses a canvas of 2^32 px or more; WebP's bytes do not bound its size.
const WEBP_MAX_AREA = 2 ** 32;

function* webp(type: FileType, head: Buffer): Parse<ImageVerdict> {
	const end = head.readUInt32LE(4) + 8;
	const short = () =>
		failure('WebP', `it is shorter than the ${end} bytes its RIFF header gives`, 'cut');
	let at = 12;
	let size: { width: number; height: number } | undefined;
	let animation = false;
	let imageData = false;
	while (at < end) {
		if (end - at < 8) return failure('WebP', 'its chunks do not fill its RIFF size');
		const chunk = yield* take(8);
		if (chunk.length < 8) return short();
		const fourcc = chunk.toString('latin1', 0, 4);
		const length = chunk.readUInt32LE(4);
		const dataEnd = at + 8 + length;
		if (dataEnd > end) return failure('WebP', `its ${fourcc.trim()} chunk runs past its RIFF size`);
		// Chunks are padded to an even length; a last pad byte left out of the RIFF size is let be.
		const next = Math.min(dataEnd + (length & 1), end);
		let read = 0;
		const stillImage = !!size && !animation && !imageData && ['VP8 ', 'VP8L'].includes(fourcc);
		if (!size || stillImage) {
			// The size is in a chunk's first 10 bytes at most.
			read = Math.min(length, 10);
			const bytes = yield* take(read);
			if (bytes.length < read) return short();
			const found = webpSize(fourcc, bytes);
			if (typeof found === 'string') return failure('WebP', found);
			const { width, height } = found;
			if (width === 0 || height === 0) {
				return failure('WebP', `its header gives a size of ${px(width, height)}`, 'hollow');
			}
			if (size) {
				// libwebp reads a still image only when it is its canvas's size.
				if (width !== size.width || height !== size.height) {
					const canvas = px(size.width, size.height);
					return failure(
						'WebP',
						`its VP8X canvas is ${canvas}, but its image ${px(width, height)}`,
						'hollow',
					);
				}
			} else if (fourcc === 'VP8X') {
				animation = (bytes[0] & ANIMATION_FLAG) !== 0;
				if (width * height >= WEBP_MAX_AREA) {
					return failure(
						'WebP',
						`its VP8X canvas of ${px(width, height)} is larger than a WebP can be`,
						'hollow',
					);
				}
			}
			size ??= found;
			imageData = fourcc !== 'VP8X';
		} else if (WEBP_IMAGE_CHUNKS.includes(fourcc)) {
			imageData = true;
		}
		if (!(yield* skip(next - at - 8 - read))) return short();
		at = next;
	}
	if (!size) return failure('WebP', 'it holds no image: no VP8, VP8L or VP8X chunk', 'hollow');
	if (!imageData) {
		return failure('WebP', 'it holds no image data after its VP8X header', 'hollow');
	}
	return { ok: true, type, format: 'WebP', ...size };
}

/** Fed a file's bytes (`push`), then `end`; `verdict` is set as soon as known, to stop reading early. */
export class ImageHeaderReader {
	private readonly parse = readImage();
	private want!: Want;
	private result?: ImageVerdict;
	private taken: Buffer[] = [];
	private takenBytes = 0;
	private skipped = 0;
	/** In a scan: the last byte seen was 0xFF, so the next one says whether a marker begins. */
	private afterFF = false;
	private replay?: Buffer;
	/** Bytes read so far: given, less those given back to be read again. */
	private position = 0;

	constructor() {
		this.resume(undefined);
	}

	get verdict(): ImageVerdict | undefined {
		return this.result;
	}

	push(chunk: Buffer): void {
		let at = 0;
		while (!this.result && (this.replay || at < chunk.length)) {
			if (this.replay) {
				const again = this.replay;
				this.replay = undefined;
				this.push(again);
			} else {
				at = this.consume(chunk, at);
			}
		}
	}

	end(): ImageVerdict {
		while (!this.result) {
			if (this.replay) this.push(Buffer.alloc(0));
			else this.resume(this.partial());
		}
		return this.result;
	}

	/** What the file's end leaves the current want with. */
	private partial(): Got {
		if ('take' in this.want) return Buffer.concat(this.taken);
		if ('skip' in this.want) return this.skipped;
		return undefined;
	}

	private resume(got: Got): void {
		this.taken = [];
		this.takenBytes = 0;
		this.skipped = 0;
		this.afterFF = false;
		let next = this.parse.next(got);
		for (;;) {
			if (next.done) {
				this.result = next.value;
				return;
			}
			const want = next.value;
			if ('unread' in want) {
				this.replay = want.unread;
				this.position -= want.unread.length;
				next = this.parse.next(undefined);
			} else if ('position' in want) {
				next = this.parse.next(this.position);
			} else if ('take' in want && want.take === 0) {
				next = this.parse.next(Buffer.alloc(0));
			} else if ('skip' in want && want.skip === 0) {
				next = this.parse.next(0);
			} else {
				this.want = want;
				return;
			}
		}
	}

	/** Gives the current want bytes from `at`; returns where the next want begins. */
	private consume(chunk: Buffer, at: number): number {
		const want = this.want;
		if ('take' in want) {
			const part = Buffer.from(chunk.subarray(at, at + want.take - this.takenBytes));
			this.taken.push(part);
			this.takenBytes += part.length;
			this.position += part.length;
			if (this.takenBytes === want.take) this.resume(Buffer.concat(this.taken));
			return at + part.length;
		}
		if ('skip' in want) {
			const count = Math.min(want.skip - this.skipped, chunk.length - at);
			this.skipped += count;
			this.position += count;
			if (this.skipped === want.skip) this.resume(this.skipped);
			return at + count;
		}
		return this.scan(chunk, at);
	}

	/** Entropy-coded data: 0xFF 0x00 is a data byte, 0xFF 0xD0–D7 a restart, 0xFF 0xFF a fill. */
	private scan(chunk: Buffer, from: number): number {
		let at = from;
		while (at < chunk.length) {
			if (this.afterFF) {
				const code = chunk[at++];
				if (code === 0xff) continue;
				this.afterFF = false;
				if (code === 0x00 || isRestart(code)) continue;
				this.position += at - from;
				this.resume(code);
				return at;
			}
			const mark = chunk.indexOf(0xff, at);
			if (mark < 0) {
				at = chunk.length;
				break;
			}
			this.afterFF = true;
			at = mark + 1;
		}
		this.position += at - from;
		return at;
	}
}

/** The verdict on bytes held whole (a base64 mask). */
export function readImageHeader(bytes: Buffer): ImageVerdict {
	const reader = new ImageHeaderReader();
	reader.push(bytes);
	return reader.end();
}

/**
 * The streaming image-header reader: type, width and height from the header, and whether the
 * file is whole, whatever sizes the chunks come in.
 */
import {
	ImageHeaderReader,
	readImageHeader,
	type ImageVerdict,
} from '../nodes/shared/files/image-header';
import {
	extendedWebp,
	idatChunk,
	jpegImage,
	pngChunk,
	pngClaiming,
	pngImage,
	pngOfChunks,
	riffChunk,
	tightestPng,
	vp8lChunk,
	webpImage,
	type WebpKind,
} from './helpers/images';

/** Made by libjpeg-turbo's cjpeg (progressive, quality 60) from 24 × 18 px of noise. */
const CJPEG_PROGRESSIVE = Buffer.from(
	'/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxO' +
		'UlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09P' +
		'T09PT09PT0//wgARCAASABgDASIAAhEBAxEB/8QAGAABAAMBAAAAAAAAAAAAAAAAAAEDBAL/xAAWAQEBAQAAAAAAAAAAAAAAAAAC' +
		'AwD/2gAMAwEAAhADEAAAAa+7KdpQDxbBzgWr/8QAHhAAAQIHAQAAAAAAAAAAAAAAAgEhAAMQERIiMzL/2gAIAQEAAQUComw+lJ4v' +
		'kpdQ6TGH/8QAGhEAAgIDAAAAAAAAAAAAAAAAAAIBMQMRYf/aAAgBAwEBPwFeEbMli0f/xAAZEQACAwEAAAAAAAAAAAAAAAAAAQID' +
		'QVH/2gAIAQIBAT8BZY5dFpXp/8QAIRAAAgEDAwUAAAAAAAAAAAAAAAECIUGBESIxElFhgqH/2gAIAQEABj8C2r4bebeRa01wWtyN' +
		'9Tqu4pReWexLJS8T/8QAIRABAAIBBAEFAAAAAAAAAAAAAREhADFBUWHwcYGRoeH/2gAIAQEAAT8hpS/lZ3rtSZOtiCENC9bYHYzT' +
		'h6+4YkgKWSmnzyclISRA6XP1hGmFvlHz5xtJqJHWXJv8GPgQTG9Gf//aAAwDAQACAAMAAAAQ3xiA/8QAIBEAAQMCBwAAAAAAAAAA' +
		'AAAAAQARMUFRYYGRobHB0f/aAAgBAwEBPxCD0be3yQkSQ+rYXXAe1Gv/xAAgEQABAgUFAAAAAAAAAAAAAAABABEhMXGhsUGB0eHw' +
		'/9oACAECAQE/EGEg8xt2E4BAb6Rp6ykpOQsi/8QAGxABAQADAQEBAAAAAAAAAAAAAREhMVEAQXH/2gAIAQEAAT8QXIZGRFFuADvX' +
		'OvRCkrEgAN4QO0yclbJsRWkMQOMEw4hDXkJqBaDrfyAldp8eznOpUomcGuzksVY7gFElWYpqhBtHyKpI04E1PxczvktYBg5iTfId' +
		'vLsib2nv/9k=',
	'base64',
);

/** Made by libwebp's cwebp (lossy, quality 40) from the same 24 × 18 px. */
const CWEBP_LOSSY = Buffer.from(
	'UklGRpQBAABXRUJQVlA4IIgBAABwCQCdASoYABIAPu1or1AppaSiqAqpMB2JbACdMoO6bbC8OWzpppv6q+wB0qKNBI1t6Xn4s3Ko' +
		'H5EvsA/YANHPUktFO6wg9m9zFOE7S7OqO3O8AwAAyzY2CzTyyXqYDPG2xnPJtnSP0i6VJA4VTVE0JJUN07fZIZvSAcMf03X7NcqQ' +
		'6uHyiQM6yFuirYHit2vXEZPt62wEtm3KnNlydqmFFxD20CwLQwF0T7920XT7UyNL5EZVpCiSjoyMVaMkRAJmvoFCde+A7Cuo57F7' +
		'5P9dsuQrp0J1bkw7RgYaYq6zufcllgJWc9Wlmj244ZdAczFGeLZhcooP6KNEmSfXT1ktW0wcvfC7yidWTTc/RhbdVOh9hrRDDVpN' +
		'+P7rn0+sgWzxEt+aV23x987SsJY8Lte9cobLeMQbY4J2iPgx+Wx5eVkuYn1NdyjaPb3x9/8mpJFFP3/5M4OoonrXimrWVAtDyx0Z' +
		'rDn//F/Mf77XfrbIt+qJUVSZD2WHY7eCek9/vwDt4CpZi2UAAA==',
	'base64',
);

/** The verdict when the bytes come in chunks of `size`. */
function inChunks(bytes: Buffer, size: number): ImageVerdict {
	const reader = new ImageHeaderReader();
	for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
	return reader.end();
}

const size = (verdict: ImageVerdict) =>
	verdict.ok ? { format: verdict.format, width: verdict.width, height: verdict.height } : verdict;

const WHOLE: Array<[string, Buffer, string, number, number]> = [
	['a baseline JPEG', jpegImage(320, 240), 'JPEG', 320, 240],
	[
		'a JPEG whose frame header comes after 300 kB of EXIF',
		jpegImage(4032, 3024, { exifBytes: 300_000 }),
		'JPEG',
		4032,
		3024,
	],
	['a progressive JPEG from cjpeg', CJPEG_PROGRESSIVE, 'JPEG', 24, 18],
	['a PNG', pngImage(320, 240), 'PNG', 320, 240],
	['a tall PNG', pngImage(3, 7000), 'PNG', 3, 7000],
	['a lossy WebP from cwebp', CWEBP_LOSSY, 'WebP', 24, 18],
	['a lossy WebP', webpImage('lossy', 640, 427), 'WebP', 640, 427],
	['a lossy WebP at its largest', webpImage('lossy', 16383, 16383), 'WebP', 16383, 16383],
	['a lossless WebP', webpImage('lossless', 320, 240), 'WebP', 320, 240],
	['a lossless WebP at its largest', webpImage('lossless', 16384, 1), 'WebP', 16384, 1],
	['an extended WebP', webpImage('extended', 301, 7), 'WebP', 301, 7],
	['a large extended WebP', webpImage('extended', 6500, 4000), 'WebP', 6500, 4000],
];

describe('a whole image: its type and size, however the bytes arrive', () => {
	test.each(WHOLE)('%s', (_name, bytes, format, width, height) => {
		const expected = { format, width, height };
		expect(size(readImageHeader(bytes))).toEqual(expected);
		for (const chunk of [1, 2, 3, 7, 4096]) expect(size(inChunks(bytes, chunk))).toEqual(expected);
	});

	test('the type is the one the upload sends', () => {
		expect(readImageHeader(jpegImage(8, 8))).toMatchObject({
			type: { mimeType: 'image/jpeg', extension: 'jpg' },
		});
		expect(readImageHeader(pngImage(8, 8))).toMatchObject({
			type: { mimeType: 'image/png', extension: 'png' },
		});
		expect(readImageHeader(webpImage('lossless', 8, 8))).toMatchObject({
			type: { mimeType: 'image/webp', extension: 'webp' },
		});
	});

	test.each([
		['zero padding', Buffer.alloc(4096)],
		["a phone's trailer (a Motion Photo's video)", Buffer.from('\0\0\0\x18ftypmp42 video…')],
		['a second picture of a multi-picture file', jpegImage(160, 120)],
	])('a JPEG followed by %s after its end-of-image marker is whole', (_name, after) => {
		expect(size(readImageHeader(jpegImage(320, 240, { after })))).toEqual({
			format: 'JPEG',
			width: 320,
			height: 240,
		});
	});

	test('bytes after a PNG’s IEND or a WebP’s RIFF size are ignored, as decoders ignore them', () => {
		const extra = Buffer.alloc(1000, 0x42);
		expect(readImageHeader(Buffer.concat([pngImage(200, 150), extra])).ok).toBe(true);
		expect(readImageHeader(Buffer.concat([webpImage('lossy', 200, 150), extra])).ok).toBe(true);
	});
});

describe('a file that is not whole, or not readable, is refused with what is wrong', () => {
	const webpHeaderOnly = Buffer.from('RIFF\xe8\x03\0\0WEBP', 'latin1');
	const jpeg = jpegImage(320, 240);
	const png = pngImage(320, 240);
	test.each<[string, Buffer, Partial<ImageVerdict>]>([
		[
			'the 3 bytes FF D8 FF',
			Buffer.from([0xff, 0xd8, 0xff]),
			{ format: 'JPEG', cut: true, reason: 'it ends before its frame header' },
		],
		[
			'a JPEG cut before its end-of-image marker',
			jpeg.subarray(0, jpeg.length - 2),
			{ format: 'JPEG', cut: true, reason: 'it ends before its end-of-image marker' },
		],
		[
			'a JPEG cut inside its EXIF',
			jpegImage(320, 240, { exifBytes: 100_000 }).subarray(0, 50_000),
			{ format: 'JPEG', cut: true, reason: 'it ends before its frame header' },
		],
		[
			'a JPEG signature followed by garbage',
			Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('garbage, not a segment')]),
			{ format: 'JPEG', cut: false, reason: 'its marker segments are broken' },
		],
		[
			'a JPEG whose end-of-image marker comes before any image data',
			Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
			{ format: 'JPEG', cut: false, reason: 'it ends (EOI) before any image data' },
		],
		[
			'a PNG signature followed by garbage',
			Buffer.concat([png.subarray(0, 8), Buffer.alloc(500, 0x61)]),
			{ format: 'PNG', cut: false, reason: 'it does not start with its IHDR header chunk' },
		],
		[
			'a PNG cut before its IEND chunk',
			png.subarray(0, png.length - 12),
			{ format: 'PNG', cut: true, reason: 'it ends before its IEND chunk' },
		],
		[
			'a PNG cut inside its IEND chunk',
			png.subarray(0, png.length - 1),
			{ format: 'PNG', cut: true, reason: 'it ends before its IEND chunk' },
		],
		[
			'a WebP that is only its RIFF header',
			webpHeaderOnly,
			{
				format: 'WebP',
				cut: true,
				reason: 'it is shorter than the 1008 bytes its RIFF header gives',
			},
		],
		[
			'a WebP whose RIFF holds nothing',
			Buffer.from('RIFF\x04\0\0\0WEBP', 'latin1'),
			{ format: 'WebP', cut: false, reason: 'it holds no image: no VP8, VP8L or VP8X chunk' },
		],
		[
			'a WebP whose first chunk is not an image',
			Buffer.from('RIFF\x10\0\0\0WEBPEXIF\x02\0\0\0ab', 'latin1'),
			{ format: 'WebP', cut: false, reason: 'its first chunk is not VP8, VP8L or VP8X' },
		],
		[
			'an extended WebP with no image after its VP8X header',
			Buffer.concat([
				Buffer.from('RIFF\x16\0\0\0WEBPVP8X\x0a\0\0\0', 'latin1'),
				Buffer.from([0, 0, 0, 0, 0x3f, 1, 0, 0x3f, 1, 0]),
			]),
			{ format: 'WebP', cut: false, reason: 'it holds no image data after its VP8X header' },
		],
		[
			'a GIF',
			Buffer.from('GIF89a\x01\0\x01\0\0\0\0;', 'latin1'),
			{ cut: false, reason: 'it is not a JPEG, PNG or WebP image' },
		],
		[
			'nothing at all',
			Buffer.alloc(0),
			{ cut: false, reason: 'it is not a JPEG, PNG or WebP image' },
		],
	])('%s', (_name, bytes, expected) => {
		const verdict = readImageHeader(bytes);
		expect(verdict).toMatchObject({ ok: false, ...expected });
		if (!('format' in expected)) expect(verdict).not.toHaveProperty('format');
		for (const chunk of [1, 5]) expect(inChunks(bytes, chunk)).toEqual(verdict);
	});

	test('a VP8 chunk that runs past the RIFF size', () => {
		const whole = webpImage('lossy', 320, 240);
		const cut = Buffer.from(whole);
		cut.writeUInt32LE(whole.length - 8 - 10, 4);
		expect(readImageHeader(cut)).toMatchObject({
			ok: false,
			cut: false,
			reason: 'its VP8 chunk runs past its RIFF size',
		});
	});

	test('a JPEG frame header of no height', () => {
		expect(readImageHeader(jpegImage(320, 0))).toMatchObject({
			ok: false,
			format: 'JPEG',
			cut: false,
			reason: 'its frame header gives a size of 320 × 0 px',
		});
	});

	test.each(WHOLE)('every part of %s short of its end is refused', (_name, bytes) => {
		const step = Math.max(1, Math.floor(bytes.length / 400));
		for (let length = 0; length < bytes.length; length += step) {
			expect(readImageHeader(bytes.subarray(0, length)).ok).toBe(false);
		}
		expect(readImageHeader(bytes.subarray(0, bytes.length - 1)).ok).toBe(false);
	});

	test('a refusal that more bytes cannot change is known at once, before the end', () => {
		const reader = new ImageHeaderReader();
		reader.push(Buffer.concat([pngImage(8, 8).subarray(0, 8), Buffer.alloc(100, 0x61)]));
		expect(reader.verdict).toMatchObject({ ok: false, format: 'PNG' });
		const cut = new ImageHeaderReader();
		cut.push(jpeg.subarray(0, 100));
		expect(cut.verdict).toBeUndefined();
	});
});

describe('the fixtures of the other tests are what they say', () => {
	test.each<[WebpKind, number, number]>([
		['lossy', 64, 64],
		['lossless', 64, 64],
		['extended', 64, 64],
		['lossy', 130, 100],
		['lossless', 100, 130],
		['extended', 129, 4000],
	])('a %s WebP of %i × %i px', (kind, width, height) => {
		expect(size(readImageHeader(webpImage(kind, width, height)))).toEqual({
			format: 'WebP',
			width,
			height,
		});
	});
});

/** A baseline JPEG whose frame header is rewritten to give this size, its scan left as it was. */
function jpegClaiming(bytes: Buffer, width: number, height: number): Buffer {
	const forged = Buffer.from(bytes);
	// FF C0, the segment's length, the precision, then the height and the width.
	const frame = forged.indexOf(Buffer.from([0xff, 0xc0]));
	forged.writeUInt16BE(height, frame + 5);
	forged.writeUInt16BE(width, frame + 7);
	return forged;
}

describe('a whole image holds image data, of a size its bytes can hold', () => {
	const IDAT = idatChunk(Buffer.alloc(2));
	const IEND = pngChunk('IEND');

	test.each<[string, Buffer, string]>([
		['a PNG with no IDAT', pngOfChunks(8, 1, [IEND]), 'it holds no image data (IDAT) before IEND'],
		[
			'a PNG whose IDAT comes after its IEND',
			pngOfChunks(8, 1, [IEND, IDAT]),
			'it holds no image data (IDAT) before IEND',
		],
		[
			'a JPEG with a frame header and no scan (SOS)',
			Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0, 0xff, 0xd9]),
			'it ends (EOI) before any image data',
		],
		[
			'an extended WebP with no image chunk after its VP8X header',
			extendedWebp({ width: 64, height: 64 }, [riffChunk('EXIF', Buffer.from('II*\0'))]),
			'it holds no image data after its VP8X header',
		],
		[
			'a PNG of 0 × 5 px',
			pngOfChunks(0, 5, [IDAT, IEND]),
			'its IHDR header gives a size of 0 × 5 px',
		],
		['a JPEG of 320 × 0 px', jpegImage(320, 0), 'its frame header gives a size of 320 × 0 px'],
		[
			'a lossy WebP of 0 × 240 px',
			webpImage('lossy', 0, 240),
			'its header gives a size of 0 × 240 px',
		],
		[
			'a 66-byte PNG whose header gives 100,000 × 100,000 px',
			pngClaiming(100_000, 100_000),
			'its header gives 100000 × 100000 px, more than its 66 bytes can hold',
		],
		[
			'a PNG deflated as tightly as it can be, its header then giving 4 times its height',
			pngOfChunks(4000, 16_000, [tightestPng(4000, 4000).subarray(33)]),
			`its header gives 4000 × 16000 px, more than its ${tightestPng(4000, 4000).length} bytes can hold`,
		],
		[
			'a baseline JPEG whose frame header gives 65,535 × 65,535 px',
			jpegClaiming(jpegImage(16, 16), 65_535, 65_535),
			`its header gives 65535 × 65535 px, more than its ${jpegImage(16, 16).length} bytes can hold`,
		],
		[
			'an extended WebP whose VP8X canvas is 50,000 × 50,000 px and its image 1 × 1 px',
			extendedWebp({ width: 50_000, height: 50_000 }, [vp8lChunk(1, 1)]),
			'its VP8X canvas is 50000 × 50000 px, but its image 1 × 1 px',
		],
		[
			'an animated WebP whose canvas is 100,000 × 100,000 px',
			extendedWebp({ width: 100_000, height: 100_000, flags: 0x02 }, [
				riffChunk('ANIM', Buffer.alloc(6)),
				riffChunk('ANMF', Buffer.concat([Buffer.alloc(16), vp8lChunk(1, 1)])),
			]),
			'its VP8X canvas of 100000 × 100000 px is larger than a WebP can be',
		],
	])('%s is not whole', (_name, bytes, reason) => {
		const verdict = readImageHeader(bytes);
		expect(verdict).toMatchObject({ ok: false, cut: false, hollow: true, reason });
		for (const chunk of [1, 5, 4096]) expect(inChunks(bytes, chunk)).toEqual(verdict);
	});

	test.each<[string, Buffer, number, number]>([
		// 64 million pixels in 7,852 bytes: 8,151 a byte, where deflate's best (1032:1) gives 8,256.
		['a 1-bit PNG deflated as tightly as zlib can', tightestPng(8000, 8000), 8000, 8000],
		['a flat baseline JPEG of 2 bits per block', jpegImage(6000, 4000), 6000, 4000],
		[
			'an animated WebP whose frame is smaller than its canvas',
			extendedWebp({ width: 640, height: 480, flags: 0x02 }, [
				riffChunk('ANIM', Buffer.alloc(6)),
				riffChunk('ANMF', Buffer.concat([Buffer.alloc(16), vp8lChunk(1, 1)])),
			]),
			640,
			480,
		],
	])('%s is whole', (_name, bytes, width, height) => {
		expect(size(readImageHeader(bytes))).toMatchObject({ width, height });
		for (const chunk of [1, 7, 4096])
			expect(size(inChunks(bytes, chunk))).toMatchObject({ width, height });
	});
});

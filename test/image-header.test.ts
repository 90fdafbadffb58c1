/**
 * The streaming image-header reader: type, width and height from the header, and whether the
 * file is whole, whatever sizes the chunks come in.
 */
import {
	ImageHeaderReader,
	readImageHeader,
	type ImageVerdict,
} from '../nodes/shared/results/image-header';
import { jpegImage, pngImage, webpImage, type WebpKind } from './helpers/images';

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

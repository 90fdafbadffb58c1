import { detectFormat, fetchBytes, inspectImage, readDimensions } from '../../service/images.ts';
import { sampleBytes } from '../../service/samples.ts';
import type { ImageServer } from './helpers.ts';
import {
	closedPort,
	fakeJpeg,
	fakePng,
	fakeWebpVp8,
	fakeWebpVp8l,
	fakeWebpVp8x,
	startImageServer,
} from './helpers.ts';

describe('image format by magic bytes', () => {
	it('recognises PNG, JPEG and WebP, and nothing else', () => {
		expect(detectFormat(fakePng(10, 10))).toBe('png');
		expect(detectFormat(fakeJpeg(10, 10))).toBe('jpeg');
		expect(detectFormat(fakeWebpVp8(10, 10))).toBe('webp');
		expect(detectFormat(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBeNull();
		expect(detectFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1'))).toBeNull();
		expect(detectFormat(sampleBytes('not-an-image.png') as Buffer)).toBeNull();
		expect(detectFormat(Buffer.alloc(0))).toBeNull();
	});
});

describe('image dimensions from headers', () => {
	it('reads PNG IHDR', () => {
		expect(readDimensions(fakePng(6001, 128), 'png')).toEqual({ width: 6001, height: 128 });
		expect(inspectImage(sampleBytes('living-room.png') as Buffer)).toMatchObject({
			format: 'png',
			width: 1600,
			height: 1200,
		});
	});

	it('reads JPEG SOF0 (baseline) and SOF2 (progressive) after other segments and a fill byte', () => {
		expect(readDimensions(fakeJpeg(4032, 3024), 'jpeg')).toEqual({ width: 4032, height: 3024 });
		expect(readDimensions(fakeJpeg(300, 5000, 0xc2), 'jpeg')).toEqual({ width: 300, height: 5000 });
		expect(readDimensions(fakeJpeg(129, 131, 0xc1), 'jpeg')).toEqual({ width: 129, height: 131 });
	});

	it('does not take DHT (C4) for a frame header, and gives up when no SOF precedes the scan', () => {
		const noFrame = fakeJpeg(640, 480, 0xc4);
		expect(readDimensions(noFrame, 'jpeg')).toBeNull();
		expect(inspectImage(noFrame)).toBe('is a JPEG file whose dimensions cannot be read');
		expect(readDimensions(fakeJpeg(640, 480).subarray(0, 30), 'jpeg')).toBeNull();
	});

	it('reads WebP VP8 (lossy), VP8L (lossless) and VP8X (extended)', () => {
		expect(readDimensions(fakeWebpVp8(1024, 768), 'webp')).toEqual({ width: 1024, height: 768 });
		expect(readDimensions(fakeWebpVp8l(16383, 1), 'webp')).toEqual({ width: 16383, height: 1 });
		expect(readDimensions(fakeWebpVp8l(800, 600), 'webp')).toEqual({ width: 800, height: 600 });
		expect(readDimensions(fakeWebpVp8x(7000, 9000), 'webp')).toEqual({ width: 7000, height: 9000 });
	});

	it('rejects a WebP with a broken VP8 start code and zero-sized images', () => {
		const broken = fakeWebpVp8(100, 100);
		broken[23] = 0;
		expect(readDimensions(broken, 'webp')).toBeNull();
		expect(inspectImage(fakePng(0, 100))).toBe('is a PNG file whose dimensions cannot be read');
		expect(inspectImage(Buffer.from('hello'))).toBe('is not a JPEG, PNG or WebP image');
	});
});

describe('fetching input images', () => {
	let images: ImageServer;
	const options = { maxBytes: 1000, timeoutMs: 2000 };

	beforeAll(async () => {
		images = await startImageServer({
			'/ok.png': { body: fakePng(200, 200) },
			'/limit.png': { body: fakePng(200, 200, 1000) },
			'/big.png': { body: fakePng(200, 200, 1001) },
			'/big-chunked.png': { body: fakePng(200, 200, 5000), chunked: true },
			'/moved': { status: 302, headers: { location: '/ok.png' } },
			'/gone': { status: 410, body: 'gone' },
		});
	});
	afterAll(() => images.close());

	it('downloads, following redirects', async () => {
		expect(await fetchBytes(images.url('/ok.png'), options)).toEqual(fakePng(200, 200));
		expect(await fetchBytes(images.url('/moved'), options)).toEqual(fakePng(200, 200));
		expect((await fetchBytes(images.url('/limit.png'), options)).length).toBe(1000);
	});

	it('rejects oversize bodies, by Content-Length or by counting', async () => {
		await expect(fetchBytes(images.url('/big.png'), options)).rejects.toThrow(/larger than/);
		await expect(fetchBytes(images.url('/big-chunked.png'), options)).rejects.toThrow(
			/larger than/,
		);
	});

	it('explains non-2xx answers, unreachable hosts and bad URLs', async () => {
		await expect(fetchBytes(images.url('/gone'), options)).rejects.toThrow(
			'the server answered HTTP 410',
		);
		await expect(
			fetchBytes(`http://127.0.0.1:${await closedPort()}/x.png`, options),
		).rejects.toThrow(/could not be fetched \(ECONNREFUSED\)/);
		await expect(fetchBytes('not a url', options)).rejects.toThrow('is not a valid URL');
		await expect(fetchBytes('ftp://127.0.0.1/x.png', options)).rejects.toThrow(
			'must be an http or https URL',
		);
	});
});

// Photo enhancer create rules, credits, stored input and result images.
import { PRESET_IDS } from '../../service/presets.ts';
import {
	closedPort,
	decodePngSize,
	download,
	expectEnvelopeError,
	fakeJpeg,
	fakePng,
	fakeWebpVp8,
	fakeWebpVp8l,
	fakeWebpVp8x,
	idOf,
} from './helpers.ts';
import { useImageServer, useService } from './local-service.ts';

const PRESET = 'lighting-color-exposure-brighten-dark-interior-photo';
const MB = 1024 * 1024;

describe('photo enhancer', () => {
	const images = useImageServer({
		'/photo.jpg': { body: fakeJpeg(4000, 3000), headers: { 'content-type': 'image/jpeg' } },
		'/portrait.webp': { body: fakeWebpVp8(1200, 1800) },
		'/lossless.webp': { body: fakeWebpVp8l(1000, 1000) },
		'/extended.webp': { body: fakeWebpVp8x(2000, 1000) },
		'/min.png': { body: fakePng(128, 128) },
		'/narrow.png': { body: fakePng(127, 2000) },
		'/huge.png': { body: fakePng(9000, 6000) },
		'/huge-portrait.png': { body: fakePng(5000, 7500) },
		'/max6000.png': { body: fakePng(6000, 6000) },
		'/exactly-20mb.png': { body: fakePng(1000, 800, 20 * MB) },
		'/over-20mb.png': { body: fakePng(1000, 800, 20 * MB + 1) },
		'/over-20mb-chunked.png': { body: fakePng(1000, 800, 20 * MB + 1), chunked: true },
		'/gif.gif': { body: Buffer.from('GIF89a\x10\x00\x10\x00', 'latin1') },
		'/missing.png': { status: 404, body: 'no' },
		'/error.png': { status: 500, body: 'boom' },
	});
	const service = useService({
		accounts: { 'local-dev-key': 100, other: 5 },
		taskDurationMs: 1000,
	});
	let room: string;

	beforeEach(() => {
		room = service.sample('living-room.png');
	});

	const create = (body: Record<string, unknown>, apiKey?: string) =>
		service.generate('photoEnhancer', body, { apiKey });

	describe('request rules (1011)', () => {
		it('needs presetId or prompt, non-empty; either alone or both is fine', async () => {
			for (const body of [
				{ imageUrl: room },
				{ imageUrl: room, presetId: '', prompt: '' },
				{ imageUrl: room, presetId: null, prompt: '   ' },
			]) {
				expectEnvelopeError(await create(body), 1011, /presetId and prompt/);
			}
			expect((await create({ imageUrl: room, presetId: PRESET })).json.code).toBe(0);
			expect((await create({ imageUrl: room, prompt: 'brighter please' })).json.code).toBe(0);
			expect(
				(await create({ imageUrl: room, presetId: PRESET, prompt: 'and warmer' })).json.code,
			).toBe(0);
		});

		it('rejects an unknown presetId and wrong field types, naming the field', async () => {
			expectEnvelopeError(
				await create({ imageUrl: room, presetId: 'sky-replacement' }),
				1011,
				/presetId "sky-replacement"/,
			);
			expectEnvelopeError(
				await create({ imageUrl: room, presetId: 42 }),
				1011,
				/presetId must be a string/,
			);
			expectEnvelopeError(
				await create({ imageUrl: room, prompt: ['x'] }),
				1011,
				/prompt must be a string/,
			);
		});

		it('accepts imageSize 512, 1K, 2K, 4K only (as strings)', async () => {
			for (const imageSize of ['1k', '8K', '', 'toString', 1024, '2048']) {
				expectEnvelopeError(
					await create({ imageUrl: room, presetId: PRESET, imageSize }),
					1011,
					/imageSize must be one of 512, 1K, 2K, 4K/,
				);
			}
			for (const imageSize of ['512', '1K', '2K', '4K']) {
				expect((await create({ imageUrl: room, presetId: PRESET, imageSize })).json.code).toBe(0);
			}
		});

		it('needs imageUrl as a non-empty string or a non-empty array of non-empty strings', async () => {
			expectEnvelopeError(await create({ presetId: PRESET }), 1011, /imageUrl is required/);
			expectEnvelopeError(await create({ presetId: PRESET, imageUrl: '' }), 1011, /imageUrl/);
			expectEnvelopeError(
				await create({ presetId: PRESET, imageUrl: [] }),
				1011,
				/imageUrl must not be an empty array/,
			);
			expectEnvelopeError(
				await create({ presetId: PRESET, imageUrl: [room, 7] }),
				1011,
				/imageUrl\[1\] must be a non-empty string/,
			);
			expectEnvelopeError(
				await create({ presetId: PRESET, imageUrl: { url: room } }),
				1011,
				/imageUrl must be a string or an array/,
			);
		});

		it('accepts each of the 137 documented preset ids', async () => {
			expect(PRESET_IDS).toHaveLength(137);
			service.setAccount('local-dev-key', 10 * PRESET_IDS.length);
			const imageUrl = images.url('/min.png');
			for (const presetId of PRESET_IDS) {
				const created = await create({ imageUrl, presetId });
				expect({ presetId, code: created.json.code }).toEqual({ presetId, code: 0 });
			}
			expect(service.stats().tasksCreated.total).toBe(137);
			expect(service.balance('local-dev-key')).toBe(0);
		});

		it('charges nothing for a rejected request', async () => {
			await create({ imageUrl: room });
			await create({ imageUrl: room, presetId: 'nope' });
			expect(service.balance('local-dev-key')).toBe(100);
			expect(service.stats().tasksCreated.total).toBe(0);
		});
	});

	describe('image rules', () => {
		it('accepts JPEG and WebP (VP8, VP8L, VP8X) inputs, reading their dimensions', async () => {
			for (const [path, width, height] of [
				['/photo.jpg', 1024, 768],
				['/portrait.webp', 683, 1024],
				['/lossless.webp', 1024, 1024],
				['/extended.webp', 1024, 512],
			] as const) {
				const id = idOf(
					await create({ imageUrl: images.url(path), presetId: PRESET, imageSize: '1K' }),
				);
				service.clock.advance(1000);
				expect((await service.result('photoEnhancer', id)).json.data.output).toMatchObject({
					width,
					height,
				});
			}
		});

		it('rejects files that are not JPEG, PNG or WebP by their bytes, whatever the name says', async () => {
			expectEnvelopeError(
				await create({ imageUrl: service.sample('not-an-image.png'), presetId: PRESET }),
				1011,
				/imageUrl \(.*not-an-image\.png\) is not a JPEG, PNG or WebP image/,
			);
			expectEnvelopeError(
				await create({ imageUrl: images.url('/gif.gif'), presetId: PRESET }),
				1011,
				/not a JPEG, PNG or WebP/,
			);
		});

		it('needs at least 128 px on both sides; 128 itself, 6000 and larger (scaled down) pass', async () => {
			expectEnvelopeError(
				await create({ imageUrl: service.sample('tiny.png'), presetId: PRESET }),
				1011,
				/is 64x64 px; images must be at least 128x128 px/,
			);
			expectEnvelopeError(
				await create({ imageUrl: images.url('/narrow.png'), presetId: PRESET }),
				1011,
				/127x2000/,
			);
			for (const path of ['/min.png', '/max6000.png', '/huge.png']) {
				expect((await create({ imageUrl: images.url(path), presetId: PRESET })).json.code).toBe(0);
			}
		});

		it('scales an image over 6000 px down proportionally: the result keeps its aspect ratio', async () => {
			for (const [path, imageSize, width, height] of [
				['/huge.png', '4K', 4096, 2731],
				['/huge-portrait.png', '2K', 1365, 2048],
			] as const) {
				const id = idOf(await create({ imageUrl: images.url(path), presetId: PRESET, imageSize }));
				service.clock.advance(1000);
				expect((await service.result('photoEnhancer', id)).json.data).toMatchObject({
					status: 'Success',
					output: { width, height },
				});
			}
		});

		it('allows 20 MB (20 x 1024 x 1024 bytes) per file, not one byte more', async () => {
			expect(
				(await create({ imageUrl: images.url('/exactly-20mb.png'), presetId: PRESET })).json.code,
			).toBe(0);
			for (const path of ['/over-20mb.png', '/over-20mb-chunked.png']) {
				expectEnvelopeError(
					await create({ imageUrl: images.url(path), presetId: PRESET }),
					1011,
					/is larger than 20 MB/,
				);
			}
		});

		it('reports unreachable URLs and non-2xx answers', async () => {
			expectEnvelopeError(
				await create({ imageUrl: images.url('/missing.png'), presetId: PRESET }),
				1011,
				/answered HTTP 404/,
			);
			expectEnvelopeError(
				await create({ imageUrl: images.url('/error.png'), presetId: PRESET }),
				1011,
				/answered HTTP 500/,
			);
			const port = await closedPort();
			expectEnvelopeError(
				await create({ imageUrl: `http://127.0.0.1:${port}/a.png`, presetId: PRESET }),
				1011,
				/could not be fetched \(ECONNREFUSED\)/,
			);
			expectEnvelopeError(
				await create({ imageUrl: 'file:///etc/hosts', presetId: PRESET }),
				1011,
				/must be an http or https URL/,
			);
		});

		it('accepts several images with any preset or a prompt alone, not only hdr-merge-hdr-merge', async () => {
			const several = [room, service.sample('kitchen.png'), service.sample('exterior.png')];
			const many = new Array<string>(12).fill(images.url('/min.png'));
			for (const body of [
				{ imageUrl: several, presetId: PRESET },
				{ imageUrl: several, prompt: 'brighter' },
				{ imageUrl: many, presetId: 'sky-replacement-blue-sky-clear-sky' },
			]) {
				const id = idOf(await create(body));
				expect((await service.result('photoEnhancer', id)).json.data.input).toMatchObject({
					imageUrl: body.imageUrl,
					imageUrls: body.imageUrl,
				});
			}
			expect(service.balance('local-dev-key')).toBe(70);
		});

		it('checks every image of an array and names the bad one by index', async () => {
			const bad = await create({
				imageUrl: [service.sample('bracket-1.png'), service.sample('tiny.png')],
				presetId: 'hdr-merge-hdr-merge',
			});
			expectEnvelopeError(bad, 1011, /^imageUrl\[1\] .*tiny\.png.*64x64/);
			expect(service.balance('local-dev-key')).toBe(100);
		});
	});

	describe('prompt review and credits', () => {
		it('answers 9010 for a banned word (whole word, any case) and charges nothing', async () => {
			await service.close();
			await service.start({ bannedWords: ['gore', '[bad phrase]'] });
			room = service.sample('living-room.png');
			const balance = service.balance(service.apiKey);
			expectEnvelopeError(
				await create({ imageUrl: room, prompt: 'Add some GORE here' }),
				9010,
				/text review/,
			);
			expectEnvelopeError(await create({ imageUrl: room, prompt: 'x [BAD phrase] y' }), 9010);
			expect((await create({ imageUrl: room, prompt: 'a gorgeous view' })).json.code).toBe(0);
			expect(service.balance(service.apiKey)).toBe(balance - 10);
			expect(service.stats().tasksCreated.total).toBe(1);
		});

		it('answers 9038 at creation for the reject phrase and charges nothing', async () => {
			expectEnvelopeError(
				await create({ imageUrl: room, presetId: PRESET, prompt: 'please [reject] this' }),
				9038,
				/rejected/,
			);
			expect(service.balance('local-dev-key')).toBe(100);
			expect(service.stats().tasksCreated.total).toBe(0);
			service.configure({ rejectPhrase: 'forbidden look' });
			expectEnvelopeError(await create({ imageUrl: room, prompt: 'a Forbidden Look' }), 9038);
			expect((await create({ imageUrl: room, prompt: 'please [reject] this' })).json.code).toBe(0);
		});

		it('deducts 10 credits per task and answers 9051, deducting nothing, when short', async () => {
			expect((await create({ imageUrl: room, presetId: PRESET })).json.code).toBe(0);
			expect(service.balance('local-dev-key')).toBe(90);
			expectEnvelopeError(
				await create({ imageUrl: room, presetId: PRESET }, 'other'),
				9051,
				/insufficient credits/,
			);
			expect(service.balance('other')).toBe(5);
			service.setAccount('other', 10);
			expect((await create({ imageUrl: room, presetId: PRESET }, 'other')).json.code).toBe(0);
			expect(service.balance('other')).toBe(0);
			expectEnvelopeError(await create({ imageUrl: room, presetId: PRESET }, 'other'), 9051);
			expect(service.stats().credits.byKey).toEqual({
				'local-dev-key': { charged: 10, refunded: 0 },
				other: { charged: 10, refunded: 0 },
			});
		});
	});

	describe('stored input and output', () => {
		it('stores the input as sent, normalised, with defaults (single URL)', async () => {
			const id = idOf(await create({ imageUrl: room, prompt: 'brighter' }));
			expect((await service.result('photoEnhancer', id)).json.data.input).toEqual({
				imageUrl: room,
				imageUrls: [room],
				prompt: 'brighter',
				presetId: null,
				imageSize: '4K',
				isApiCall: true,
				modelType: expect.any(String),
				model: expect.any(String),
			});
		});

		it('stores an array imageUrl as sent and as the list (HDR brackets)', async () => {
			const brackets = [1, 2, 3].map((n) => service.sample(`bracket-${n}.png`));
			const id = idOf(
				await create({ imageUrl: brackets, presetId: 'hdr-merge-hdr-merge', imageSize: '2K' }),
			);
			const input = (await service.result('photoEnhancer', id)).json.data.input;
			expect(input).toMatchObject({
				imageUrl: brackets,
				imageUrls: brackets,
				presetId: 'hdr-merge-hdr-merge',
				prompt: '',
				imageSize: '2K',
				isApiCall: true,
			});
		});

		it.each([
			['512', 512, 384],
			['1K', 1024, 768],
			['2K', 2048, 1536],
		])(
			'serves a real PNG at %s: long edge %i, source aspect ratio',
			async (imageSize, width, height) => {
				const id = idOf(await create({ imageUrl: room, presetId: PRESET, imageSize }));
				service.clock.advance(1000);
				const data = (await service.result('photoEnhancer', id)).json.data;
				expect(data).toMatchObject({ status: 'Success', percentage: 100, waitNumber: 0 });
				expect(data.output).toEqual({
					resultUrl: `${service.baseUrl}/results/${id}.png`,
					width,
					height,
				});
				expect(decodePngSize(await download(data.output.resultUrl))).toEqual({ width, height });
			},
		);

		it('keeps portrait orientation and defaults to 4K', async () => {
			const id = idOf(await create({ imageUrl: images.url('/portrait.webp'), presetId: PRESET }));
			service.clock.advance(1000);
			const output = (await service.result('photoEnhancer', id)).json.data.output;
			expect(output).toMatchObject({ width: 2731, height: 4096 });
			expect(decodePngSize(await download(output.resultUrl))).toEqual({
				width: 2731,
				height: 4096,
			});
		});

		it('does not serve a result image before the task succeeded', async () => {
			const id = idOf(await create({ imageUrl: room, presetId: PRESET }));
			expect((await fetch(`${service.baseUrl}/results/${id}.png`)).status).toBe(404);
			expect((await fetch(`${service.baseUrl}/results/123.png`)).status).toBe(404);
		});
	});
});

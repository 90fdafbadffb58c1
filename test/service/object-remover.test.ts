// Object remover create rules: modes, masks (URL or base64), dimensions, credits, output size.
import { sampleBytes } from '../../service/samples.ts';
import { decodePngSize, download, expectEnvelopeError, fakePng, idOf } from './helpers.ts';
import { useImageServer, useService } from './local-service.ts';

describe('object remover', () => {
	const images = useImageServer({
		'/small-mask.png': { body: fakePng(800, 600) },
		'/room-sized.png': { body: fakePng(1600, 1200) },
		'/tiny-room.png': { body: fakePng(64, 48) },
		'/tiny-mask.png': { body: fakePng(64, 48) },
	});
	const service = useService({ accounts: { 'local-dev-key': 3 }, taskDurationMs: 1000 });
	let room: string;
	let mask: string;
	const maskBase64 = (sampleBytes('living-room-mask.png') as Buffer).toString('base64');

	beforeEach(() => {
		room = service.sample('living-room.png');
		mask = service.sample('living-room-mask.png');
	});

	const create = (body: Record<string, unknown>) => service.generate('objectRemover', body);
	const inputOf = async (id: string) => (await service.result('objectRemover', id)).json.data.input;

	it('needs imageUrl as a single URL string', async () => {
		expectEnvelopeError(await create({ emptyType: 'whole_house' }), 1011, /imageUrl is required/);
		expectEnvelopeError(
			await create({ imageUrl: [room], emptyType: 'whole_house' }),
			1011,
			/imageUrl must be a string/,
		);
	});

	it('needs emptyType, one of single_furniture or whole_house', async () => {
		expectEnvelopeError(await create({ imageUrl: room }), 1011, /emptyType is required/);
		expectEnvelopeError(
			await create({ imageUrl: room, emptyType: 'WHOLE_HOUSE' }),
			1011,
			/emptyType must be one of single_furniture, whole_house/,
		);
		expectEnvelopeError(await create({ imageUrl: room, emptyType: 3 }), 1011, /emptyType/);
	});

	it('single_furniture without maskUrl or maskBase64 gives 1011', async () => {
		expectEnvelopeError(
			await create({ imageUrl: room, emptyType: 'single_furniture' }),
			1011,
			/maskUrl or maskBase64/,
		);
		expectEnvelopeError(
			await create({ imageUrl: room, emptyType: 'single_furniture', maskUrl: '', maskBase64: '' }),
			1011,
			/maskUrl or maskBase64/,
		);
		expect(service.balance(service.apiKey)).toBe(3);
	});

	it('accepts a maskUrl of the same size and stores it in the input', async () => {
		const id = idOf(await create({ imageUrl: room, emptyType: 'single_furniture', maskUrl: mask }));
		expect(await inputOf(id)).toEqual({
			imageUrl: room,
			maskUrl: mask,
			emptyType: 'single_furniture',
		});
	});

	it('accepts a plain base64 mask and leaves it out of the stored input', async () => {
		const id = idOf(await create({ imageUrl: room, emptyType: 'single_furniture', maskBase64 }));
		expect(await inputOf(id)).toEqual({ imageUrl: room, emptyType: 'single_furniture' });
	});

	it('prefers maskUrl when both are given: maskBase64 is not even looked at', async () => {
		const id = idOf(
			await create({
				imageUrl: room,
				emptyType: 'single_furniture',
				maskUrl: mask,
				maskBase64: 'data:image/png;base64,!!!',
			}),
		);
		expect(await inputOf(id)).toEqual({
			imageUrl: room,
			maskUrl: mask,
			emptyType: 'single_furniture',
		});
		// And the other way round: a bad maskUrl is not rescued by a good maskBase64.
		expectEnvelopeError(
			await create({
				imageUrl: room,
				emptyType: 'single_furniture',
				maskUrl: images.url('/small-mask.png'),
				maskBase64,
			}),
			1011,
			/mask is 800x600 px but the image is 1600x1200 px/,
		);
	});

	it('is strict about maskBase64: plain base64, no data: prefix, an image', async () => {
		const body = { imageUrl: room, emptyType: 'single_furniture' };
		const prefixed = await create({ ...body, maskBase64: `data:image/png;base64,${maskBase64}` });
		expectEnvelopeError(prefixed, 1011);
		expect(prefixed.json.message).toBe('maskBase64 must be plain base64, without a data: prefix');
		expectEnvelopeError(
			await create({ ...body, maskBase64: 'not base64 at all!' }),
			1011,
			/maskBase64 is not valid base64/,
		);
		expectEnvelopeError(
			await create({ ...body, maskBase64: maskBase64.slice(0, -1) }),
			1011,
			/not valid base64/,
		);
		expectEnvelopeError(
			await create({ ...body, maskBase64: Buffer.from('plain text').toString('base64') }),
			1011,
			/maskBase64 is not a JPEG, PNG or WebP image/,
		);
		expectEnvelopeError(
			await create({ ...body, maskBase64: 12 }),
			1011,
			/maskBase64 must be a string/,
		);
		expect(service.balance(service.apiKey)).toBe(3);
	});

	it("needs the mask to have the source image's dimensions", async () => {
		expectEnvelopeError(
			await create({
				imageUrl: room,
				emptyType: 'single_furniture',
				maskUrl: images.url('/small-mask.png'),
			}),
			1011,
			/same dimensions/,
		);
		expectEnvelopeError(
			await create({
				imageUrl: room,
				emptyType: 'single_furniture',
				maskBase64: fakePng(1600, 1199).toString('base64'),
			}),
			1011,
			/mask is 1600x1199 px/,
		);
		expect(
			(
				await create({
					imageUrl: room,
					emptyType: 'single_furniture',
					maskUrl: images.url('/room-sized.png'),
				})
			).json.code,
		).toBe(0);
	});

	it('whole_house ignores the mask fields, even invalid ones', async () => {
		const id = idOf(
			await create({
				imageUrl: room,
				emptyType: 'whole_house',
				maskUrl: images.url('/small-mask.png'),
				maskBase64: 'data:,x',
			}),
		);
		expect(await inputOf(id)).toEqual({ imageUrl: room, emptyType: 'whole_house' });
	});

	it('checks the format only (no 128 px minimum, which the spec gives for the enhancer)', async () => {
		expectEnvelopeError(
			await create({ imageUrl: service.sample('not-an-image.png'), emptyType: 'whole_house' }),
			1011,
			/not a JPEG, PNG or WebP/,
		);
		expect(
			(
				await create({
					imageUrl: images.url('/tiny-room.png'),
					emptyType: 'single_furniture',
					maskUrl: images.url('/tiny-mask.png'),
				})
			).json.code,
		).toBe(0);
	});

	it('deducts 1 credit per task and answers 9051 when the balance is 0', async () => {
		for (let i = 0; i < 3; i++)
			expect((await create({ imageUrl: room, emptyType: 'whole_house' })).json.code).toBe(0);
		expect(service.balance(service.apiKey)).toBe(0);
		expectEnvelopeError(await create({ imageUrl: room, emptyType: 'whole_house' }), 9051);
		expect(service.balance(service.apiKey)).toBe(0);
		expect(service.stats().credits.charged).toBe(3);
	});

	it('answers 9038 when the image URL carries the reject phrase, charging nothing', async () => {
		expectEnvelopeError(
			await create({ imageUrl: `${room}?x=%5Breject%5D`, emptyType: 'whole_house' }),
			9038,
		);
		expect(service.balance(service.apiKey)).toBe(3);
	});

	it("serves a result PNG of the source image's size", async () => {
		const id = idOf(await create({ imageUrl: room, emptyType: 'single_furniture', maskBase64 }));
		service.clock.advance(500);
		expect((await service.result('objectRemover', id)).json.data).toMatchObject({
			status: 'Processing',
			waitNumber: 0,
			percentage: 50,
			output: null,
		});
		service.clock.advance(500);
		const data = (await service.result('objectRemover', id)).json.data;
		expect(data).toMatchObject({
			status: 'Success',
			percentage: 100,
			output: { width: 1600, height: 1200 },
		});
		expect(decodePngSize(await download(data.output.resultUrl))).toEqual({
			width: 1600,
			height: 1200,
		});
	});
});

// Envelope, authentication, body parsing, 64-bit ids and task lookup, on every API.
import type { RunningService } from '../../service/server.ts';
import { CATALOG, CATALOG_NAMES } from './catalog-helpers.ts';
import type { Kind } from './helpers.ts';
import {
	call,
	expectEnvelopeError,
	FakeClock,
	generate,
	idOf,
	result,
	sample,
	start,
} from './helpers.ts';

const KINDS: Kind[] = ['photoEnhancer', 'objectRemover', ...CATALOG_NAMES];

describe('API basics', () => {
	let service: RunningService;
	const clock = new FakeClock();
	let enhancerBody: Record<string, unknown>;
	let removerBody: Record<string, unknown>;
	const bodyOf = (kind: Kind) =>
		kind === 'photoEnhancer'
			? enhancerBody
			: kind === 'objectRemover'
				? removerBody
				: CATALOG[kind].body(service);

	beforeAll(async () => {
		service = await start({ accounts: { 'key-a': 5000, 'key-b': 5000 }, now: clock.now });
		enhancerBody = {
			presetId: 'sky-replacement-blue-sky-clear-sky',
			imageUrl: sample(service, 'exterior.png'),
		};
		removerBody = { imageUrl: sample(service, 'living-room.png'), emptyType: 'whole_house' };
	});
	afterAll(() => service.close());

	it.each(KINDS)(
		'%s: create answers the envelope with a bare 64-bit id above 2^53',
		async (kind) => {
			const created = await generate(service, kind, bodyOf(kind));
			expect(created.status).toBe(200);
			expect(created.headers.get('content-type')).toMatch(/^application\/json/);
			expect(created.text).toMatch(/^\{"code":0,"message":"success","data":\d{19}\}$/);
			const id = idOf(created);
			expect(BigInt(id) > 2n ** 53n).toBe(true);
			// What a client that uses JSON.parse naively gets: a number past 2^53, whose digits it
			// cannot trust (most ids come back different; a few happen to print the same).
			expect(Number.isSafeInteger(created.json.data)).toBe(false);
		},
	);

	it.each(KINDS)('%s: result echoes the same id, bare, and ids increase', async (kind) => {
		const first = idOf(await generate(service, kind, bodyOf(kind)));
		const second = idOf(await generate(service, kind, bodyOf(kind)));
		expect(BigInt(second) > BigInt(first)).toBe(true);
		const fetched = await result(service, kind, first);
		expect(
			fetched.text.startsWith(`{"code":0,"message":"success","data":{"id":${first},"status":"`),
		).toBe(true);
		expect(fetched.json.data).toEqual({
			id: expect.any(Number),
			status: expect.stringMatching(/^(Unprocessed|Processing|Success|Failed)$/),
			waitNumber: expect.any(Number),
			percentage: expect.any(Number),
			input: expect.any(Object),
			output: null,
		});
	});

	it.each(KINDS)(
		'%s: a missing or unknown APIKEY gives 5002 on create and result',
		async (kind) => {
			const id = idOf(await generate(service, kind, bodyOf(kind)));
			expectEnvelopeError(
				await generate(service, kind, bodyOf(kind), { apiKey: null }),
				5002,
				/missing/,
			);
			expectEnvelopeError(
				await generate(service, kind, bodyOf(kind), { apiKey: 'nope' }),
				5002,
				/invalid/,
			);
			expectEnvelopeError(await generate(service, kind, bodyOf(kind), { apiKey: '' }), 5002);
			expectEnvelopeError(await result(service, kind, id, { apiKey: null }), 5002);
			expectEnvelopeError(await result(service, kind, id, { apiKey: 'nope' }), 5002);
		},
	);

	it.each(KINDS)(
		'%s: POST without Content-Type: application/json gives 1011 naming it',
		async (kind) => {
			const rawBody = JSON.stringify(bodyOf(kind));
			for (const contentType of [null, 'text/plain', 'application/x-www-form-urlencoded']) {
				expectEnvelopeError(
					await call(service, 'POST', `/api/v1/${kind}/generate`, { rawBody, contentType }),
					1011,
					/Content-Type must be application\/json/,
				);
			}
			const withCharset = await call(service, 'POST', `/api/v1/${kind}/generate`, {
				rawBody,
				contentType: 'application/json; charset=utf-8',
			});
			expect(withCharset.json.code).toBe(0);
		},
	);

	it.each(KINDS)('%s: a body that is not a JSON object gives 1011', async (kind) => {
		const path = `/api/v1/${kind}/generate`;
		expectEnvelopeError(
			await call(service, 'POST', path, { rawBody: '{"imageUrl": ' }),
			1011,
			/not valid JSON/,
		);
		expectEnvelopeError(
			await call(service, 'POST', path, { rawBody: '[1,2]' }),
			1011,
			/JSON object/,
		);
		expectEnvelopeError(
			await call(service, 'POST', path, { rawBody: '"text"' }),
			1011,
			/JSON object/,
		);
		expectEnvelopeError(await call(service, 'POST', path, { rawBody: '' }), 1011, /empty/);
	});

	it.each(KINDS)('%s: a taskId that is missing or not digits gives 1011', async (kind) => {
		expectEnvelopeError(
			await call(service, 'GET', `/api/v1/${kind}/result`),
			1011,
			/taskId is required/,
		);
		for (const bad of ['', 'abc', '-5', '12.5', '1e18', '%201']) {
			expectEnvelopeError(await result(service, kind, bad), 1011, /taskId/);
		}
		expectEnvelopeError(await result(service, kind, '9223372036854775808'), 1011, /out of range/);
	});

	it.each(KINDS)(
		"%s: an unknown id, another account's id or the other interface's id gives 1001",
		async (kind) => {
			const id = idOf(await generate(service, kind, bodyOf(kind), { apiKey: 'key-a' }));
			expectEnvelopeError(
				await result(service, kind, id, { apiKey: 'key-b' }),
				1001,
				/task not found/,
			);
			const other: Kind = kind === 'photoEnhancer' ? 'objectRemover' : 'photoEnhancer';
			expectEnvelopeError(
				await result(service, other, id, { apiKey: 'key-a' }),
				1001,
				/task not found/,
			);
			// One more than a real id: parsed as BigInt, it must not round onto the real task.
			expectEnvelopeError(
				await result(service, kind, (BigInt(id) + 1n).toString(), { apiKey: 'key-a' }),
				1001,
			);
			expect((await result(service, kind, id, { apiKey: 'key-a' })).json.code).toBe(0);
		},
	);

	it.each(KINDS)(
		'%s: create is POST /api/v1/<kind>/generate, result is GET /api/v1/<kind>/result, nothing else',
		async (kind) => {
			const created = await call(service, 'POST', `/api/v1/${kind}/generate`, {
				body: bodyOf(kind),
			});
			const id = idOf(created);
			const fetched = await call(service, 'GET', `/api/v1/${kind}/result?taskId=${id}`);
			expect(fetched.json).toMatchObject({ code: 0, data: { status: expect.any(String) } });
			const asGet = await call(service, 'GET', `/api/v1/${kind}/generate`);
			expect(asGet.status).toBe(405);
			expect(asGet.headers.get('allow')).toBe('POST');
			const asPost = await call(service, 'POST', `/api/v1/${kind}/result?taskId=${id}`, {
				body: {},
			});
			expect(asPost.status).toBe(405);
			expect(asPost.headers.get('allow')).toBe('GET');
			for (const path of [`/api/v2/${kind}/generate`, `/api/${kind}/generate`]) {
				const elsewhere = await call(service, 'POST', path, { body: bodyOf(kind) });
				expect(elsewhere.status).toBe(404);
				expect(elsewhere.json).toMatchObject({ code: 1001, data: null });
			}
		},
	);

	it('answers unknown paths 404 and wrong methods 405, with an envelope', async () => {
		const unknown = await call(service, 'GET', '/api/v1/photoEnhancer/nothing');
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({
			code: 1001,
			message: expect.stringMatching(/no such endpoint/),
			data: null,
		});
		const wrongMethod = await call(service, 'GET', '/api/v1/objectRemover/generate');
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.get('allow')).toBe('POST');
		expect(wrongMethod.json.code).toBe(1001);
	});
});

// Envelope, authentication, body parsing, 64-bit ids and task lookup, on every API.
import { CATALOG, CATALOG_NAMES } from './catalog-helpers.ts';
import type { Kind } from './helpers.ts';
import { expectEnvelopeError, idOf } from './helpers.ts';
import { useService } from './local-service.ts';

const KINDS: Kind[] = ['photoEnhancer', 'objectRemover', ...CATALOG_NAMES];

describe('API basics', () => {
	const service = useService({ accounts: { 'key-a': 5000, 'key-b': 5000 } }, 'the suite');
	let enhancerBody: Record<string, unknown>;
	let removerBody: Record<string, unknown>;
	const bodyOf = (kind: Kind) =>
		kind === 'photoEnhancer'
			? enhancerBody
			: kind === 'objectRemover'
				? removerBody
				: CATALOG[kind].body(service);

	beforeAll(async () => {
		enhancerBody = {
			presetId: 'sky-replacement-blue-sky-clear-sky',
			imageUrl: service.sample('exterior.png'),
		};
		removerBody = { imageUrl: service.sample('living-room.png'), emptyType: 'whole_house' };
	});

	it.each(KINDS)(
		'%s: create answers the envelope with a bare 64-bit id above 2^53',
		async (kind) => {
			const created = await service.generate(kind, bodyOf(kind));
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
		const first = idOf(await service.generate(kind, bodyOf(kind)));
		const second = idOf(await service.generate(kind, bodyOf(kind)));
		expect(BigInt(second) > BigInt(first)).toBe(true);
		const fetched = await service.result(kind, first);
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
			const id = idOf(await service.generate(kind, bodyOf(kind)));
			expectEnvelopeError(
				await service.generate(kind, bodyOf(kind), { apiKey: null }),
				5002,
				/missing/,
			);
			expectEnvelopeError(
				await service.generate(kind, bodyOf(kind), { apiKey: 'nope' }),
				5002,
				/invalid/,
			);
			expectEnvelopeError(await service.generate(kind, bodyOf(kind), { apiKey: '' }), 5002);
			expectEnvelopeError(await service.result(kind, id, { apiKey: null }), 5002);
			expectEnvelopeError(await service.result(kind, id, { apiKey: 'nope' }), 5002);
		},
	);

	it.each(KINDS)(
		'%s: POST without Content-Type: application/json gives 1011 naming it',
		async (kind) => {
			const rawBody = JSON.stringify(bodyOf(kind));
			for (const contentType of [null, 'text/plain', 'application/x-www-form-urlencoded']) {
				expectEnvelopeError(
					await service.call('POST', `/api/v1/${kind}/generate`, { rawBody, contentType }),
					1011,
					/Content-Type must be application\/json/,
				);
			}
			const withCharset = await service.call('POST', `/api/v1/${kind}/generate`, {
				rawBody,
				contentType: 'application/json; charset=utf-8',
			});
			expect(withCharset.json.code).toBe(0);
		},
	);

	it.each(KINDS)('%s: a body that is not a JSON object gives 1011', async (kind) => {
		const path = `/api/v1/${kind}/generate`;
		expectEnvelopeError(
			await service.call('POST', path, { rawBody: '{"imageUrl": ' }),
			1011,
			/not valid JSON/,
		);
		expectEnvelopeError(
			await service.call('POST', path, { rawBody: '[1,2]' }),
			1011,
			/JSON object/,
		);
		expectEnvelopeError(
			await service.call('POST', path, { rawBody: '"text"' }),
			1011,
			/JSON object/,
		);
		expectEnvelopeError(await service.call('POST', path, { rawBody: '' }), 1011, /empty/);
	});

	it.each(KINDS)('%s: a taskId that is missing or not digits gives 1011', async (kind) => {
		expectEnvelopeError(
			await service.call('GET', `/api/v1/${kind}/result`),
			1011,
			/taskId is required/,
		);
		for (const bad of ['', 'abc', '-5', '12.5', '1e18', '%201']) {
			expectEnvelopeError(await service.result(kind, bad), 1011, /taskId/);
		}
		expectEnvelopeError(await service.result(kind, '9223372036854775808'), 1011, /out of range/);
	});

	it.each(KINDS)(
		"%s: an unknown id, another account's id or the other interface's id gives 1001",
		async (kind) => {
			const id = idOf(await service.generate(kind, bodyOf(kind), { apiKey: 'key-a' }));
			expectEnvelopeError(
				await service.result(kind, id, { apiKey: 'key-b' }),
				1001,
				/task not found/,
			);
			const other: Kind = kind === 'photoEnhancer' ? 'objectRemover' : 'photoEnhancer';
			expectEnvelopeError(
				await service.result(other, id, { apiKey: 'key-a' }),
				1001,
				/task not found/,
			);
			// One more than a real id: parsed as BigInt, it must not round onto the real task.
			expectEnvelopeError(
				await service.result(kind, (BigInt(id) + 1n).toString(), { apiKey: 'key-a' }),
				1001,
			);
			expect((await service.result(kind, id, { apiKey: 'key-a' })).json.code).toBe(0);
		},
	);

	it.each(KINDS)(
		'%s: create is POST /api/v1/<kind>/generate, result is GET /api/v1/<kind>/result, nothing else',
		async (kind) => {
			const created = await service.call('POST', `/api/v1/${kind}/generate`, {
				body: bodyOf(kind),
			});
			const id = idOf(created);
			const fetched = await service.call('GET', `/api/v1/${kind}/result?taskId=${id}`);
			expect(fetched.json).toMatchObject({ code: 0, data: { status: expect.any(String) } });
			const asGet = await service.call('GET', `/api/v1/${kind}/generate`);
			expect(asGet.status).toBe(405);
			expect(asGet.headers.get('allow')).toBe('POST');
			const asPost = await service.call('POST', `/api/v1/${kind}/result?taskId=${id}`, {
				body: {},
			});
			expect(asPost.status).toBe(405);
			expect(asPost.headers.get('allow')).toBe('GET');
			for (const path of [`/api/v2/${kind}/generate`, `/api/${kind}/generate`]) {
				const elsewhere = await service.call('POST', path, { body: bodyOf(kind) });
				expect(elsewhere.status).toBe(404);
				expect(elsewhere.json).toMatchObject({ code: 1001, data: null });
			}
		},
	);

	it('answers unknown paths 404 and wrong methods 405, with an envelope', async () => {
		const unknown = await service.call('GET', '/api/v1/photoEnhancer/nothing');
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({
			code: 1001,
			message: expect.stringMatching(/no such endpoint/),
			data: null,
		});
		const wrongMethod = await service.call('GET', '/api/v1/objectRemover/generate');
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.get('allow')).toBe('POST');
		expect(wrongMethod.json.code).toBe(1001);
	});
});

// The CRM stand-in: the write a "listing ready" automation sends back, read back by tests.
import { type RunningCrmStub, startCrmStub } from '../../service/crm/crm.ts';

describe('CRM stand-in', () => {
	let crm: RunningCrmStub;
	beforeEach(async () => {
		crm = await startCrmStub({ token: 'crm-test' });
	});
	afterEach(() => crm.close());

	const send = (
		path: string,
		init: { method?: string; body?: string; token?: string | null; type?: string } = {},
	) =>
		fetch(`${crm.baseUrl}${path}`, {
			method: init.method ?? 'PATCH',
			headers: {
				...(init.token === null ? {} : { Authorization: `Bearer ${init.token ?? 'crm-test'}` }),
				'Content-Type': init.type ?? 'application/json',
			},
			body: init.body,
		});

	it('stores a photo update, answers with the record, and reads it back', async () => {
		const photos = [{ mediaKey: 'M1', enhancedUrl: 'http://x/r.png' }];
		const patched = await send('/api/v1/listings/L-1/photos', {
			body: JSON.stringify({ photos, note: 'x' }),
		});
		expect(patched.status).toBe(200);
		expect(await patched.json()).toMatchObject({ listingId: 'L-1', photos });
		const read = await send('/api/v1/listings/L-1', { method: 'GET' });
		expect(await read.json()).toMatchObject({ listingId: 'L-1', photos });
		expect(crm.writes()).toEqual([
			{ listingId: 'L-1', body: { photos, note: 'x' }, receivedAt: expect.any(Number) },
		]);
		expect(crm.refused()).toEqual([]);
	});

	it('refuses a missing token, a body without photos, other methods and paths, and records why', async () => {
		expect(
			(await send('/api/v1/listings/L-1/photos', { token: null, body: '{"photos":[]}' })).status,
		).toBe(401);
		expect((await send('/api/v1/listings/L-1/photos', { body: '{"photo":[]}' })).status).toBe(422);
		expect((await send('/api/v1/listings/L-1/photos', { body: 'not json' })).status).toBe(400);
		expect(
			(await send('/api/v1/listings/L-1/photos', { body: '{}', type: 'text/plain' })).status,
		).toBe(415);
		expect((await send('/api/v1/listings/L-1/photos', { method: 'POST', body: '{}' })).status).toBe(
			405,
		);
		expect((await send('/api/v1/other', { body: '{}' })).status).toBe(404);
		expect((await send('/api/v1/listings/L-9', { method: 'GET' })).status).toBe(404);
		expect(crm.writes()).toEqual([]);
		expect(crm.refused().map((entry) => entry.status)).toEqual([401, 422, 400, 415, 405, 404, 404]);
	});
});

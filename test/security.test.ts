/**
 * The API key stays with the service, as a user counts on it: requests to the service never follow
 * a redirect, whatever the server or the network says passes one redaction before anyone sees it
 * (items, errors, n8n's log), and names like "__proto__" are plain names. Which result addresses
 * a download may open is in downloads.test.ts, how an address is judged in addresses.test.ts.
 */
import { parseJsonKeepingLongs } from '../nodes/shared/core/long-ids';
import { redact } from '../nodes/shared/core/redact';
import { logLines, runNode } from './helpers/engine';
import {
	API_KEY,
	PE,
	api,
	created,
	envelope,
	realTime,
	recorded,
	refuseCreates,
	serveTask,
	taskResponse,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { sendJson } from './helpers/local-server';
import { enhance, remove } from './helpers/params';

const { server } = eachTestOnAFreshWire();

/** The key must be nowhere a user or a log can see it. */
function expectNoKey(...things: unknown[]): void {
	for (const thing of things) expect(JSON.stringify(thing ?? null)).not.toContain(API_KEY);
	expect(logLines.join('\n')).not.toContain(API_KEY);
}

describe('requests to the service never follow a redirect', () => {
	async function redirectingService(redirectOn: 'POST' | 'GET') {
		const elsewhere = await server((_req, res) => sendJson(res, created('666')));
		const service = await server((req, res) => {
			if (req.method === redirectOn) {
				res.writeHead(redirectOn === 'POST' ? 307 : 302, {
					Location: `${elsewhere.url}${req.url}`,
				});
				res.end();
			} else if (req.method === 'POST') sendJson(res, created('7'));
			else sendJson(res, taskResponse('7'));
		});
		return { elsewhere, credentials: { apiKey: API_KEY, baseUrl: service.url } };
	}

	test.each([
		['a create', 'POST' as const, enhance({ waitForCompletion: false })],
		['a status check', 'GET' as const, enhance()],
		['Get Result', 'GET' as const, { operation: 'getResult', taskId: '7' }],
	])(
		'%s answered with a redirect fails, and the key goes nowhere else',
		async (_name, method, parameters) => {
			realTime();
			const { elsewhere, credentials } = await redirectingService(method);

			const { error, items } = await runNode({ node: 'photoEnhancer', parameters, credentials });

			expect(elsewhere.seen).toHaveLength(0);
			expect(items).toEqual([]);
			expect(error?.message).toMatch(/^Ideal House answered with a redirect: HTTP 30\d to /);
			expect(error?.description).toMatch(/check the base URL/i);
			expect(error?.description).toMatch(/key was not sent/i);
		},
	);
});

describe('what the server or the network says passes one redaction before anyone sees it', () => {
	test('an HTTP error text that echoes the key', async () => {
		api()
			.post(PE.create)
			.reply(400, `Bad request. Received headers: APIKEY: ${API_KEY}; Accept: */*`);

		const run = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			onError: 'continueRegularOutput',
		});

		expect(run.items[0].json.error).toMatch(/HTTP 400/);
		expectNoKey(run.items, run.error);
	});

	test('an error envelope whose message quotes the key', async () => {
		refuseCreates(PE, 1011, `invalid header value "${API_KEY}"`);

		const run = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(run.error?.message).toMatch(/^Ideal House answered code 1011/);
		expectNoKey(run.error);
	});

	test('a task whose fields echo the request headers', async () => {
		api()
			.get(PE.result)
			.query(true)
			.reply(
				200,
				taskResponse('8', { input: { headers: { apikey: API_KEY }, note: `key=${API_KEY}` } }),
			);

		const run = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '8' },
		});

		expect(run.items[0].json.id).toBe('8');
		expectNoKey(run.items);
	});

	test('a network error whose text carries the key', async () => {
		serveTask(PE, '8');
		api()
			.get(PE.result)
			.query({ taskId: '8' })
			.replyWithError(`proxy refused request with APIKEY ${API_KEY}`);

		const run = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(run.error).toBeDefined();
		expectNoKey(run.error);
	});

	test('a huge echoed message is cut', async () => {
		refuseCreates(PE, 1001, 'x'.repeat(100_000));

		const run = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(run.error?.message).toMatch(/^Ideal House answered code 1001/);
		expect(run.error!.message.length).toBeLessThan(1000);
	});
});

describe('echoed credential headers', () => {
	test('read APIKEY=[redacted], with no bracket left over', () => {
		expect(redact(`APIKEY=${API_KEY}`, [API_KEY])).toBe('APIKEY=[redacted]');
		expect(redact(`{"apikey":"${API_KEY}"}`, [API_KEY])).toBe('{"apikey":"[redacted]"}');
		expect(redact(`[APIKEY: ${API_KEY}]`, [API_KEY])).toBe('[APIKEY: [redacted]]');
	});
});

describe("the token of n8n's signed link to a photo", () => {
	// A token's shape (header.payload.signature), made of no secret.
	const signed = ['eyJhbGciOiJIUzI1NiJ9', 'eyJpZCI6ImEifQ', 'c2lnbmF0dXJl_-x'].join('.');
	const link = `https://n8n.example.com/rest/binary-data/signed?token=${signed}`;

	test.each([
		['as written', `imageUrl (${link}) could not be fetched`],
		['JSON-escaped', JSON.stringify({ imageUrl: link }).replace(/\//g, '\\/')],
		['URL-encoded', `source=${encodeURIComponent(link)}`],
		[
			'JSON-escaped with \\u003d and \\u003f',
			JSON.stringify({ imageUrl: link }).replace('?', '\\u003f').replace('=', '\\u003d'),
		],
	])('is cleared %s, the address kept', (_form, text) => {
		const cleared = redact(text, [API_KEY]);

		expect(cleared).not.toContain(signed);
		expect(cleared).toContain('[redacted]');
		expect(cleared).toMatch(/n8n\.example\.com/);
	});
});

describe("a result's own address is kept whole", () => {
	test('a resultUrl that is a presigned link comes out with its signature, to be opened', async () => {
		const resultUrl =
			'https://results.example.com/out/71.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=' +
			'b7'.repeat(32);
		serveTask(PE, '71', { status: 'Success', output: { resultUrl, width: 800, height: 600 } });

		const { items, error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json.output).toMatchObject({ resultUrl });
	});
});

describe('names like __proto__ are plain names', () => {
	test.each(['__proto__', 'toString', 'constructor', 'hasOwnProperty'])(
		'a Mask Input Binary Field named %s is a plain "not on the item"',
		async (property) => {
			const { error } = await runNode({
				node: 'objectRemover',
				parameters: remove({
					emptyType: 'single_furniture',
					maskSource: 'binary',
					maskBinaryProperty: property,
				}),
			});

			expect(error?.message).toBe(
				`'Mask Input Binary Field' "${property}" is not on the item (it has no binary data) [item 0]`,
			);
			expect(recorded).toHaveLength(0);
		},
	);

	test('the JSON reader keeps "__proto__" a plain key', () => {
		const value = parseJsonKeepingLongs('{"__proto__":{"polluted":true},"a":1}') as Record<
			string,
			unknown
		>;

		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
		expect((value as { polluted?: boolean }).polluted).toBeUndefined();
	});

	test('a task whose fields hold "__proto__" reaches the item as data', async () => {
		api()
			.get(PE.result)
			.query(true)
			.reply(
				200,
				envelope('{"id":8,"status":"Processing","__proto__":{"status":"Success"},"output":null}'),
			);

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '8' },
		});

		expect(items[0].json.status).toBe('Processing');
	});
});

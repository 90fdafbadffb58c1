/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * What a failed create tells the user, row by row of the ways a request can fail: whether it is
 * sent again, whether its credits come back to the Credit Limit, and the words. A create that may
 * have reached the service says so and how to find the task, and never to run the node again (or
 * n8n's own "retry the request" and "Retry on Fail"): following that could pay twice. Only a
 * failure that proves nothing was sent or taken may say "run the node again".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runNode } from './helpers/engine';
import { API_KEY, BASE, PE, allowLoopback, api, envelope, recorded } from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { sendJson } from './helpers/local-server';
import { enhance } from './helpers/params';

const journey = eachTestOnAFreshWire();
beforeEach(allowLoopback);

/** Words n8n or the package could use to send a create again. */
const SEND_AGAIN = /run the node again|retry on fail|retry the request|run it again|retry after/i;
const MAY_EXIST = /may have been created and charged/;
const NOTHING_CHARGED = /Nothing was created or charged for this item/;

type Consequence = 'nothing charged' | 'may exist';

interface Row {
	name: string;
	/** Sets the wire up for every create of the test; returns the base URL to use. */
	wire(): Promise<string>;
	/** How many times one item's create reaches the wire. */
	attempts: number;
	consequence: Consequence;
	message: RegExp;
}

const socketError = (code?: string, message = 'socket failure') =>
	Object.assign(new Error(message), code ? { code } : {});

/** Every create fails on the way with this error. */
const failing = (error: Error) => async () => {
	api().post(PE.create).times(20).replyWithError(error);
	return BASE;
};

/** Every create is answered like this. */
const answering =
	(status: number, body: string, headers: Record<string, string> = {}) =>
	async () => {
		api().post(PE.create).times(20).reply(status, body, headers);
		return BASE;
	};

/** A server on loopback that answers with bytes that are not HTTP. */
async function notHttpServer(): Promise<string> {
	const server: Server = createTcpServer((socket) => {
		socket.on('data', () => socket.end('HELLO FROM SOMETHING ELSE\r\n\r\n'));
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	closeAfter.push(() => new Promise((resolve) => server.close(() => resolve())));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A plain-http server addressed as https: the TLS handshake cannot complete. */
async function plainHttpAsHttps(): Promise<string> {
	const plain = await journey.server((_req, res) => sendJson(res, envelope('1')));
	return plain.url.replace('http://', 'https://');
}

/** An https server whose certificate nobody signed (made with openssl for the test). */
async function selfSignedHttps(): Promise<string> {
	const dir = mkdtempSync(join(tmpdir(), 'ideal-house-tls-'));
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'1',
			'-subj',
			'/CN=127.0.0.1',
		].concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
		{ stdio: 'ignore' },
	);
	const server = createHttpsServer(
		{ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
		(_req, res) => sendJson(res, envelope('1')),
	);
	rmSync(dir, { recursive: true, force: true });
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	closeAfter.push(() => new Promise((resolve) => server.close(() => resolve())));
	return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A 200 that announces more than it sends, then drops the connection. */
async function cutMidBody(): Promise<string> {
	const server = await journey.server((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '200' });
		res.write('{"code":0,"message":"success","da');
		setTimeout(() => res.destroy(), 20);
	});
	return server.url;
}

const closeAfter: Array<() => Promise<void>> = [];
afterEach(async () => {
	for (const close of closeAfter.splice(0)) await close();
});

const ROWS: Row[] = [
	...['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'].map(
		(code): Row => ({
			name: `no connection (${code})`,
			wire: failing(socketError(code)),
			attempts: 5,
			consequence: 'nothing charged',
			message: /^n8n could not connect to Ideal House \[item 0\]$/,
		}),
	),
	{
		name: 'a TLS handshake that failed: plain http behind https',
		wire: plainHttpAsHttps,
		attempts: 1,
		consequence: 'nothing charged',
		message: /^n8n could not open a secure connection to Ideal House \[item 0\]$/,
	},
	{
		name: 'a TLS handshake that failed: a certificate nobody signed',
		wire: selfSignedHttps,
		attempts: 1,
		consequence: 'nothing charged',
		message: /^n8n could not open a secure connection to Ideal House \[item 0\]$/,
	},
	...['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ECONNABORTED'].map(
		(code): Row => ({
			name: `the connection broke after the request was written (${code})`,
			wire: failing(socketError(code)),
			attempts: 1,
			consequence: 'may exist',
			message: /^The connection to Ideal House broke before its answer arrived \[item 0\]$/,
		}),
	),
	{
		name: 'a network failure without a code',
		wire: failing(socketError(undefined, 'socket hang up')),
		attempts: 1,
		consequence: 'may exist',
		message: /^The request to Ideal House ended without an answer \[item 0\]$/,
	},
	...['read ECONNRESET', 'connect ETIMEDOUT 203.0.113.9:443'].map(
		(words): Row => ({
			// n8n rewords such a failure with its own advice ("retry the request immediately",
			// "Retry on Fail"), which must not reach the user.
			name: `a failure whose only code is in its words ("${words}")`,
			wire: failing(socketError(undefined, words)),
			attempts: 1,
			consequence: 'may exist',
			message: /^The connection to Ideal House broke before its answer arrived \[item 0\]$/,
		}),
	),
	{
		name: 'an answer that is not HTTP',
		wire: notHttpServer,
		attempts: 1,
		consequence: 'may exist',
		message: /^Ideal House's address answered with something that is not HTTP \[item 0\]$/,
	},
	{
		name: 'a 200 cut mid-body',
		wire: cutMidBody,
		attempts: 1,
		consequence: 'may exist',
		message:
			/^(The connection to Ideal House broke|Ideal House sent an answer that could not be read)/,
	},
	{
		name: 'a 200 whose body is not the service’s JSON',
		wire: answering(200, '{"code":0,"message":"success","da'),
		attempts: 1,
		consequence: 'may exist',
		message: /^Ideal House sent an answer that could not be read \[item 0\]$/,
	},
	{
		name: 'a redirect, never followed',
		wire: answering(302, '', { Location: 'https://elsewhere.example/generate' }),
		attempts: 1,
		consequence: 'nothing charged',
		message: /^Ideal House answered with a redirect: HTTP 302 to elsewhere\.example \[item 0\]$/,
	},
	{
		name: 'a 4xx page without the service’s envelope',
		wire: answering(404, '<html><body>Not Found</body></html>'),
		attempts: 1,
		consequence: 'nothing charged',
		message:
			/^Ideal House's address answered with a page that is not the API's: HTTP 404, "Not Found"/,
	},
	{
		name: 'HTTP 429 without an envelope',
		wire: answering(429, 'Too Many Requests'),
		attempts: 5,
		consequence: 'nothing charged',
		message: /^Ideal House is limiting the request rate: HTTP 429/,
	},
	{
		name: 'a 5xx page without an envelope',
		wire: answering(503, '<html>Service Unavailable</html>'),
		attempts: 1,
		consequence: 'may exist',
		message: /^Ideal House is unavailable right now: HTTP 503/,
	},
	{
		name: 'an error code of the service (1011)',
		wire: answering(200, envelope('null', 1011, 'imageUrl is invalid')),
		attempts: 1,
		consequence: 'nothing charged',
		message: /^Ideal House answered code 1011, .*"imageUrl is invalid" \[item 0\]$/,
	},
	{
		name: 'an error code behind a 5xx (1001 on 500)',
		wire: answering(500, envelope('null', 1001, 'database down')),
		attempts: 1,
		consequence: 'may exist',
		message: /^Ideal House answered code 1001, .*"database down" \[item 0\]$/,
	},
	{
		name: 'an error code behind a 5xx whose words name a system code',
		wire: answering(500, envelope('null', 1001, 'upstream ETIMEDOUT')),
		attempts: 1,
		consequence: 'may exist',
		message: /^Ideal House answered code 1001, the request was not carried out \[item 0\]$/,
	},
	{
		name: 'an error code behind a 5xx whose words say to retry the request',
		wire: answering(500, envelope('null', 1001, 'Please retry the request now')),
		attempts: 1,
		consequence: 'may exist',
		message: /^Ideal House answered code 1001, the request was not carried out \[item 0\]$/,
	},
	{
		name: 'an error code of the service whose words name a system code',
		wire: answering(200, envelope('null', 1011, 'connect ECONNREFUSED 10.0.0.7:80')),
		attempts: 1,
		consequence: 'nothing charged',
		message:
			/^Ideal House answered code 1011, a request parameter is missing or not valid \[item 0\]$/,
	},
	...[200, 429, 500, 503].map(
		(status): Row => ({
			name: `not enough credits (9051) on HTTP ${status}`,
			wire: answering(status, envelope('null', 9051, 'COINS_NOT_ENOUGH')),
			attempts: 1,
			consequence: 'nothing charged',
			message:
				/^Ideal House refused the task: the account does not have enough credits: code 9051, "COINS_NOT_ENOUGH" \[item 0\]$/,
		}),
	),
];

const creates = () => recorded.filter((request) => request.method === 'POST');

describe.each(ROWS)('a create that ends with $name', (row) => {
	test('is sent as often as it may be, and its words say what it came to', async () => {
		const baseUrl = await row.wire();

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false }),
			credentials: { apiKey: API_KEY, baseUrl },
			onError: 'continueRegularOutput',
		});

		const { error, details } = items[0].json as { error: string; details: IDataObject };
		const description = String(details.description);
		expect(error).toMatch(row.message);
		if (baseUrl === BASE) expect(creates()).toHaveLength(row.attempts);
		if (row.consequence === 'may exist') {
			expect(description).toMatch(MAY_EXIST);
			expect(description).toMatch(/look for it in your Ideal House account/);
			expect(`${error} ${description}`).not.toMatch(SEND_AGAIN);
		} else {
			expect(description).toMatch(NOTHING_CHARGED);
			expect(`${error} ${description}`).not.toMatch(MAY_EXIST);
		}
		expect(JSON.stringify(items)).not.toContain(API_KEY);
	});

	test('gives its credits back to the Credit Limit only when nothing can have been charged', async () => {
		const baseUrl = await row.wire();

		const { items } = await runNode({
			node: 'photoEnhancer',
			// One task's credits, and n8n's Batching starts the second item a second later.
			parameters: {
				...enhance({ waitForCompletion: false, options: { creditLimit: 10 } }),
				requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 1000 } } },
			},
			credentials: { apiKey: API_KEY, baseUrl },
			items: [{ json: {} }, { json: {} }],
			onError: 'continueRegularOutput',
		});

		const second = (items[1] as INodeExecutionData).json.error;
		if (row.consequence === 'may exist') {
			expect(second).toMatch(/^'Credit Limit' of 10 credits reached/);
		} else {
			expect(second).not.toMatch(/Credit Limit/);
			expect(second).toMatch(row.message.source.includes('[item 0]') ? /\[item 1\]$/ : /./);
		}
	});
});

describe('a create whose error answer names a task', () => {
	test('the task id goes in details.id, and the words say to fetch it', async () => {
		api()
			.post(PE.create)
			.reply(200, envelope('1839201938475628544', 1001, 'queue full'));

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false }),
			onError: 'continueRegularOutput',
		});

		expect(items[0].json).toEqual({
			error:
				'Ideal House answered code 1001, the request was not carried out: "queue full" [item 0]',
			details: {
				id: '1839201938475628544',
				description: expect.stringContaining(
					'Task 1839201938475628544 may have been created and charged: fetch it with the Get Result operation and this ID.',
				),
			},
		});
		const description = String((items[0].json.details as IDataObject).description);
		expect(description).not.toMatch(SEND_AGAIN);
		// Words that say the request was not taken would contradict the task it names.
		expect(description).not.toMatch(/did not take the request|went no further|Nothing was created/);
		expect(creates()).toHaveLength(1);
	});

	test('a redirect that names a task says the task may exist, not that the request went no further', async () => {
		api()
			.post(PE.create)
			.reply(302, envelope('1839201938475628544', 1001, 'moved'), {
				Location: 'https://elsewhere.example/generate',
			});

		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ waitForCompletion: false }),
			onError: 'continueRegularOutput',
		});

		const { error, details } = items[0].json as { error: string; details: IDataObject };
		expect(error).toBe(
			'Ideal House answered with a redirect: HTTP 302 to elsewhere.example [item 0]',
		);
		expect(details.id).toBe('1839201938475628544');
		expect(String(details.description)).toMatch(MAY_EXIST);
		expect(String(details.description)).not.toMatch(/went no further|Nothing was created/);
		expect(creates()).toHaveLength(1);
	});
});

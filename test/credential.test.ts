import nock from 'nock';

import { IdealHouseApi } from '../credentials/IdealHouseApi.credentials';
import { runCredentialTest, runNode } from './helpers/engine';
import {
	API_KEY,
	BASE,
	BIG_ID,
	DONE,
	OR,
	PE,
	api,
	created,
	envelope,
	recorded,
	serveTask,
} from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance, remove } from './helpers/params';
import { answerAnyRequest } from './helpers/refusals';

eachTestOnAFreshWire();

describe('the Ideal House API credential', () => {
	test('declares the fields of the contract', () => {
		const credential = new IdealHouseApi();
		expect(credential.name).toBe('idealHouseApi');
		expect(credential.displayName).toBe('Ideal House API');
		const [apiKey, baseUrl] = credential.properties;
		expect(apiKey).toMatchObject({
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
		});
		expect(baseUrl).toMatchObject({
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.ideal.house',
		});
	});

	test('the test passes for a key the service accepts (any answer but 5002)', async () => {
		api()
			.get(PE.result)
			.query({ taskId: '1' })
			.reply(200, envelope('null', 1001, 'task not found'));

		const result = await runCredentialTest({
			apiKey: 'good-key',
			baseUrl: 'https://api.ideal.house/',
		});

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(recorded).toHaveLength(1);
		expect(recorded[0].headers.apikey).toBe('good-key');
	});

	test('the test fails with a clear message when the service answers 5002', async () => {
		api()
			.get(PE.result)
			.query(true)
			.reply(200, envelope('null', 5002, 'API_KEY_INVALID'));

		const result = await runCredentialTest({
			apiKey: 'wrong-key',
			baseUrl: 'https://api.ideal.house',
		});

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/rejected the API key \(code 5002/);
		expect(result.message).not.toContain('wrong-key');
	});

	test('the test fails before sending anything for a plain-http base URL on another host', async () => {
		const result = await runCredentialTest({
			apiKey: 'secret-key',
			baseUrl: 'http://api.ideal.house',
		});

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/must start with https:\/\//);
		expect(result.message).not.toContain('secret-key');
		expect(recorded).toEqual([]);
	});
});

describe('the credential', () => {
	beforeEach(answerAnyRequest);

	test('refuses to send the key over plain http to another host', async () => {
		const { error, run } = await runNode({
			node: 'objectRemover',
			parameters: remove(),
			credentials: { apiKey: API_KEY, baseUrl: 'http://api.ideal.house' },
		});

		expect(error?.message).toBe("The 'Ideal House API' credential did not send the key [item 0]");
		expect(error?.description).toContain('must start with https://');
		expect(error?.description).toMatch(/Nothing was created or charged/);
		expect(recorded).toEqual([]);
		expect(JSON.stringify(run)).not.toContain(API_KEY);
	});

	const removeOne = {
		operation: 'remove',
		imageUrl: 'https://photos.example.com/room.jpg',
		waitForCompletion: false,
	};

	test.each(['http://127.0.0.1:8787/', 'http://127.0.0.2:8787'])(
		'allows plain http to a local test service on this machine (%s), and sends the key in the APIKEY header',
		async (baseUrl) => {
			nock(new URL(baseUrl).origin)
				.post(OR.create)
				.reply(200, function () {
					expect(this.req.headers.apikey).toBe('local-dev-key');
					return created('3');
				});

			const { items, error } = await runNode({
				node: 'objectRemover',
				parameters: removeOne,
				credentials: { apiKey: 'local-dev-key', baseUrl },
			});

			expect(error).toBeUndefined();
			expect(items[0].json).toEqual({ id: '3', status: 'Unprocessed', creditsCharged: 1 });
		},
	);

	test('refuses plain http to a name under .localhost: the resolver decides where it goes', async () => {
		const { error, run } = await runNode({
			node: 'objectRemover',
			parameters: removeOne,
			credentials: { apiKey: 'local-dev-key', baseUrl: 'http://api.localhost:8787' },
		});

		expect(error?.description).toContain('must start with https://');
		expect(recorded).toEqual([]);
		expect(JSON.stringify(run)).not.toContain('local-dev-key');
	});

	test('works with a base URL written with a trailing slash', async () => {
		const { items } = await runNode({
			node: 'photoEnhancer',
			parameters: { operation: 'getResult', taskId: '1' },
			credentials: { apiKey: API_KEY, baseUrl: `${BASE}/` },
		});

		expect(items[0].json.id).toBe('1');
		expect(recorded[0].path).toBe(PE.result);
	});
});

describe('the base URL as users paste it', () => {
	test.each([
		'  https://api.ideal.house  ',
		'https://api.ideal.house/ \n',
		'\thttps://api.ideal.house//',
	])('%j is used trimmed, for the create and the status checks', async (baseUrl) => {
		serveTask(PE, BIG_ID, DONE);

		const { error, items } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl },
		});

		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(BIG_ID);
		expect(recorded.map((request) => request.path)).toEqual([PE.create, PE.result]);
	});

	test('a base URL that is not an address fails naming the credential field, and sends nothing', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			parameters: enhance(),
			credentials: { apiKey: API_KEY, baseUrl: 'api.ideal.house' },
		});

		expect(`${error?.message} ${error?.description ?? ''}`).toMatch(/Base URL/);
		expect(`${error?.message} ${error?.description ?? ''}`).toMatch(/Ideal House API/);
		expect(recorded).toHaveLength(0);
	});
});

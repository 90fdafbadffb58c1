import nock from 'nock';

import { IdealHouseApi } from '../credentials/IdealHouseApi.credentials';
import { runCredentialTest } from '../dev/harness/engine';
import { PE, api, envelope, recorded, resetWire } from './helpers/api';

beforeEach(resetWire);
afterAll(() => nock.restore());

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

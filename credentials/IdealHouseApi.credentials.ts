import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { isLoopbackHost } from '../nodes/shared/core/addresses';
import { API_KEY_INVALID } from '../nodes/shared/core/api-codes';
import { BASE_URL_EXPRESSION, PUBLIC_BASE_URL } from '../nodes/shared/catalog/service';
import { APIS, resultPath } from '../nodes/shared/catalog/apis';
import { NO_REDIRECTS, secretNotSent } from '../nodes/shared/http/http';

export class IdealHouseApi implements ICredentialType {
	name = 'idealHouseApi';

	displayName = 'Ideal House API';

	icon: Icon = { light: 'file:../icons/idealHouse.svg', dark: 'file:../icons/idealHouse.dark.svg' };

	documentationUrl = 'https://github.com/ideal-house/n8n-nodes-ideal-house#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The API key of your Ideal House account, sent in the APIKEY header',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: PUBLIC_BASE_URL,
			description:
				'Address of the Ideal House API. Must be https, except for a local test service on localhost.',
		},
	];

	/**
	 * Sends the key and refuses to send it in clear text: a plain-http base URL is accepted only
	 * for a service on this machine.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		let target: URL | undefined;
		try {
			target = new URL(requestOptions.url, requestOptions.baseURL || undefined);
		} catch {
			target = undefined;
		}
		if (
			!target ||
			(target.protocol !== 'https:' &&
				!(target.protocol === 'http:' && isLoopbackHost(target.hostname)))
		) {
			throw secretNotSent(
				'The Ideal House base URL must start with https:// (plain http only on this machine: localhost, 127.x.x.x or [::1]): the API key must not travel unencrypted. Fix the Base URL in the "Ideal House API" credential.',
			);
		}
		// The key goes to this address only: a redirect is not followed, wherever it points.
		return {
			...requestOptions,
			...NO_REDIRECTS,
			headers: { ...requestOptions.headers, APIKEY: String(credentials.apiKey ?? '') },
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: BASE_URL_EXPRESSION,
			url: resultPath(APIS.photoEnhancer),
			qs: { taskId: '1' },
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: API_KEY_INVALID,
					message: `Ideal House rejected the API key (code ${API_KEY_INVALID} API_KEY_INVALID). Copy the key again from your Ideal House account.`,
				},
			},
		],
	};
}

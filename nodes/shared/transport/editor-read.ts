import type { ILoadOptionsFunctions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { finalAdvice, IdealHouseApiError } from '../core/errors';
import { CREDENTIAL_NAME, secretsOfCredentials, serviceBaseUrl } from '../catalog/service';
import { guardedRequest } from '../http/http';
import { failureText } from '../http/network';
import { bodyText } from '../http/responses';
import { readEnvelope } from './answers';
import { RAW_RESPONSE, sendWithKey } from './send';

/**
 * An option list the editor loads, under every request's rules (no redirects, a time limit, the key
 * cleared); with no item or execution there, no request budget and no Stop.
 */
export async function editorRead(
	ctx: ILoadOptionsFunctions,
	path: string,
	what: string,
	timeoutMs: number,
): Promise<unknown> {
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	const secrets = secretsOfCredentials(credentials);
	const request = guardedRequest(
		{
			method: 'GET',
			url: `${serviceBaseUrl(credentials.baseUrl)}${path}`,
			headers: { Accept: 'application/json' },
			...RAW_RESPONSE,
		},
		{ timeoutMs },
	);
	let response: IN8nHttpFullResponse;
	try {
		response = await sendWithKey(ctx, request);
	} catch (error) {
		// The failure's own words go in the description: n8n replaces a message naming a system code.
		throw new NodeOperationError(ctx.getNode(), `Could not load ${what} from Ideal House`, {
			description: `It ended with: ${failureText(error, secrets)}. Check the credential, or type an ID using an expression instead.`,
		});
	}
	try {
		return readEnvelope.call(ctx, { ...response, body: bodyText(response.body) }, secrets);
	} catch (error) {
		// A read: what to do, running it again included, always stands.
		throw error instanceof IdealHouseApiError ? finalAdvice(error, 'read') : error;
	}
}

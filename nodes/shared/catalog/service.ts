import type { ICredentialDataDecryptedObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { secretsOfItem } from '../core/redact';

// What every request shares: the credential, its base URL and key, the image source, the statuses.
export const CREDENTIAL_NAME = 'idealHouseApi';

/** The credential's key, to clear from everything the service or the network says. */
export function secretsOfCredentials(credentials: ICredentialDataDecryptedObject): string[] {
	return typeof credentials.apiKey === 'string' && credentials.apiKey !== ''
		? [credentials.apiKey]
		: [];
}

/** The key, and what the item made that must stay as secret (its links' tokens). */
export async function secretsOf(ctx: IExecuteSingleFunctions): Promise<string[]> {
	let key: string[] = [];
	try {
		key = secretsOfCredentials(await ctx.getCredentials(CREDENTIAL_NAME));
	} catch {
		// No credential to read: there is no key to clear.
	}
	return [...key, ...secretsOfItem(ctx)];
}

/** Image Source's values, which saved workflows hold: a URL, or a file n8n links the service to. */
export const IMAGE_SOURCE = { url: 'url', binary: 'binary' } as const;

/** The public service: the credential's default base URL. */
export const PUBLIC_BASE_URL = 'https://api.ideal.house';

// The credential's base URL without spaces around it (pasted ones often have some) or trailing
// slashes. Twice: an n8n expression for routed requests, and code for the node's own.
export const BASE_URL_EXPRESSION =
	'={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "") }}';

export function serviceBaseUrl(configured: unknown): string {
	return String(configured ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** The statuses on which a client stops polling. */
export const TERMINAL_STATUSES: readonly string[] = ['Success', 'Failed'];

/** Every status the specification lists; any other is unexpected. */
export const KNOWN_STATUSES: readonly string[] = ['Unprocessed', 'Processing', 'Success', 'Failed'];

import type { ICredentialDataDecryptedObject, IExecuteSingleFunctions } from 'n8n-workflow';

/**
 * What every request of the package shares: the credential, its base URL and its key, where a
 * photo comes from, the task statuses.
 */
export const CREDENTIAL_NAME = 'idealHouseApi';

/** The credential's key, to clear from everything the service or the network says. */
export function secretsOfCredentials(credentials: ICredentialDataDecryptedObject): string[] {
	return typeof credentials.apiKey === 'string' && credentials.apiKey !== ''
		? [credentials.apiKey]
		: [];
}

export async function secretsOf(ctx: IExecuteSingleFunctions): Promise<string[]> {
	try {
		return secretsOfCredentials(await ctx.getCredentials(CREDENTIAL_NAME));
	} catch {
		return [];
	}
}

/**
 * Image Source's values, which saved workflows hold: the photo is at a URL the service fetches, or
 * a file on the item that the service gets a link to (see Photo Link).
 */
export const IMAGE_SOURCE = { url: 'url', binary: 'binary' } as const;

/**
 * How the service gets a photo that is a file: n8n's own signed link to it, or a presigned link
 * into the user's bucket (contract: `photoLink`).
 */
export const PHOTO_LINK = { n8n: 'n8n', bucket: 'bucket' } as const;
export type PhotoLinkKind = (typeof PHOTO_LINK)[keyof typeof PHOTO_LINK];

/**
 * The node version that adds Photo Link with n8n's own link as its default; version 1 keeps the
 * bucket, so that a workflow saved before does what it did.
 */
export const PHOTO_LINK_VERSION = 1.1;

/** The public service: the credential's default base URL. */
export const PUBLIC_BASE_URL = 'https://api.ideal.house';

/**
 * The credential's base URL without surrounding spaces (a pasted address often has some) or
 * trailing slashes, so that paths join with one. Written twice: as an n8n expression for routed
 * requests, and as code for the node's own.
 */
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

/**
 * What every request of the package shares: the credential, its base URL, where a photo comes
 * from, the task statuses.
 */
export const CREDENTIAL_NAME = 'idealHouseApi';

/**
 * Image Source's values, which saved workflows hold: the photo is at a URL the service fetches, or
 * a file on the item that is uploaded to the user's own storage first.
 */
export const IMAGE_SOURCE = { url: 'url', binary: 'binary' } as const;

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

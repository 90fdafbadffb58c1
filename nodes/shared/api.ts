/** The service's endpoints and prices, per the Ideal House API v1 specification. */
export type TaskKind = 'photoEnhancer' | 'objectRemover';

export interface KindInfo {
	/** Name users see in messages. */
	label: string;
	createPath: string;
	resultPath: string;
	/** Credits deducted on creation (refunded when the task ends Failed). */
	credits: number;
}

export const KINDS: Record<TaskKind, KindInfo> = {
	photoEnhancer: {
		label: 'Photo Enhancer',
		createPath: '/api/v1/photoEnhancer/generate',
		resultPath: '/api/v1/photoEnhancer/result',
		credits: 10,
	},
	objectRemover: {
		label: 'Object Remover',
		createPath: '/api/v1/objectRemover/generate',
		resultPath: '/api/v1/objectRemover/result',
		credits: 1,
	},
};

export const CREDENTIAL_NAME = 'idealHouseApi';

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

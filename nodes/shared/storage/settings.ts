import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { isLoopbackHost } from '../basics/addresses';
import { encodeKeyPath, type SigningKeys } from './sigv4';

/** The credential of the bucket that photo files go through (contract: "Photos that are files"). */
export const STORAGE_CREDENTIAL_NAME = 'idealHouseStorageApi';
export const STORAGE_CREDENTIAL_LABEL = 'Ideal House Upload Storage (S3-compatible)';

/**
 * Every object the nodes write lives under this prefix, so that an IAM policy and a lifecycle
 * rule can be limited to it (see the README).
 */
export const UPLOAD_PREFIX = 'ideal-house-uploads/';

export interface StorageSettings extends SigningKeys {
	/** The endpoint as configured, without trailing slashes. */
	endpoint: URL;
	bucket: string;
	forcePathStyle: boolean;
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/** 3–63 letters, digits, dots, hyphens or underscores: what S3, R2, B2 and MinIO accept between them. */
const BUCKET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/;

/** The credential's settings, or what is wrong with them and where to fix it. */
export function storageSettings(
	credentials: ICredentialDataDecryptedObject,
): StorageSettings | string {
	const fix = `Fix it in the "${STORAGE_CREDENTIAL_LABEL}" credential.`;
	let endpoint: URL;
	try {
		endpoint = new URL(text(credentials.endpoint));
	} catch {
		return `The storage endpoint is not a URL (e.g. https://s3.eu-west-1.amazonaws.com). ${fix}`;
	}
	if (
		endpoint.protocol !== 'https:' &&
		!(endpoint.protocol === 'http:' && isLoopbackHost(endpoint.hostname))
	) {
		return `The storage endpoint must start with https:// (plain http only on this machine): photos and signed requests must not travel unencrypted. ${fix}`;
	}
	if (endpoint.search || endpoint.hash || endpoint.username || endpoint.password) {
		return `The storage endpoint must be a plain address, without query, fragment or user name. ${fix}`;
	}
	endpoint.pathname = endpoint.pathname.replace(/\/+$/, '');
	const bucket = text(credentials.bucket);
	if (!BUCKET_NAME.test(bucket)) {
		return `The bucket name ${JSON.stringify(bucket)} is not a valid bucket name (3–63 letters, digits, dots, hyphens or underscores). ${fix}`;
	}
	const accessKeyId = text(credentials.accessKeyId);
	const secretAccessKey =
		typeof credentials.secretAccessKey === 'string' ? credentials.secretAccessKey : '';
	if (accessKeyId === '' || secretAccessKey === '') {
		return `The access key ID and the secret access key are required. ${fix}`;
	}
	return {
		endpoint,
		bucket,
		accessKeyId,
		secretAccessKey,
		region: text(credentials.region) || 'us-east-1',
		forcePathStyle: credentials.forcePathStyle === true,
	};
}

/** The bucket's address: `<endpoint>/<bucket>` (path style) or `<bucket>.<endpoint host>`. */
export function bucketUrl(settings: StorageSettings): string {
	const { endpoint, bucket } = settings;
	const path = endpoint.pathname === '/' ? '' : endpoint.pathname;
	return settings.forcePathStyle
		? `${endpoint.origin}${path}/${bucket}`
		: `${endpoint.protocol}//${bucket}.${endpoint.host}${path}`;
}

export function objectUrl(settings: StorageSettings, key: string): string {
	return `${bucketUrl(settings)}/${encodeKeyPath(key)}`;
}

/** How messages name the storage: the bucket and the host, never a key. */
export function storageName(settings: StorageSettings): string {
	return `bucket "${settings.bucket}" at ${settings.endpoint.host}`;
}

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { isIpAddress, isLoopbackHost } from '../basics/addresses';
import { bucketNameProblem } from './bucket-names';
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
	/** Force Path Style as set. */
	forcePathStyle: boolean;
	/**
	 * How the bucket is addressed: Force Path Style, an endpoint at an IP address or `localhost`,
	 * or a bucket name with a dot over https.
	 */
	pathStyle: boolean;
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/** AWS's regions, R2's `auto`, and the names self-hosted stores give theirs (`garage`, `home_1`). */
const REGION = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `bucket.127.0.0.1` or `bucket.localhost` names no host: AWS's SDKs and MinIO's client address
 * such endpoints path style by themselves, and so does the node.
 */
function pathStyleOnly(endpoint: URL): boolean {
	return isIpAddress(endpoint.hostname) || endpoint.hostname.replace(/\.$/, '') === 'localhost';
}

/**
 * `listing.photos.eu.s3.eu-west-1.amazonaws.com` is covered by no certificate: a wildcard
 * (`*.s3.eu-west-1.amazonaws.com`) stands for one label only. AWS's SDKs address such a bucket
 * path style over https, and so does the node; plain http has no certificate to match.
 */
function dottedOverHttps(endpoint: URL, bucket: string): boolean {
	return endpoint.protocol === 'https:' && bucket.includes('.');
}

/**
 * The credential's settings, or what is wrong with them and where to fix it. No message quotes a
 * value as it was typed: a secret pasted into the wrong field must not come back in it.
 */
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
	const forcePathStyle = credentials.forcePathStyle === true;
	// Upper case and underscores stay refused for a dotted name sent path style by itself: S3
	// refuses them, and only a store the user has set up for path style takes them.
	const relaxedNames = forcePathStyle || pathStyleOnly(endpoint);
	const bucket = text(credentials.bucket);
	const bucketProblem = bucketNameProblem(bucket, relaxedNames);
	if (bucketProblem) {
		return `Bucket is not a valid bucket name: ${bucketProblem}. ${fix}`;
	}
	const region = text(credentials.region) || 'us-east-1';
	if (!REGION.test(region)) {
		return `Region may hold only letters, digits, hyphens and underscores, at most 64 (e.g. eu-west-1, or auto for Cloudflare R2). ${fix}`;
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
		region,
		forcePathStyle,
		pathStyle: relaxedNames || dottedOverHttps(endpoint, bucket),
	};
}

/** The bucket's address: `<endpoint>/<bucket>` (path style) or `<bucket>.<endpoint host>`. */
export function bucketUrl(settings: StorageSettings): string {
	const { endpoint, bucket } = settings;
	const path = endpoint.pathname === '/' ? '' : endpoint.pathname;
	return settings.pathStyle
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

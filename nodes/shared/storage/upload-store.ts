import { randomBytes } from 'crypto';

import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { IdealHouseItemError } from '../basics/errors';
import {
	STORAGE_CREDENTIAL_LABEL,
	STORAGE_CREDENTIAL_NAME,
	UPLOAD_PREFIX,
	objectUrl,
	storageSettings,
	type StorageSettings,
} from './settings';
import { presignedUrl } from './sigv4';
import { deleteObject, putObject, type ObjectBody } from './storage-requests';

/**
 * Where a photo file goes so that the service, which takes photos by URL only, can fetch it: the
 * user's own store, written with its own credential, read by the service through a link that
 * expires. The item's path sees only this seam; S3 with Signature Version 4 (any S3-compatible
 * store) is its one implementation today.
 */
export interface UploadStore {
	/** The bucket, as an item that keeps its uploads names it. */
	readonly bucket: string;
	/** Writes one object; a passing fault is retried, and Stop ends it at once. */
	put(
		ctx: IExecuteSingleFunctions,
		key: string,
		file: ObjectBody,
		stop: AbortSignal,
	): Promise<void>;
	/** A read link to the object that lasts `seconds` from `now`; signs, sends nothing. */
	link(key: string, seconds: number, now: Date): string;
	/** Deletes one object; its errors carry no secret. */
	remove(ctx: IExecuteSingleFunctions, key: string): Promise<void>;
}

/** The longest a link may last: S3's limit for Signature Version 4. */
export { MAX_PRESIGN_SECONDS as MAX_LINK_SECONDS } from './sigv4';

/** Random and unguessable: the link is the only way to the object besides the key's own owner. */
export function newUploadKey(extension: string): string {
	return `${UPLOAD_PREFIX}${randomBytes(16).toString('hex')}.${extension}`;
}

function storageItemError(
	ctx: IExecuteSingleFunctions,
	message: string,
	description?: string,
): IdealHouseItemError {
	return new IdealHouseItemError(
		ctx.getNode(),
		`${message} [item ${ctx.getItemIndex()}]`,
		{ itemIndex: ctx.getItemIndex(), description },
		{ kind: 'neverSent' },
	);
}

/** The item's upload store, from the node's storage credential; what is wrong with it, named. */
export async function uploadStoreOf(ctx: IExecuteSingleFunctions): Promise<UploadStore> {
	let credentials;
	try {
		credentials = await ctx.getCredentials(STORAGE_CREDENTIAL_NAME);
	} catch {
		throw storageItemError(
			ctx,
			`Image Source is "Binary File", which needs an "${STORAGE_CREDENTIAL_LABEL}" credential`,
			'Choose or create one in the node: the photo goes to your own bucket, and Ideal House gets a short-lived link to it. See "Photos that are files" in the README.',
		);
	}
	const settings = storageSettings(credentials);
	if (typeof settings === 'string') throw storageItemError(ctx, settings);
	return s3Store(settings);
}

function s3Store(settings: StorageSettings): UploadStore {
	return {
		bucket: settings.bucket,
		put: async (ctx, key, file, stop) => await putObject(ctx, settings, key, file, stop),
		link: (key, seconds, now) =>
			presignedUrl(
				{ method: 'GET', url: objectUrl(settings, key), expiresSeconds: seconds },
				settings,
				now,
			),
		// Not tied to Stop: a stopped item's object is deleted too.
		remove: async (ctx, key) =>
			await deleteObject(ctx, settings, key, new AbortController().signal),
	};
}

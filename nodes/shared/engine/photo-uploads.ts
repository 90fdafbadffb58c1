import { randomBytes } from 'crypto';

import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { executionStopSignal } from '../basics/cancellation';
import { IMAGE_SOURCE } from '../catalog/api';
import { IdealHouseItemError, toIdealHouseError } from '../basics/errors';
import type { ItemSettings } from './item-settings';
import { redact } from '../basics/redact';
import { fieldError } from '../basics/validation';
import { readPhotoFiles, type PhotoFile } from '../storage/photo-files';
import {
	STORAGE_CREDENTIAL_LABEL,
	STORAGE_CREDENTIAL_NAME,
	UPLOAD_PREFIX,
	objectUrl,
	storageSettings,
	type StorageSettings,
} from '../storage/settings';
import { MAX_PRESIGN_SECONDS, presignedUrl } from '../storage/sigv4';
import { deleteObject, putObject, uploadStopped } from '../storage/storage-requests';

/**
 * Photos that are files: the service takes photos by URL only, so a file on the item goes to the
 * user's own bucket first and the service gets a presigned GET link to it. The object is deleted
 * once the item has ended, however it ended, unless the user keeps uploads or does not wait (then
 * the service may still have to fetch it, and the item says where it is and until when).
 */

/** How an operation takes its photos: the Photo Enhancer sends several files as one list (HDR brackets). */
export interface PhotoFileRule {
	several: boolean;
}

/** On top of the node's Timeout: the create, its retries and the service's own download. */
const LINK_MARGIN_SECONDS = 300;
const MIN_LINK_SECONDS = 300;

interface Upload {
	file: PhotoFile;
	key: string;
	link: string;
}

function propertyNames(ctx: IExecuteSingleFunctions, rule: PhotoFileRule): string[] {
	const value = ctx.getNodeParameter('imageBinaryProperty', 'data');
	const names = (typeof value === 'string' ? value : '')
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	if (names.length === 0) {
		throw fieldError(
			ctx,
			'Image Binary Property',
			'is empty',
			'Name the binary property that holds the photo (e.g. data).',
		);
	}
	if (names.length > 1 && !rule.several) {
		throw fieldError(
			ctx,
			'Image Binary Property',
			`names ${names.length} properties, but this API takes one photo per task`,
			'Give one property name.',
		);
	}
	return names;
}

function storageItemError(
	ctx: IExecuteSingleFunctions,
	message: string,
	description?: string,
): IdealHouseItemError {
	return new IdealHouseItemError(ctx.getNode(), `${message} [item ${ctx.getItemIndex()}]`, {
		itemIndex: ctx.getItemIndex(),
		description,
	});
}

async function settingsOf(ctx: IExecuteSingleFunctions): Promise<StorageSettings> {
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
	return settings;
}

/** Long enough for the wait the node may make, within what S3 allows. */
function linkSeconds(item: ItemSettings): number {
	return Math.min(
		MAX_PRESIGN_SECONDS,
		Math.max(MIN_LINK_SECONDS, Math.ceil(item.wait.timeout) + LINK_MARGIN_SECONDS),
	);
}

/** Random and unguessable: the link is the only way to the object besides the key's own owner. */
function newKey(file: PhotoFile): string {
	return `${UPLOAD_PREFIX}${randomBytes(16).toString('hex')}.${file.type.extension}`;
}

export class PhotoUploads {
	/** Keys whose PUT was sent: these, and only these, are deleted. */
	private readonly sent: string[] = [];

	private constructor(
		private readonly settings: StorageSettings,
		private readonly uploads: Upload[],
		private readonly expiresAt: string,
	) {}

	/**
	 * With Image Source = Binary File: checks the item's files and signs their links, and puts the
	 * links in the body as `imageUrl` (a list when the operation takes several and several are
	 * named). Sends nothing, so that a bad field anywhere in the item still costs no request.
	 */
	static async prepare(
		ctx: IExecuteSingleFunctions,
		body: IDataObject,
		rule: PhotoFileRule,
		item: ItemSettings,
	): Promise<PhotoUploads | undefined> {
		if (ctx.getNodeParameter('imageSource', IMAGE_SOURCE.url) !== IMAGE_SOURCE.binary) {
			return undefined;
		}
		const files = await readPhotoFiles(ctx, propertyNames(ctx, rule));
		const settings = await settingsOf(ctx);
		const seconds = linkSeconds(item);
		const now = new Date();
		const uploads = files.map((file) => {
			const key = newKey(file);
			const link = presignedUrl(
				{ method: 'GET', url: objectUrl(settings, key), expiresSeconds: seconds },
				settings,
				now,
			);
			return { file, key, link };
		});
		const links = uploads.map(({ link }) => link);
		body.imageUrl = rule.several && links.length > 1 ? links : links[0];
		return new PhotoUploads(
			settings,
			uploads,
			new Date(now.getTime() + seconds * 1000).toISOString(),
		);
	}

	/** PUTs every file, one at a time; on any failure, what was uploaded is deleted and nothing is created. */
	async upload(ctx: IExecuteSingleFunctions): Promise<void> {
		const stop = executionStopSignal(ctx);
		for (const { file, key } of this.uploads) {
			this.sent.push(key);
			try {
				if (stop.aborted) throw uploadStopped(ctx);
				await putObject(ctx, this.settings, key, file, stop);
			} catch (error) {
				const failure = toIdealHouseError(ctx, error);
				// Stop ends the item now; the clean-up finishes on its own.
				if (failure.stopped) void this.remove(ctx);
				else await this.remove(ctx);
				throw failure;
			}
		}
	}

	/**
	 * Runs the item's create and wait, then ends the uploads: deleted, or kept (Keep Uploads, or no
	 * waiting) with where they are on the item. A failed delete never fails a paid item: it becomes
	 * a warning on it.
	 */
	async around(
		ctx: IExecuteSingleFunctions,
		item: ItemSettings,
		work: () => Promise<INodeExecutionData[]>,
	): Promise<INodeExecutionData[]> {
		const keep = item.keepUploads;
		let items: INodeExecutionData[];
		try {
			items = await work();
		} catch (error) {
			const failure = toIdealHouseError(ctx, error);
			if (keep) throw failure;
			if (failure.stopped) {
				void this.remove(ctx);
				throw failure;
			}
			const problem = await this.remove(ctx);
			if (problem) failure.description = `${failure.description ?? ''} ${problem}`.trim();
			throw failure;
		}
		if (!item.waitForCompletion || keep) {
			return items.map((item) => ({ ...item, json: { ...item.json, upload: this.record() } }));
		}
		const problem = await this.remove(ctx);
		if (!problem) return items;
		return items.map((item) => ({
			...item,
			json: {
				...item.json,
				warnings: [...(Array.isArray(item.json.warnings) ? item.json.warnings : []), problem],
			},
		}));
	}

	/** Where the kept objects are, and until when the service's links work. */
	private record(): IDataObject {
		return {
			bucket: this.settings.bucket,
			keys: this.uploads.map(({ key }) => key),
			expiresAt: this.expiresAt,
		};
	}

	/**
	 * Deletes what was uploaded; never throws. Not tied to Stop: a stopped item's object is
	 * deleted too. Returns what went wrong, to be told on the item.
	 */
	private async remove(ctx: IExecuteSingleFunctions): Promise<string | undefined> {
		const failures: string[] = [];
		const keys = this.sent.splice(0);
		for (const key of keys) {
			try {
				await deleteObject(ctx, this.settings, key, new AbortController().signal);
			} catch (error) {
				const reason = redact(
					(error as Error).message ?? String(error),
					[this.settings.secretAccessKey],
					300,
				);
				failures.push(`${key} (${reason})`);
			}
		}
		if (failures.length === 0) return undefined;
		const problem = `The uploaded photo could not be deleted from the upload storage: ${failures.join('; ')}. It stays there until the bucket's lifecycle rule for ${UPLOAD_PREFIX} removes it.`;
		ctx.logger.warn(`Item ${ctx.getItemIndex()}: ${problem}`);
		return problem;
	}
}

import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { executionStopSignal } from '../basics/cancellation';
import { toIdealHouseError, type IdealHouseError } from '../basics/errors';
import { readPhotoFiles, type PhotoFile } from '../storage/photo-files';
import { UPLOAD_PREFIX } from '../storage/settings';
import { uploadStopped } from '../storage/storage-requests';
import {
	MAX_LINK_SECONDS,
	newUploadKey,
	uploadStoreOf,
	type UploadStore,
} from '../storage/upload-store';
import type { IdealHouseApi } from '../catalog/catalog';
import type { ItemSettings, PhotoFileRule, PhotoSource } from './settings';

/**
 * Photos that are files: the service takes photos by URL only, so a file on the item goes to the
 * user's own store (`UploadStore`) and the service gets a link to it. Three moments of the item's
 * path: `checkPhotoFiles` reads the files and signs their links, sending nothing; `upload` puts
 * them, once the item's turn has come; `cleanUp` deletes them once the item has ended, or keeps
 * them where the task may still need them.
 */

/**
 * How long the service's link lasts. While the node waits, the Timeout plus this margin (the
 * create, its retries, the service's own download): the object is deleted when the wait ends.
 */
const LINK_MARGIN_SECONDS = 300;
const MIN_LINK_SECONDS = 300;
/**
 * A task the node may leave unfinished (Wait for Completion off, or On Timeout = Output the Last
 * Status) can wait in the service's queue long after the node is done: its link lasts a day, as
 * long as the lifecycle rule the README recommends keeps the object.
 */
export const UNFINISHED_LINK_SECONDS = 24 * 60 * 60;

function linkSeconds(item: ItemSettings): number {
	if (!item.waitForCompletion || item.wait.onTimeout === 'returnLastStatus') {
		return UNFINISHED_LINK_SECONDS;
	}
	return Math.min(
		MAX_LINK_SECONDS,
		Math.max(MIN_LINK_SECONDS, Math.ceil(item.wait.timeout) + LINK_MARGIN_SECONDS),
	);
}

interface Upload {
	file: PhotoFile;
	key: string;
}

export class PhotoFiles {
	/** Keys whose PUT was sent: these, and only these, are deleted. */
	private readonly sent: string[] = [];
	/** Kept once the item ends: Keep Uploaded Photos, or a task the node left unfinished. */
	private keep: boolean;

	private constructor(
		private readonly store: UploadStore,
		private readonly uploads: Upload[],
		private readonly expiresAt: string,
		keepUploads: boolean,
	) {
		this.keep = keepUploads;
	}

	/**
	 * With Image Source = Binary File: checks the item's files and signs their links, and puts the
	 * links in the body as `imageUrl` (a list when the operation takes several and several are
	 * named). Sends nothing, so that a bad field anywhere in the item still costs no request, and
	 * Preview shows the link the service would get.
	 */
	static async check(
		ctx: IExecuteSingleFunctions,
		api: IdealHouseApi,
		rule: PhotoFileRule,
		item: ItemSettings,
		body: IDataObject,
	): Promise<PhotoFiles | undefined> {
		const source: PhotoSource = item.photoSource;
		if (source.kind !== 'binary') return undefined;
		const files = await readPhotoFiles(ctx, source.properties, api);
		const store = await uploadStoreOf(ctx);
		const seconds = linkSeconds(item);
		const now = new Date();
		const uploads = files.map((file) => ({ file, key: newUploadKey(file.type.extension) }));
		const links = uploads.map(({ key }) => store.link(key, seconds, now));
		body.imageUrl = rule.several && links.length > 1 ? links : links[0];
		const expiresAt = new Date(now.getTime() + seconds * 1000).toISOString();
		return new PhotoFiles(store, uploads, expiresAt, item.keepUploads);
	}

	/** The checked files, for a body check that compares an image with them (a mask). */
	get files(): PhotoFile[] {
		return this.uploads.map(({ file }) => file);
	}

	/** PUTs every file, one at a time; on any failure, what was uploaded is deleted. */
	async upload(ctx: IExecuteSingleFunctions): Promise<void> {
		const stop = executionStopSignal(ctx);
		for (const { file, key } of this.uploads) {
			this.sent.push(key);
			try {
				if (stop.aborted) throw uploadStopped(ctx);
				await this.store.put(ctx, key, file, stop);
			} catch (error) {
				// Nothing was created: what went up goes, whatever Keep Uploaded Photos says.
				const failure = toIdealHouseError(ctx, error);
				this.keep = false;
				await this.cleanUp(ctx, { failure });
				throw failure;
			}
		}
	}

	/** The task may still fetch its photo after the item ends: it is kept, and the item says where. */
	keepForUnfinishedTask(): void {
		this.keep = true;
	}

	/**
	 * The item has ended: its objects are deleted, or kept (the item then says where they are).
	 * A failed delete never fails a paid item: it becomes a warning on it, or a line of its error.
	 * After Stop the item ends at once and the deletes finish on their own.
	 */
	async cleanUp(
		ctx: IExecuteSingleFunctions,
		ended: { items?: INodeExecutionData[]; failure?: IdealHouseError },
	): Promise<void> {
		const { items, failure } = ended;
		if (this.keep) {
			for (const item of items ?? []) item.json.upload = this.record();
			return;
		}
		if (failure?.stopped) {
			void this.remove(ctx);
			return;
		}
		const problem = await this.remove(ctx);
		if (!problem) return;
		if (failure) failure.description = `${failure.description ?? ''} ${problem}`.trim();
		for (const item of items ?? []) {
			const warnings = Array.isArray(item.json.warnings) ? item.json.warnings : [];
			item.json.warnings = [...warnings, problem];
		}
	}

	/** Where the kept objects are, and until when the service's links work. */
	private record(): IDataObject {
		return {
			bucket: this.store.bucket,
			keys: this.uploads.map(({ key }) => key),
			expiresAt: this.expiresAt,
		};
	}

	/** Deletes what was uploaded; never throws. Returns what went wrong, to be told on the item. */
	private async remove(ctx: IExecuteSingleFunctions): Promise<string | undefined> {
		const failures: string[] = [];
		for (const key of this.sent.splice(0)) {
			try {
				await this.store.remove(ctx, key);
			} catch (error) {
				failures.push(`${key} (${(error as Error).message ?? String(error)})`);
			}
		}
		if (failures.length === 0) return undefined;
		const problem = `The uploaded photo could not be deleted from the upload storage: ${failures.join('; ')}. It stays there until the bucket's lifecycle rule for ${UPLOAD_PREFIX} removes it.`;
		ctx.logger.warn(`Item ${ctx.getItemIndex()}: ${problem}`);
		return problem;
	}
}

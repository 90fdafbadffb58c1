import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { executionStopSignal } from '../basics/cancellation';
import { toIdealHouseError, type IdealHouseError } from '../basics/errors';
import type { PhotoFile } from './photo-files';
import type { LinkLifetime, PhotoLinks } from './photo-links';
import { UPLOAD_PREFIX } from './settings';
import { uploadStopped } from './storage-requests';
import { newUploadKey, uploadStoreOf, type UploadStore } from './upload-store';

/**
 * Photo Link = Your Bucket: each file is PUT into the user's own store (`UploadStore`) once the
 * item's turn has come, and the service gets a presigned GET link to it, signed then: its lifetime
 * counts from the create, however long the item waited for its turn. Preview shows one signed at
 * the check. The objects are deleted once the item has ended, or kept where the task may still
 * need them.
 */

interface Upload {
	file: PhotoFile;
	key: string;
}

/** The item's photos on their way through the bucket; the store's credential is read here. */
export async function bucketLinks(
	ctx: IExecuteSingleFunctions,
	files: PhotoFile[],
	lifetime: LinkLifetime,
	keepUploads: boolean,
): Promise<PhotoLinks> {
	const store = await uploadStoreOf(ctx);
	const uploads = files.map((file) => ({ file, key: newUploadKey(file.type.extension) }));
	return new BucketLinks(store, uploads, lifetime.seconds, keepUploads);
}

class BucketLinks implements PhotoLinks {
	/** Keys whose PUT was sent: these, and only these, are deleted. */
	private readonly sent: string[] = [];
	/** Kept once the item ends: Keep Uploaded Photos, or a task the node left unfinished. */
	private keep: boolean;
	readonly files: PhotoFile[];
	readonly planned: string[];
	/** Until when the links sent work. */
	private expiresAt = '';

	constructor(
		private readonly store: UploadStore,
		private readonly uploads: Upload[],
		private readonly seconds: number,
		keepUploads: boolean,
	) {
		this.keep = keepUploads;
		this.files = uploads.map(({ file }) => file);
		this.planned = this.signed(new Date());
	}

	private signed(now: Date): string[] {
		return this.uploads.map(({ key }) => this.store.link(key, this.seconds, now));
	}

	/**
	 * PUTs every file, one at a time. On any failure nothing is created, so what went up is
	 * deleted by the item's clean-up, whatever Keep Uploaded Photos says.
	 */
	async publish(ctx: IExecuteSingleFunctions): Promise<string[]> {
		const stop = executionStopSignal(ctx);
		for (const { file, key } of this.uploads) {
			this.sent.push(key);
			try {
				if (stop.aborted) throw uploadStopped(ctx);
				await this.store.put(ctx, key, file, stop);
			} catch (error) {
				this.keep = false;
				throw toIdealHouseError(ctx, error);
			}
		}
		// The wall clock, as the store checks signatures by it.
		const now = new Date();
		this.expiresAt = new Date(now.getTime() + this.seconds * 1000).toISOString();
		return this.signed(now);
	}

	keepForUnfinishedTask(): void {
		this.keep = true;
	}

	/**
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
		if (failure?.outcome.stopped) {
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

	/** The service's own words say which link it could not fetch; the bucket adds nothing. */
	explainRefusal(): void {}

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

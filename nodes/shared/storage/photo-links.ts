import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import type { IdealHouseError } from '../basics/errors';
import type { PhotoFile } from './photo-files';

/**
 * How a photo that is a file reaches the service, which takes photos by URL only: a link to it.
 * Two ways behind this one seam, chosen by the item's Photo Link: n8n's own signed link
 * (`n8n-links.ts`) or a presigned link into the user's bucket (`bucket-links.ts`). The item's path
 * sees only this: links planned before anything is sent, made ready in the item's turn, and
 * accounted for once the item has ended.
 */
export interface PhotoLinks {
	/** The checked files, in order: for a body check that compares an image with them (a mask). */
	readonly files: PhotoFile[];
	/**
	 * The links as the body check and Preview see them, before anything leaves n8n: the real ones
	 * where they can be signed at once (the bucket's), else their shape without a key.
	 */
	readonly planned: string[];
	/**
	 * In the item's turn, right before the create: whatever the service needs to fetch the photos
	 * (the bucket's upload), then the links to send, in the order of the files. A failure sends no
	 * create, and whatever went up is removed by `cleanUp`, whatever Keep Uploaded Photos says.
	 */
	publish(ctx: IExecuteSingleFunctions): Promise<string[]>;
	/** The task may still fetch its photos after the item ends: they stay, and the item says so. */
	keepForUnfinishedTask(): void;
	/**
	 * The item has ended: what was put anywhere is removed, or kept for a task left running (the
	 * returned items, or the error, then say until when). Never throws.
	 */
	cleanUp(
		ctx: IExecuteSingleFunctions,
		ended: { items?: INodeExecutionData[]; failure?: IdealHouseError },
	): Promise<void>;
	/** A create the service refused because it could not fetch a photo: what to check, for this way. */
	explainRefusal(failure: IdealHouseError): void;
}

/** How long the service's links must work, by the item's settings. */
export interface LinkLifetime {
	seconds: number;
	/** The node may leave the task unfinished, so the service may fetch the photo after the item ends. */
	mayOutliveItem: boolean;
}

/** The body's `imageUrl` for these links: a list where the API takes several and several are given. */
export function imageUrlOf(links: string[], several: boolean): string | string[] {
	return several && links.length > 1 ? links : links[0];
}

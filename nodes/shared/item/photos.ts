import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { PHOTO_LINK } from '../catalog/api';
import type { IdealHouseApi } from '../catalog/catalog';
import { bucketLinks } from '../storage/bucket-links';
import { n8nLinks } from '../storage/n8n-links';
import { readPhotoFiles } from '../storage/photo-files';
import type { LinkLifetime, PhotoLinks } from '../storage/photo-links';
import { MAX_LINK_SECONDS } from '../storage/upload-store';
import type { ItemSettings } from './settings';

/**
 * Photos that are files: the service takes photos by URL only, so it gets a link to each file,
 * n8n's own or the user's bucket's, as the item's Photo Link says (`PhotoLinks`). Here the files
 * are read and checked and the way to link them chosen; nothing is sent.
 */

/**
 * How long the service's link lasts. While the node waits, the Timeout plus this margin (the
 * create, its retries, the service's own download): the wait's end is the link's end.
 */
const LINK_MARGIN_SECONDS = 300;
const MIN_LINK_SECONDS = 300;
/**
 * A task the node may leave unfinished (Wait for Completion off, or On Timeout = Output the Last
 * Status) can wait in the service's queue long after the node is done: its link lasts a day, as
 * long as the lifecycle rule the README recommends keeps a bucket's object.
 */
export const UNFINISHED_LINK_SECONDS = 24 * 60 * 60;

function linkLifetime(item: ItemSettings): LinkLifetime {
	if (!item.waitForCompletion || item.wait.onTimeout === 'returnLastStatus') {
		return { seconds: UNFINISHED_LINK_SECONDS, mayOutliveItem: true };
	}
	const seconds = Math.min(
		MAX_LINK_SECONDS,
		Math.max(MIN_LINK_SECONDS, Math.ceil(item.wait.timeout) + LINK_MARGIN_SECONDS),
	);
	return { seconds, mayOutliveItem: false };
}

/**
 * With Image Source = Binary File: the item's files, each checked (whole, size, each property
 * once), and their links planned. Sends nothing, so that a bad field anywhere in the item still
 * costs no request.
 */
export async function checkPhotoFiles(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	item: ItemSettings,
): Promise<PhotoLinks | undefined> {
	const source = item.photoSource;
	if (source.kind !== 'binary') return undefined;
	const files = await readPhotoFiles(ctx, source.properties, api);
	const lifetime = linkLifetime(item);
	return source.link === PHOTO_LINK.n8n
		? await n8nLinks(ctx, files, lifetime)
		: await bucketLinks(ctx, files, lifetime, item.keepUploads);
}

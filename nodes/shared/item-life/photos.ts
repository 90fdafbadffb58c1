import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { photoLinkLimits } from '../core/limits';
import type { IdealHouseApi } from '../catalog/apis';
import { n8nLinks, type LinkLifetime, type PhotoLinks } from '../photo-files/n8n-links';
import { readPhotoFiles } from '../photo-files/item-photos';
import type { ItemSettings } from './settings';

/**
 * Photos that are files: the service takes photos by URL only, so it gets n8n's own link to each
 * file (`PhotoLinks`). Here the files are read and checked and their links planned; nothing is
 * sent.
 */

/**
 * How long the service's link lasts: to the end of the node's wait (none with Wait for Completion
 * off), then the hold, in which a task left running may still fetch its photo. Within the
 * longest link the node makes: the settings refused a Timeout beyond it.
 */
function linkLifetime(item: ItemSettings): LinkLifetime {
	const { marginSeconds, holdSeconds, maxSeconds } = photoLinkLimits;
	const wait = item.waitForCompletion ? Math.ceil(item.wait.timeout) : 0;
	return {
		seconds: Math.min(maxSeconds, wait + marginSeconds + holdSeconds),
		mayOutliveItem: !item.waitForCompletion || item.wait.onTimeout === 'returnLastStatus',
	};
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
	return await n8nLinks(ctx, files, linkLifetime(item));
}

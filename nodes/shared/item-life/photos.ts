import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { photoLinkLimits } from '../core/limits';
import type { IdealHouseApi } from '../catalog/apis';
import { n8nLinks, type LinkLifetime, type PhotoLinks } from '../photo-files/n8n-links';
import { readPhotoFiles } from '../photo-files/item-photos';
import type { ItemSettings } from './settings';

// Photo files reach the service as n8n's links. Why: docs/design/photo-links.md

/** The node's wait (none with Wait for Completion off), then the hold for a task left running. */
function linkLifetime(item: ItemSettings): LinkLifetime {
	const { marginSeconds, holdSeconds, maxSeconds } = photoLinkLimits;
	const wait = item.waitForCompletion ? Math.ceil(item.wait.timeout) : 0;
	return {
		seconds: Math.min(maxSeconds, wait + marginSeconds + holdSeconds),
		mayOutliveItem: !item.waitForCompletion || item.wait.onTimeout === 'returnLastStatus',
	};
}

/** Binary File: the item's files checked and their links planned; sends nothing. */
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

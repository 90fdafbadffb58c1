/**
 * What a task of an API costs, read from the package's own catalog: the one price table that the
 * demo, the bench and every test driver check the nodes and the service against.
 */
import type { IDataObject } from 'n8n-workflow';

import { APIS, type IdealHouseApi } from '../../nodes/shared/catalog/apis.ts';
import { price } from '../../nodes/shared/catalog/credits.ts';

/** The credits of one task of `apiName` created with `sent` (its model type, where it has one). */
export function creditsOf(apiName: string, sent?: IDataObject): number {
	if (!Object.hasOwn(APIS, apiName)) throw new Error(`No catalog row for "${apiName}"`);
	const credits = price((APIS as Record<string, IdealHouseApi>)[apiName], sent);
	if (credits === null)
		throw new Error(`The price of "${apiName}" is not known for ${JSON.stringify(sent ?? {})}`);
	return credits;
}

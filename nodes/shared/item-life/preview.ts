import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { withoutSecrets } from '../core/redact';
import { secretsOf } from '../catalog/service';

// Preview: checked as a real run, output as the request it would send; headers (the key) never.

/** Every text in the value without the key: a user may have pasted it into a field. */
function withoutKey(value: unknown, secrets: readonly string[]): unknown {
	if (typeof value === 'string') return withoutSecrets(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => withoutKey(entry, secrets));
	if (
		typeof value === 'object' &&
		value !== null &&
		Object.getPrototypeOf(value) === Object.prototype
	) {
		return Object.fromEntries(
			Object.entries(value).map(([name, entry]) => [name, withoutKey(entry, secrets)]),
		);
	}
	return value;
}

/** What an item would send, and what it would cost (`null`: not known; a read is free). */
interface Previewed extends IDataObject {
	method: 'POST' | 'GET';
	path: string;
	qs?: IDataObject;
	body: IDataObject | null;
	credits: number | null;
}

/** The item comes out as the request it would have sent, the key cleared from every text. */
export async function preview(
	ctx: IExecuteSingleFunctions,
	previewed: Previewed,
): Promise<INodeExecutionData[]> {
	const json = { preview: withoutKey(previewed, await secretsOf(ctx)) as IDataObject };
	return [{ json, pairedItem: { item: ctx.getItemIndex() } }];
}

import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

import { createPath, resultPath, type IdealHouseApi } from '../catalog/catalog';
import { price } from '../catalog/credits';
import { withoutSecrets } from '../basics/redact';
import { secretsOf } from '../transport/transport';

/**
 * Preview: every item is checked as a real run checks it (fields, options, the credit limit),
 * then comes out as the request it would have sent and what it would cost, and nothing goes to
 * the service. The request's headers, where the key travels, are never shown.
 */

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

/** The create the item would send: its exact body and its price (`null`: not known). */
export async function previewCreate(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	body: IDataObject,
): Promise<INodeExecutionData[]> {
	return await previewItem(ctx, {
		method: 'POST',
		path: createPath(api),
		body,
		credits: price(api, body),
	});
}

/** The Get Result read the item would send; reading a task is free. */
export async function previewRead(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	qs: IDataObject,
): Promise<INodeExecutionData[]> {
	return await previewItem(ctx, {
		method: 'GET',
		path: resultPath(api),
		qs,
		body: null,
		credits: 0,
	});
}

async function previewItem(
	ctx: IExecuteSingleFunctions,
	preview: IDataObject,
): Promise<INodeExecutionData[]> {
	const json = { preview: withoutKey(preview, await secretsOf(ctx)) as IDataObject };
	return [{ json, pairedItem: { item: ctx.getItemIndex() } }];
}

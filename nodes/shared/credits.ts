import type { IDataObject } from 'n8n-workflow';

import type { IdealHouseApi } from './catalog';

/**
 * What a task costs the account, from its API's price rule and what was sent (the task's stored
 * input, or the body of the create). The service deducts it when the task is created and gives
 * it back when the task ends Failed; reading a task is free. `null`: the price is not known.
 */
export function price(api: IdealHouseApi, sent: IDataObject | undefined): number | null {
	const rule = api.price;
	if ('flat' in rule) return rule.flat;
	if ('unknown' in rule) return null;
	const chosen = sent?.modelType;
	const modelType = typeof chosen === 'string' && chosen !== '' ? chosen : rule.defaultModelType;
	return modelType === undefined ? null : (rule.byModelType[modelType] ?? null);
}

export function creditsCharged(
	api: IdealHouseApi,
	status: string,
	sent: IDataObject | undefined,
): number | null {
	return status === 'Failed' ? 0 : price(api, sent);
}

/** How a failed task's message accounts for its credits. */
export function refundNote(api: IdealHouseApi, sent: IDataObject | undefined): string {
	const credits = price(api, sent);
	if (credits === null) return 'Its credits, if any, were refunded automatically';
	return `Its ${credits} credit${credits === 1 ? ' was' : 's were'} refunded automatically`;
}

/** An API's price in words, for descriptions: "1 credit", "Flash 1, Base 3 (default), Pro 10 credits". */
export function priceText(api: IdealHouseApi): string {
	const rule = api.price;
	if ('unknown' in rule) return 'price not published';
	if ('flat' in rule) return `${rule.flat} credit${rule.flat === 1 ? '' : 's'} per task`;
	const tiers = Object.entries(rule.byModelType).map(
		([model, credits]) =>
			`${model} ${credits}${model === rule.defaultModelType ? ' (default)' : ''}`,
	);
	return `${tiers.join(', ')} credits per task by model type`;
}

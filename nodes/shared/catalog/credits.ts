import type { IDataObject } from 'n8n-workflow';

import type { IdealHouseApi } from './apis';

/**
 * What a task costs the account, from its API's price rule and its model type. The service
 * deducts it when the task is created and gives it back when the task ends Failed; reading a task
 * is free. `null`: the price is not known.
 *
 * Two readings of the model type, because they know different things:
 * - a create's body: a model type left out was left out on purpose, so the service's documented
 *   default applies;
 * - a task's stored input: the service does not always repeat the model type there, so one left
 *   out says nothing, and the price is not known.
 */

/** The price of a tier, looked up as the table's own entry: "constructor" is no tier. */
function tierPrice(prices: Readonly<Record<string, number>>, modelType: unknown): number | null {
	if (typeof modelType !== 'string' || !Object.hasOwn(prices, modelType)) return null;
	return prices[modelType];
}

function chosenModelType(sent: IDataObject | undefined): string | undefined {
	const chosen = sent?.modelType;
	return typeof chosen === 'string' && chosen !== '' ? chosen : undefined;
}

/** What a create with this body costs. */
export function price(api: IdealHouseApi, sent: IDataObject | undefined): number | null {
	const rule = api.price;
	if ('flat' in rule) return rule.flat;
	if ('unknown' in rule) return null;
	return tierPrice(rule.byModelType, chosenModelType(sent) ?? rule.defaultModelType);
}

/** What a task whose stored input is `input` cost: its tier only when the input names it. */
export function priceOfStoredTask(
	api: IdealHouseApi,
	input: IDataObject | undefined,
): number | null {
	const rule = api.price;
	if ('flat' in rule) return rule.flat;
	if ('unknown' in rule) return null;
	return tierPrice(rule.byModelType, chosenModelType(input));
}

/** What a task in this status has cost: nothing once Failed (the service refunds it). */
export function creditsCharged(status: string, credits: number | null): number | null {
	return status === 'Failed' ? 0 : credits;
}

/** How a failed task's message accounts for its credits. */
export function refundNote(credits: number | null): string {
	if (credits === null) return 'its credits, if any, were refunded automatically';
	return `its ${credits} credit${credits === 1 ? ' was' : 's were'} refunded automatically`;
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

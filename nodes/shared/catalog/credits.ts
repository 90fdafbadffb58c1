import type { IDataObject } from 'n8n-workflow';

import type { IdealHouseApi } from './apis';

// What a task costs: deducted at create, given back when it ends Failed; `null`: not known. A
// create's body that leaves out the model type means the documented default; a stored task's
// input may just not repeat it, so its price is not known.

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

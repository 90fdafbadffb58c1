import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/apis';
import { price } from '../catalog/credits';
import { IdealHouseItemError, type IdealHouseError } from '../core/errors';
import { givesCreditsBack } from '../core/outcome';
import { PerExecution } from '../core/per-execution';
import type { ItemSettings } from './settings';
import { executionLimits } from '../core/limits';

// Credit Limit: the most credits one node may spend in one execution.
// Why: docs/design/item-life.md#credit-limit

/** What the model is told in every create tool's description. */
export const CREDIT_LIMIT_TOOL_NOTE =
	'A Credit Limit set on this tool holds for its calls too: a call that would pass it is refused before anything is sent or charged.';

interface Ledger {
	spent: number;
}

/** Per execution, node and kind (run or preview); swept after a day unused, beyond any wait. */
const ledgers = new PerExecution<Ledger>(executionLimits.stateIdleMs, 'keep');

function ledgerOf(ctx: IExecuteSingleFunctions, preview: boolean): Ledger {
	return ledgers.get(ctx, `${ctx.getNode().name}|${preview ? 'preview' : 'run'}`, () => ({
		spent: 0,
	}));
}

/** `reserve` counts or refuses; `giveBack` and `failed` undo it when the create cost nothing. */
export interface CreditCharge {
	reserve(): void;
	giveBack(): void;
	failed(error: IdealHouseError): void;
}

const UNLIMITED: CreditCharge = {
	reserve: () => undefined,
	giveBack: () => undefined,
	failed: () => undefined,
};

/**
 * One create's charge: the price is checked now, so an item the limit can never take fails before
 * its turn; the count waits for `reserve`, so credits given back serve the items behind it.
 */
export function creditCharge(
	ctx: IExecuteSingleFunctions,
	api: IdealHouseApi,
	body: IDataObject | undefined,
	settings: Pick<ItemSettings, 'creditLimit' | 'preview'>,
): CreditCharge {
	const { creditLimit: limit, preview } = settings;
	if (limit === 0) return UNLIMITED;
	const credits = price(api, body);
	if (credits === null) throw unknownPrice(ctx, api);
	let ledger: Ledger | undefined;
	const giveBack = () => {
		if (!ledger) return;
		ledger.spent -= credits;
		ledger = undefined;
	};
	return {
		reserve() {
			if (ledger) return;
			const counted = ledgerOf(ctx, preview);
			// The check and the count in one step: nothing else runs between them.
			if (counted.spent + credits > limit) throw overLimit(ctx, limit, counted.spent, credits);
			counted.spent += credits;
			ledger = counted;
		},
		giveBack,
		failed(error) {
			if (givesCreditsBack(error.outcome)) giveBack();
		},
	};
}

const creditsText = (credits: number) => `${credits} credit${credits === 1 ? '' : 's'}`;

function overLimit(
	ctx: IExecuteSingleFunctions,
	limit: number,
	spent: number,
	credits: number,
): IdealHouseItemError {
	const itemIndex = ctx.getItemIndex();
	return new IdealHouseItemError(
		ctx.getNode(),
		`'Credit Limit' of ${creditsText(limit)} reached: this node has already spent ${creditsText(spent)} in this execution, and this item would cost ${creditsText(credits)} [item ${itemIndex}]`,
		{
			itemIndex,
			description:
				"Nothing was sent or charged for this item. A task counts from its creation (tasks still being created count too) and comes back to the limit when it ends Failed. Raise 'Credit Limit' under 'Options', or run this item in a later execution.",
		},
		{ kind: 'neverSent' },
	);
}

function unknownPrice(ctx: IExecuteSingleFunctions, api: IdealHouseApi): IdealHouseItemError {
	const itemIndex = ctx.getItemIndex();
	return new IdealHouseItemError(
		ctx.getNode(),
		`'Credit Limit' cannot be kept for the "${api.name}" API: its price is not known, so this item cannot be counted against the limit [item ${itemIndex}]`,
		{
			itemIndex,
			description:
				"Nothing was sent or charged for this item. To call an API whose price Ideal House does not publish, set 'Credit Limit' to 0 (no limit) on this node.",
		},
		{ kind: 'neverSent' },
	);
}

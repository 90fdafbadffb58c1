import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';

import type { IdealHouseApi } from '../catalog/apis';
import { price } from '../catalog/credits';
import { IdealHouseItemError, type IdealHouseError } from '../core/errors';
import { givesCreditsBack } from '../core/outcome';
import { PerExecution } from '../core/per-execution';
import type { ItemSettings } from './settings';
import { executionLimits } from '../core/limits';

/**
 * Credit Limit: the most credits one node may spend in one execution. A create counts from the
 * moment before it is sent, at the price `creditsCharged` reports, and the check and the count
 * are one synchronous step: items sent together cannot slip past the limit between them. What a
 * create certainly did not cost is given back (its outcome says so: `givesCreditsBack`); a create
 * whose outcome is unknown stays counted, because its task may exist and be paid for. Without a
 * limit nothing is counted.
 */

/** What the model is told in every create tool's description. */
export const CREDIT_LIMIT_TOOL_NOTE =
	'A Credit Limit set on this tool holds for its calls too: a call that would pass it is refused before anything is sent or charged.';

interface Ledger {
	spent: number;
}

/**
 * Credits counted by node and by kind (a real run, or a preview) in each execution. Dropped with
 * the execution; the idle sweep must never drop a run still waiting on its tasks: a day is far
 * beyond any wait.
 */
const ledgers = new PerExecution<Ledger>(executionLimits.stateIdleMs, 'keep');

function ledgerOf(ctx: IExecuteSingleFunctions, preview: boolean): Ledger {
	return ledgers.get(ctx, `${ctx.getNode().name}|${preview ? 'preview' : 'run'}`, () => ({
		spent: 0,
	}));
}

/**
 * A create's place against the limit: `reserve` counts it or refuses it, `giveBack` takes the
 * count back (the service refused the create), `failed` takes it back when the error shows the
 * create cost nothing. A refused attempt that is sent again is counted again.
 */
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
 * The charge of one create. The option and the price are checked at once, so an item the limit
 * can never take fails before it waits for its turn; the count itself waits for `reserve`, right
 * before the create is sent, so credits a refused create gave back are there for the items behind
 * it. A preview counts apart from real runs.
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

import type { IExecuteSingleFunctions, JsonObject } from 'n8n-workflow';

import { API_CODES, NOT_ENOUGH_CREDITS } from '../core/api-codes';
import { clock } from '../core/clock';
import { IdealHouseApiError } from '../core/errors';
import { PerExecution } from '../core/per-execution';
import { executionLimits } from '../core/limits';

// After a 9051, the execution's other creates on that account are not sent.
// Why: docs/design/item-life.md#the-9051-hold

/** The accounts (as digests, never the key) that ran out in each execution. */
const outOfCredits = new PerExecution<{ since: number }>(executionLimits.outOfCreditsMs, 'keep');

/** Called with the code of every create's answer, before its request slot is given back. */
export function noteAnswerCode(
	ctx: IExecuteSingleFunctions,
	key: string,
	code: number | undefined,
): void {
	if (code === NOT_ENOUGH_CREDITS) outOfCredits.get(ctx, key, () => ({ since: clock.now() }));
}

/** Right before a create is sent: refuses it when its account already ran out in this execution. */
export function refuseWhenOutOfCredits(ctx: IExecuteSingleFunctions, key: string): void {
	if (!outOfCredits.peek(ctx, key)) return;
	const itemIndex = ctx.getItemIndex();
	throw new IdealHouseApiError(
		ctx.getNode(),
		{ code: NOT_ENOUGH_CREDITS, message: 'not sent' } as JsonObject,
		{
			message: `Ideal House refused an earlier task of this execution: the account does not have enough credits (code ${NOT_ENOUGH_CREDITS}), so this item was not sent [item ${itemIndex}]`,
			description: `Nothing was sent or charged for this item. ${API_CODES[NOT_ENOUGH_CREDITS].action} Then run the node again.`,
			itemIndex,
		},
		{ kind: 'neverSent' },
	);
}

import type { IExecuteSingleFunctions, JsonObject } from 'n8n-workflow';

import { API_CODES } from '../basics/api-codes';
import { clock } from '../basics/clock';
import { IdealHouseApiError } from '../basics/errors';
import { accountOfRun } from '../transport/throttle';

/**
 * Once the service has answered a create with 9051 (not enough credits), every other create of
 * the same execution on the same account would get the same answer: they are not sent. Kept per
 * execution and account (the account as a digest, never the key), in this process; a queue-mode
 * worker runs a whole execution, so it sees every 9051 of it.
 */
export const NOT_ENOUGH_CREDITS = 9051;

/** When each execution's account ran out, by `<execution>|<account>`. */
const outOfCredits = new Map<string, number>();
/** Dropped with the execution; this catches runs on an n8n without the execution-finish notice. */
const IDLE_MS = 60 * 60_000;

/** Where this node run's "out of credits" is kept: its execution and its account. */
export async function creditsKeyOf(ctx: IExecuteSingleFunctions): Promise<string> {
	return `${ctx.getExecutionId()}|${await accountOfRun(ctx)}`;
}

/** Called with the code of every create's answer, before its request slot is given back. */
export function noteAnswerCode(
	ctx: IExecuteSingleFunctions,
	key: string,
	code: number | undefined,
): void {
	if (code !== NOT_ENOUGH_CREDITS || outOfCredits.has(key)) return;
	for (const [staleKey, since] of outOfCredits) {
		if (clock.now() - since > IDLE_MS) outOfCredits.delete(staleKey);
	}
	outOfCredits.set(key, clock.now());
	ctx.onExecutionFinish?.(() => outOfCredits.delete(key));
}

/** Right before a create is sent: refuses it when its account already ran out in this execution. */
export function refuseWhenOutOfCredits(ctx: IExecuteSingleFunctions, key: string): void {
	if (!outOfCredits.has(key)) return;
	const info = API_CODES[NOT_ENOUGH_CREDITS];
	throw new IdealHouseApiError(
		ctx.getNode(),
		{ code: NOT_ENOUGH_CREDITS, message: 'not sent' } as JsonObject,
		{
			message: `Ideal House error ${NOT_ENOUGH_CREDITS} (${info.name}) – ${info.meaning}: the service refused an earlier create of this execution for it, so no request was sent for this item`,
			description: info.action,
			itemIndex: ctx.getItemIndex(),
		},
		{ apiCode: NOT_ENOUGH_CREDITS, notActedOn: true },
	);
}

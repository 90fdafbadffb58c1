import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { refuseWhenStopped } from '../core/cancellation';
import { toIdealHouseError } from '../core/errors';
import { refusedByCode, type Outcome } from '../core/outcome';
import { accountOfRun, takeRequestSlot } from '../rate/slots';
import { envelopeCode, type ServiceResponse } from '../transport/answers';
import type { CreditCharge } from './credit-limit';
import { noteAnswerCode, refuseWhenOutOfCredits } from './out-of-credits';

/**
 * A create's turn: a request slot, then in one step the 9051 check and the Credit Limit's count,
 * so an item refused by either sends nothing. Why: docs/design/item-life.md#the-items-turn
 */
export interface Turn {
	/** Right before the create is sent: an earlier create's 9051 may have come meanwhile. */
	stillOpen(): void;
	/** Sent: a refusal (9051) is noted before the slot goes back, so the next item sees it. */
	answered(response: ServiceResponse | undefined, failed?: Outcome): void;
	/** Done: with no create sent (the link failed, Stop), the slot and the credits go back. */
	release(): void;
}

export async function waitForCreateTurn(
	ctx: IExecuteSingleFunctions,
	rate: number,
	charge: CreditCharge,
): Promise<Turn> {
	// Nothing was sent yet: a Stop pressed meanwhile ends the item here.
	refuseWhenStopped(ctx);
	// A 9051 is kept per account: what one account ran out of says nothing of another's.
	const creditsKey = await accountOfRun(ctx);
	const slot = await takeRequestSlot(ctx, rate);
	// The credits first: the next item in line, woken by the slot, already counts without them.
	let sent = false;
	const cancel = () => {
		if (sent) return;
		charge.giveBack();
		slot.unused();
	};
	try {
		refuseWhenOutOfCredits(ctx, creditsKey);
		charge.reserve();
	} catch (error) {
		slot.unused();
		throw toIdealHouseError(ctx, error);
	}
	return {
		stillOpen() {
			try {
				refuseWhenOutOfCredits(ctx, creditsKey);
			} catch (error) {
				cancel();
				throw toIdealHouseError(ctx, error);
			}
		},
		answered(response, failed) {
			sent = true;
			if (response) noteAnswerCode(ctx, creditsKey, envelopeCode(response));
			if (failed && refusedByCode(failed)) charge.giveBack();
			slot();
		},
		release: cancel,
	};
}

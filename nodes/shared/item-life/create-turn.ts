import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { refuseWhenStopped } from '../core/cancellation';
import { toIdealHouseError } from '../core/errors';
import { refusedByCode, type Outcome } from '../core/outcome';
import { accountOfRun, takeRequestSlot } from '../rate/slots';
import { envelopeCode, type ServiceResponse } from '../transport/answers';
import type { CreditCharge } from './credit-limit';
import { noteAnswerCode, refuseWhenOutOfCredits } from './out-of-credits';

/**
 * A create's turn: a slot of the account's request budget, then, in one step with nothing
 * awaited between them, the check that the account has not run out of credits in this execution
 * (9051) and the Credit Limit's count. Items waiting on the request rate are held back here, so
 * that an item refused by either sends nothing anywhere: not its photo, not its create.
 */
export interface Turn {
	/** Right before the create is sent: an earlier create's 9051 may have come meanwhile. */
	stillOpen(): void;
	/**
	 * The create was sent and answered (or failed on the way, `failed` saying what it came to):
	 * the slot counts one more second. An answer that refused it (9051 above all) is taken into
	 * account before the slot is given back, so that the next item in line already sees it.
	 */
	answered(response: ServiceResponse | undefined, failed?: Outcome): void;
	/**
	 * The item is done with its turn. When no create went with it (the upload failed, Stop), the
	 * slot and the credits go back.
	 */
	release(): void;
}

export async function waitForCreateTurn(
	ctx: IExecuteSingleFunctions,
	rate: number,
	charge: CreditCharge,
): Promise<Turn> {
	// Everything before the turn sends nothing; a Stop pressed meanwhile ends the item here.
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

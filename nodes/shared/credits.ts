import { KINDS, type TaskKind } from './api';

/**
 * What a task costs the account. The service deducts a kind's credits when the task is created
 * and gives them back when it ends Failed; reading a task is free.
 */
export function creditsCharged(kind: TaskKind, status: string): number {
	return status === 'Failed' ? 0 : KINDS[kind].credits;
}

/** How a failed task's message accounts for its credits. */
export function refundNote(kind: TaskKind): string {
	const credits = KINDS[kind].credits;
	return `Its ${credits} credit${credits === 1 ? ' was' : 's were'} refunded automatically`;
}

// What a request came to, set where its answer or failure is read. Why: docs/design/outcome.md
export type Outcome = Ending &
	(
		| { kind: 'neverSent' }
		| { kind: 'withdrawn' }
		| { kind: 'refused'; apiCode?: number }
		| {
				kind: 'maybeActed';
				apiCode?: number;
				/** A task the answer named: it may exist. */
				taskId?: string;
		  }
		| {
				kind: 'created';
				taskId: string;
				/** `null`: its price is not published. */
				creditsCharged?: number | null;
		  }
		| { kind: 'finished'; taskId: string; creditsCharged: number | null; refunded: boolean }
	);

interface Ending {
	/** A passing fault: the same request again may well succeed, not before `afterMs`. */
	retry?: Retry;
	/** The user pressed Stop: never retried. */
	stopped?: true;
}

export interface Retry {
	/** What went wrong, in a few words (`HTTP 503`, `code 1003`, `ECONNRESET`). */
	reason: string;
	/** From a Retry-After header, when the service sent one. */
	afterMs?: number;
}

/** The service certainly did not act on the request: nothing was created or charged. */
export function certainlyNotActedOn(outcome: Outcome): boolean {
	return outcome.kind === 'neverSent' || outcome.kind === 'withdrawn' || outcome.kind === 'refused';
}

/** A create may be sent again only after a passing fault the service certainly did not act on. */
export function mayResendCreate(outcome: Outcome): boolean {
	return !outcome.stopped && outcome.retry !== undefined && certainlyNotActedOn(outcome);
}

/** A read may be sent again after any passing fault. */
export function mayRepeatRead(outcome: Outcome): boolean {
	return !outcome.stopped && outcome.retry !== undefined;
}

/** A failed create's credits come back: its task ended Failed (refunded), or none can exist. */
export function givesCreditsBack(outcome: Outcome): boolean {
	if (outcome.kind === 'finished') return outcome.refunded;
	return certainlyNotActedOn(outcome);
}

/** The service refused the request with an error code of its own (9051 above all). */
export function refusedByCode(outcome: Outcome): boolean {
	return outcome.kind === 'refused' && (outcome.apiCode ?? 0) !== 0;
}

/** The code of the service's error envelope, when its answer carried one. */
export function apiCodeOf(outcome: Outcome): number | undefined {
	return outcome.kind === 'refused' || outcome.kind === 'maybeActed' ? outcome.apiCode : undefined;
}

/** The task an outcome names, and what it cost once known. */
export interface NamedTask {
	taskId: string;
	creditsCharged?: number | null;
}

export function taskOf(outcome: Outcome): NamedTask | undefined {
	if (outcome.kind === 'maybeActed' && outcome.taskId) return { taskId: outcome.taskId };
	if (outcome.kind !== 'created' && outcome.kind !== 'finished') return undefined;
	return { taskId: outcome.taskId, creditsCharged: outcome.creditsCharged };
}

/** The outcome naming the item's task: one it already names is kept (and learns its price). */
export function aboutTask(outcome: Outcome, task: NamedTask): Outcome {
	if (outcome.kind === 'finished') return outcome;
	if (outcome.kind === 'created') {
		return outcome.creditsCharged === undefined && task.creditsCharged !== undefined
			? { ...outcome, creditsCharged: task.creditsCharged }
			: outcome;
	}
	const { retry, stopped } = outcome;
	const named: Outcome = { kind: 'created', taskId: task.taskId };
	if (task.creditsCharged !== undefined) named.creditsCharged = task.creditsCharged;
	return { ...named, ...(retry && { retry }), ...(stopped && { stopped }) };
}

/** The outcome without its passing fault: what a request came to once no attempt follows. */
export function final(outcome: Outcome): Outcome {
	const rest = { ...outcome };
	delete rest.retry;
	return rest;
}

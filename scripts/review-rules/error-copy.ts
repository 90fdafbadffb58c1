/**
 * n8n's rules for an error a node shows (its UX guidelines, "Errors"): the message says what
 * happened and ends with the item, `[item N]`; the description says how to get unstuck; neither
 * uses the words "error", "problem", "failure" or "mistake" (nor the message "failed"). Text the
 * node quotes from elsewhere (the service's own words, in double quotes) is not the node's copy.
 * The engine harness holds every item error the tests meet to these rules.
 */

export interface ErrorCopy {
	message: string;
	description?: string | null;
	/** The item the error is about, when there is one. */
	itemIndex?: number;
}

const BANNED = /\b(errors?|problems?|failures?|mistakes?)\b/i;
const BANNED_IN_MESSAGE = /\bfailed\b/i;

/** The node's own words: quoted text taken out. */
function ownWords(text: string): string {
	return text.replace(/"[^"]*"/g, '""');
}

export function errorCopyProblems(copy: ErrorCopy): string[] {
	const problems: string[] = [];
	const message = ownWords(copy.message);
	const description = ownWords(copy.description ?? '');
	if (typeof copy.itemIndex === 'number' && !copy.message.endsWith(` [item ${copy.itemIndex}]`)) {
		problems.push(`the message does not end with [item ${copy.itemIndex}]`);
	}
	const banned = BANNED.exec(message) ?? BANNED_IN_MESSAGE.exec(message);
	if (banned) problems.push(`the message says "${banned[1] ?? banned[0]}"`);
	if (description.trim() === '') problems.push('there is no description of what to do');
	const bannedInDescription = BANNED.exec(description);
	if (bannedInDescription) problems.push(`the description says "${bannedInDescription[1]}"`);
	return problems;
}

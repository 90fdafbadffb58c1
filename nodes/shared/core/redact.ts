/**
 * The one gate for text that comes from the server or the network on its way to a message, a
 * description, an item or a log line: some gateways echo request headers, and the API key must
 * not come back through them; a service that quotes the link to a photo must not hand back the
 * link's token.
 */

const REDACTED = '[redacted]';

/**
 * `APIKEY: value`, `"apikey":"value"`, `Authorization: Bearer value` and the like. A value already
 * cleared as a secret is taken whole, so that its closing bracket is not left behind.
 */
const HEADER_ECHO =
	/((?:api[-_]?key|x-api-key|authorization|proxy-authorization|cookie)["']?\s*[:=]\s*["']?(?:bearer\s+|basic\s+)?)(\[redacted\]|[^\s"',;&}\]]+)/gi;

/**
 * n8n's signed link to a file carries its key in the query (`…/binary-data/signed?token=<JWT>`):
 * whoever holds it can read the photo, so a service that echoes the link gives back only its
 * address. As written, JSON-escaped once or twice (`\/`, `\\/`, `\u002F`) and URL-encoded once
 * or twice (`%2F`, `%252F`).
 */
const SLASH = String.raw`(?:\/|\\\/|\\\\\/|%2F|%252F|\\u002F)`;
const QUESTION = String.raw`(?:\?|%3F|%253F|\\u003F)`;
const EQUALS = String.raw`(?:=|%3D|%253D|\\u003D)`;
const SIGNED_LINK_TOKEN = new RegExp(
	`(binary-data${SLASH}signed${QUESTION}token${EQUALS})[A-Za-z0-9._~%-]+`,
	'gi',
);

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const hexDigit = (digit: string) => `[${digit.toLowerCase()}${digit.toUpperCase()}]`;
const hexPattern = (hex: string) => [...hex].map(hexDigit).join('');

/**
 * The backslash that starts an escape, as is or URL-encoded once or twice. Backslashes before it
 * are taken with it, so that no cut leaves JSON with a dangling one.
 */
const ESCAPED = String.raw`(?:\\*\\|%5[cC]|%255[cC])`;

/**
 * One character of a secret in every form it may be quoted in: as is, JSON-escaped, `\u00XX`
 * (once or twice escaped), or percent-encoded once or twice (either case of hex digits).
 */
function characterForms(char: string): string {
	const forms = new Set([escapeRegExp(char)]);
	const json = JSON.stringify(char).slice(1, -1);
	if (json !== char) forms.add(ESCAPED + escapeRegExp(json.slice(1)));
	const encoded = encodeURIComponent(char);
	if (encoded !== char) {
		forms.add(escapeRegExp(encoded));
		forms.add(escapeRegExp(encoded.replace(/%/g, '%25')));
	}
	const code = char.codePointAt(0) ?? 0;
	if (code <= 0xffff) forms.add(`${ESCAPED}u${hexPattern(code.toString(16).padStart(4, '0'))}`);
	if (code <= 0x7f) {
		const hex = code.toString(16).padStart(2, '0');
		forms.add(`%${hexPattern(hex)}`);
		forms.add(`%25${hexPattern(hex)}`);
	}
	return forms.size === 1 ? [...forms][0] : `(?:${[...forms].join('|')})`;
}

/** The patterns of secrets seen lately: a secret is cleared from every text of its item. */
const patterns = new Map<string, RegExp>();
const MAX_PATTERNS = 500;

function patternOf(secret: string): RegExp {
	let pattern = patterns.get(secret);
	if (!pattern) {
		pattern = new RegExp([...secret].map(characterForms).join(''), 'g');
		if (patterns.size >= MAX_PATTERNS) patterns.delete(patterns.keys().next().value as string);
		patterns.set(secret, pattern);
	}
	return pattern;
}

/**
 * Replaces every secret, and the token of every n8n signed link, in whatever form the text quotes
 * it (see `characterForms`). Safe on a whole JSON body: a secret inside a string leaves a string.
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
	let out = text.replace(SIGNED_LINK_TOKEN, `$1${REDACTED}`);
	// The longest first, so that a token goes whole rather than as its parts.
	for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
		// A very short "key" would blank ordinary words; real keys are long.
		if (secret.length < 6) continue;
		out = out.replace(patternOf(secret), REDACTED);
	}
	return out;
}

/** Cuts an echoed value so that a huge answer or input cannot make a huge message. */
export function bounded(text: string, max = 300): string {
	return text.length <= max
		? text
		: `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * What a message may quote of a server's or the network's text: no secret, no value of an echoed
 * credential header, and not more than `max` characters.
 */
export function redact(text: string, secrets: readonly string[], max = 300): string {
	const cleared = withoutSecrets(text, secrets).replace(HEADER_ECHO, `$1${REDACTED}`);
	return bounded(cleared, max);
}

/**
 * Secrets an item made itself (the token of each link to its photos), kept with the item for as
 * long as it lives: every text about it is cleared of them, as of the key.
 */
const itemSecrets = new WeakMap<object, string[]>();

export function rememberSecrets(item: object, secrets: readonly string[]): void {
	itemSecrets.set(item, [...(itemSecrets.get(item) ?? []), ...secrets]);
}

export function secretsOfItem(item: object): readonly string[] {
	return itemSecrets.get(item) ?? [];
}

/**
 * A signed token and each of its parts that could stand for it: a JWT's claims and signature,
 * quoted apart, are as good as the token (its header is the same for every token).
 */
export function tokenAndParts(token: string): string[] {
	const parts = token.split('.');
	return parts.length === 3 ? [token, parts[1], parts[2]] : [token];
}

// The one gate for server or network text on its way to a message, an item or a log line:
// no API key, no signed link's token comes back through it. Why: docs/design/redaction.md

const REDACTED = '[redacted]';

/** `APIKEY: v`, `"apikey":"v"`, `Authorization: Bearer v`; a value already redacted goes whole. */
const HEADER_ECHO =
	/((?:api[-_]?key|x-api-key|authorization|proxy-authorization|cookie)["']?\s*[:=]\s*["']?(?:bearer\s+|basic\s+)?)(\[redacted\]|[^\s"',;&}\]]+)/gi;

/** The token of n8n's signed file link, which reads the photo: as is, JSON-escaped or URL-encoded. */
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

/** An escape's backslash, plain or URL-encoded, with any before it: none is left dangling. */
const ESCAPED = String.raw`(?:\\*\\|%5[cC]|%255[cC])`;

/** One character of a secret in any form a text may quote it: as is, JSON-escaped, URL-encoded. */
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

/** Replaces every secret and signed link token, in any quoted form; a JSON body stays JSON. */
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

/** Others' text for a message: no secret, no echoed credential header, at most `max` characters. */
export function redact(text: string, secrets: readonly string[], max = 300): string {
	const cleared = withoutSecrets(text, secrets).replace(HEADER_ECHO, `$1${REDACTED}`);
	return bounded(cleared, max);
}

/** Secrets an item made (its photo links' tokens), kept as long as the item lives. */
const itemSecrets = new WeakMap<object, string[]>();

export function rememberSecrets(item: object, secrets: readonly string[]): void {
	itemSecrets.set(item, [...(itemSecrets.get(item) ?? []), ...secrets]);
}

export function secretsOfItem(item: object): readonly string[] {
	return itemSecrets.get(item) ?? [];
}

/** A signed token and its parts: a JWT's claims or signature, quoted apart, are as good as it. */
export function tokenAndParts(token: string): string[] {
	const parts = token.split('.');
	return parts.length === 3 ? [token, parts[1], parts[2]] : [token];
}

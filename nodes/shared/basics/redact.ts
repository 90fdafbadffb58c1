/**
 * The one gate for text that comes from the server or the network on its way to a message, a
 * description, an item or a log line: some gateways echo request headers, and the API key must
 * not come back through them.
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
 * address. Plain, JSON-escaped (`\/`, or `\u003d` as some encoders write `=`) and URL-encoded forms.
 */
const SIGNED_LINK_TOKEN =
	/(binary-data(?:\/|\\\/|%2F|\\u002F)signed(?:\?|%3F|\\u003F)token(?:=|%3D|\\u003D))[A-Za-z0-9._~%-]+/gi;

/**
 * A presigned link into the user's bucket reads the object with its signature alone, as n8n's
 * token does: a message that quotes it gives the rest of the link only. SigV4's `X-Amz-Signature`,
 * plain, URL-encoded or JSON-escaped. Messages only: a whole answer keeps it, since a result's
 * own address may be a presigned link that must still open.
 */
const PRESIGNED_SIGNATURE = /(X-Amz-Signature(?:=|%3D|\\u003D))[0-9A-Fa-f]+/gi;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces every secret, and the token of every n8n signed link, as is and as JSON or URL encoding
 * would write it. Safe on a whole JSON body: a secret inside a string leaves a string.
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
	let out = text.replace(SIGNED_LINK_TOKEN, `$1${REDACTED}`);
	for (const secret of secrets) {
		// A very short "key" would blank ordinary words; real keys are long.
		if (secret.length < 6) continue;
		const forms = new Set([
			secret,
			JSON.stringify(secret).slice(1, -1),
			encodeURIComponent(secret),
		]);
		for (const form of forms) out = out.replace(new RegExp(escapeRegExp(form), 'g'), REDACTED);
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
 * credential header, no presigned link's signature, and not more than `max` characters.
 */
export function redact(text: string, secrets: readonly string[], max = 300): string {
	const cleared = withoutSecrets(text, secrets)
		.replace(HEADER_ECHO, `$1${REDACTED}`)
		.replace(PRESIGNED_SIGNATURE, `$1${REDACTED}`);
	return bounded(cleared, max);
}

// A request-rate limit per API key, as a gateway in front of a real deployment might enforce
// one. The spec shows none, so it is off unless asked for (`rateLimit`, requests a second).
//
// Counted as the service sees requests: at most `limit` accepted arrivals of one key in any
// one-second window, by the service's clock. A refused request does not count, so a client that
// waits as told gets in. The answer to one beyond the limit says when the oldest accepted request
// of the window leaves it: Retry-After in whole seconds (the header takes no fractions), rounded up.
import { CODE, envelopeText } from './envelope.ts';

const WINDOW_MS = 1000;

export interface Throttled {
	retryAfterSeconds: number;
	/** The envelope answered with HTTP 429. */
	body: string;
}

export class RateLimiter {
	/** Arrival times of each key's accepted requests of the last second, oldest first. */
	private readonly accepted = new Map<string, number[]>();

	/**
	 * Counts a request of `apiKey` arriving at `now`: undefined when it is within the limit (0: no
	 * limit), otherwise the answer that refuses it.
	 */
	admit(apiKey: string, now: number, limit: number): Throttled | undefined {
		if (limit <= 0) return undefined;
		let arrivals = this.accepted.get(apiKey);
		if (!arrivals) {
			arrivals = [];
			this.accepted.set(apiKey, arrivals);
		}
		while (arrivals.length > 0 && arrivals[0] <= now - WINDOW_MS) arrivals.shift();
		if (arrivals.length < limit) {
			arrivals.push(now);
			return undefined;
		}
		const retryAfterSeconds = Math.max(1, Math.ceil((arrivals[0] + WINDOW_MS - now) / 1000));
		return {
			retryAfterSeconds,
			// 1003 is the spec's only code that tells the client to retry after a short delay; the
			// request was not acted on. The spec's error envelope: a non-zero code, data null.
			body: envelopeText(
				CODE.INTERNAL_ERROR,
				`too many requests: at most ${limit} a second per API key; retry after ${retryAfterSeconds} s`,
			),
		};
	}

	reset(): void {
		this.accepted.clear();
	}
}

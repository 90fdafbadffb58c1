import { clock } from '../core/clock';
import { AdaptiveRate } from './adaptive';
import { TokenBucket } from './bucket';
import { rateLimits } from '../core/limits';

/** What an answer of the service says about the pace of this account's requests. */
export type PaceSignal =
	/** HTTP 429, or code 1003 with a Retry-After: too fast. */
	| { throttled: true; retryAfterMs?: number }
	/** Any other answer below HTTP 500: the service took the request at this pace. */
	| { throttled: false };

/**
 * One account's request budget in this process: its slots (`TokenBucket`), the rate they are
 * given at, and how that rate adapts to the service's answers. The rate in force is the lowest
 * Max Requests per Second of the node runs using the account (`rates`), lowered while the service
 * throttles this process.
 */
export class AccountBudget {
	readonly slots: TokenBucket;
	/** The rate each node run using the budget asked for, by execution and node. */
	readonly rates = new Map<string, number>();
	private readonly adaptive: AdaptiveRate;
	/** The rate last written to the log, to write it again only once it has moved. */
	private logged: number;

	constructor(ceiling: number) {
		this.slots = new TokenBucket(ceiling);
		this.adaptive = new AdaptiveRate(ceiling);
		this.logged = ceiling;
	}

	/** The requests per second in force now. */
	get rate(): number {
		return this.adaptive.current;
	}

	/** The node runs' rates changed: the lowest is the ceiling. */
	ceilingChanged(): void {
		if (this.rates.size === 0) return;
		this.adaptive.setCeiling(Math.min(...this.rates.values()));
		this.apply();
	}

	/**
	 * An answer to a request sent at `sentAt` came. A throttle lowers the rate at once and, with a
	 * Retry-After, holds every request of the account for that long (at most `maxHoldMs`); once
	 * this process has settled, a throttle that asks for a second at most holds nothing and lowers
	 * the rate only when the account is full (`AdaptiveRate.nudged`): the refused request alone
	 * waits its Retry-After. Any other answer lets the rate rise. Returns a line for the log when
	 * the rate in force moved enough to say so (a fall, a hold, a tenth more, or back at the
	 * ceiling), else undefined.
	 */
	heard(sentAt: number, signal: PaceSignal, maxHoldMs: number): string | undefined {
		const now = clock.now();
		if (!signal.throttled) {
			if (!this.adaptive.succeeded(now, sentAt, this.slots.sendingRate())) return undefined;
			this.apply();
			const back = this.adaptive.atCeiling;
			if (!back && this.rate < this.logged * 1.1) return undefined;
			return this.news(back ? 'back at Max Requests per Second' : 'rising again');
		}
		const holdMs = Math.min(signal.retryAfterMs ?? 0, maxHoldMs);
		if (holdMs <= rateLimits.settledHoldMs && this.settledBefore(sentAt)) {
			const before = this.rate;
			if (!this.adaptive.nudged(now, sentAt)) return undefined;
			this.apply();
			if (this.rate >= before) return undefined;
			return this.news('the service throttled a request; only that one waits, as it asked');
		}
		const newHold = holdMs > 0 && !this.slots.held;
		// Measured before the pause begins: what was sent up to now, since the last pause ended.
		const sending = this.slots.sendingRate();
		const sinceResumed = this.slots.sentSinceResumed(sentAt);
		if (holdMs > 0) this.slots.holdUntil(now + holdMs);
		const fell = this.adaptive.throttled(now, {
			sentAt,
			sending,
			sinceResumed,
			climbFrom: Math.max(now, this.slots.heldUntilTime),
		});
		if (fell) this.apply();
		if (!fell && !newHold) return undefined;
		const wait = newHold ? `; nothing is sent for ${formatSeconds(holdMs)}, as it asked` : '';
		return this.news(`the service throttled this account${wait}`);
	}

	/**
	 * Whether a request sent at `sentAt` went a second or more after this process's last pause
	 * ended: the processes that paused together had settled on their parts by then.
	 */
	private settledBefore(sentAt: number): boolean {
		const resumed = this.slots.heldUntilTime;
		return this.adaptive.adapted && resumed > 0 && sentAt - resumed >= rateLimits.settledAfterMs;
	}

	private apply(): void {
		this.slots.setRate(this.adaptive.current, this.adaptive.adapted);
	}

	private news(why: string): string {
		const from = this.logged;
		this.logged = this.rate;
		return `Ideal House: this process now sends at most ${formatRate(this.rate)} requests a second to the account (was ${formatRate(from)}): ${why}`;
	}
}

function formatRate(rate: number): string {
	return String(Math.round(rate * 10) / 10);
}

function formatSeconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

// One account's request budget in this process: its slots and the rate that adapts to throttles.
// The model: docs/design/request-rate.md
import { clock } from '../core/clock';
import { AdaptiveRate } from './adaptive';
import { TokenBucket } from './bucket';
import { rateLimits } from '../core/limits';

/** What an answer of the service says about the pace of this account's requests. */
export type PaceSignal = { throttled: true; retryAfterMs?: number } | { throttled: false };

/** Its rate: the lowest Max Requests per Second of its node runs, lowered while throttled. */
export class AccountBudget {
	readonly slots: TokenBucket;
	/** By execution and node. */
	readonly rates = new Map<string, number>();
	private readonly adaptive: AdaptiveRate;
	/** Last logged, so the log hears only of real moves. */
	private logged: number;

	constructor(ceiling: number) {
		this.slots = new TokenBucket(ceiling);
		this.adaptive = new AdaptiveRate(ceiling);
		this.logged = ceiling;
	}

	get rate(): number {
		return this.adaptive.current;
	}

	ceilingChanged(): void {
		if (this.rates.size === 0) return;
		this.adaptive.setCeiling(Math.min(...this.rates.values()));
		this.apply();
	}

	/**
	 * A throttle lowers the rate and holds the account for its Retry-After, but once settled a short
	 * one holds only the refused request (`AdaptiveRate.nudged`). Returns a log line on a real move.
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

	/** Sent a second or more after the last pause: the processes had settled on their parts. */
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

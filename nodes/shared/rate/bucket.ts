// At most `rate` requests in any one-second window of an account, as the service sees them.
// The model: docs/design/request-rate.md
import { clock } from '../core/clock';
import { rateLimits } from '../core/limits';

export class TokenBucket {
	private inFlight = 0;
	private readonly answeredAt: number[] = [];
	private readonly givenAt: number[] = [];
	private rate = 1;
	private size = 1;
	private windowMs = 1000;
	private burst = 1;
	private tokens = 1;
	private evenly = false;
	private refilledAt: number;
	/** The service's Retry-After: nothing is sent before it. */
	private heldUntil = 0;
	private firstGivenAt = Infinity;

	constructor(rate: number) {
		this.refilledAt = clock.now();
		this.setRate(rate);
		this.tokens = this.burst;
	}

	/** From the next slot; `evenly`: no burst, one slot every 1/rate seconds at most. */
	setRate(rate: number, evenly = false): void {
		this.refill(clock.now());
		this.rate = rate;
		// A fractional rate (0.5/s) still allows one request, spaced 1/rate seconds apart.
		this.size = Math.max(1, Math.floor(rate));
		this.windowMs = (1000 * this.size) / rate;
		this.burst = evenly ? 1 : Math.min(rateLimits.firstBurst, this.size);
		this.evenly = evenly;
		this.tokens = Math.min(this.tokens, this.burst);
	}

	holdUntil(until: number): void {
		this.heldUntil = Math.max(this.heldUntil, until);
	}

	get held(): boolean {
		return clock.now() < this.heldUntil;
	}

	/** 0: never held. */
	get heldUntilTime(): number {
		return this.heldUntil;
	}

	/** Over the part of the last second it could send in, so one just begun is not taken as slow. */
	sendingRate(): number {
		const now = clock.now();
		this.forgetOld(now);
		const since = Math.max(now - 1000, this.firstGivenAt, Math.min(this.heldUntil, now));
		const given = this.givenAt.filter((at) => at >= since).length;
		return (given * 1000) / Math.max(now - since, 1000 / this.rate);
	}

	/** What it put in the window since a hold that ended within a second before `sentAt`. */
	sentSinceResumed(sentAt: number): number | undefined {
		const resumed = this.heldUntil;
		if (resumed === 0 || resumed > sentAt || sentAt - resumed >= rateLimits.settledAfterMs)
			return undefined;
		return this.givenAt.filter((at) => at >= resumed && at < sentAt).length;
	}

	/** 0: taken; else the wait before trying again, Infinity until an answer frees a slot. */
	tryTake(): number {
		const now = clock.now();
		this.refill(now);
		while (this.answeredAt.length > 0 && this.answeredAt[0] <= now - this.windowMs) {
			this.answeredAt.shift();
		}
		this.forgetOld(now);
		// A request counts until a second after its answer (when its bytes left is unseen); spaced
		// out evenly, requests cannot bunch, so each counts from its slot.
		const windowWait = this.evenly
			? Math.max(this.evenWindowWait(now), this.inFlight < this.size ? 0 : Infinity)
			: this.inFlight + this.answeredAt.length < this.size
				? 0
				: this.answeredAt.length > 0
					? this.answeredAt[0] + this.windowMs - now
					: Infinity;
		// Within a rounding error of a whole token is a token: no waits of a billionth of a second.
		const tokenWait = this.tokens > 1 - 1e-6 ? 0 : ((1 - this.tokens) * 1000) / this.rate;
		const wait = Math.max(windowWait, tokenWait, this.heldUntil - now);
		if (wait > 0) return Math.ceil(wait);
		this.inFlight++;
		this.tokens = Math.max(0, this.tokens - 1);
		this.givenAt.push(now);
		this.firstGivenAt = Math.min(this.firstGivenAt, now);
		return 0;
	}

	answered(): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.answeredAt.push(clock.now());
	}

	unused(): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.tokens = Math.min(this.burst, this.tokens + 1);
		this.givenAt.pop();
	}

	private refill(now: number): void {
		// Tokens do not build up while the account is held: after it, no burst, only the rate.
		const from = Math.max(this.refilledAt, this.heldUntil);
		if (now > from) {
			this.tokens = Math.min(this.burst, this.tokens + ((now - from) * this.rate) / 1000);
		}
		this.refilledAt = now;
	}

	private evenWindowWait(now: number): number {
		const inWindow = this.givenAt.filter((at) => at > now - this.windowMs);
		return inWindow.length < this.size
			? 0
			: inWindow[inWindow.length - this.size] + this.windowMs - now;
	}

	private forgetOld(now: number): void {
		const since = now - Math.max(1000, this.windowMs);
		while (this.givenAt.length > 0 && this.givenAt[0] <= since) this.givenAt.shift();
	}
}

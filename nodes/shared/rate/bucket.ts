import { clock } from '../core/clock';
import { rateLimits } from '../core/limits';

/**
 * At most `rate` requests in any one-second window of an account, as the service sees them.
 * The node cannot see when the bytes leave (n8n's helper first reads the credential, and a busy
 * run delays that), only that they arrived before the answer did. So while requests may go in a
 * burst, a request counts from when its slot is given until one second after its answer: at most
 * `rate` are in flight at once, and the next waits until an answer is a second old.
 *
 * Slots are given at the rate: up to `rateLimits.firstBurst` at once, then one every 1/rate seconds (a
 * token bucket). Once the service has throttled the account (`evenly`), there is no burst at
 * all; requests spaced out cannot bunch the way a burst does, so a request then counts for one
 * second from its slot, and a slow answer no longer slows the pace. Still at most `rate` in flight.
 */
export class TokenBucket {
	private inFlight = 0;
	/** When the answers of the last second came, oldest first. */
	private readonly answeredAt: number[] = [];
	/** When the slots of the last second were given, oldest first: what this process sends. */
	private readonly givenAt: number[] = [];
	private rate = 1;
	private size = 1;
	private windowMs = 1000;
	/** Slots that may go at once; `tokens` of them are ready now, refilled at the rate. */
	private burst = 1;
	private tokens = 1;
	private evenly = false;
	private refilledAt: number;
	/** Until then nothing is sent at all (the service's Retry-After). */
	private heldUntil = 0;
	/** When the first slot was given. */
	private firstGivenAt = Infinity;

	constructor(rate: number) {
		this.refilledAt = clock.now();
		this.setRate(rate);
		this.tokens = this.burst;
	}

	/**
	 * A new rate applies to the next slot; requests already in flight keep counting. `evenly`:
	 * no burst, one slot every 1/rate seconds at most.
	 */
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

	/** Nothing is sent before `until`, whatever the rate allows (a later hold only extends it). */
	holdUntil(until: number): void {
		this.heldUntil = Math.max(this.heldUntil, until);
	}

	/** Whether a hold is in force now. */
	get held(): boolean {
		return clock.now() < this.heldUntil;
	}

	/** When the last hold ends or ended (0: never held). */
	get heldUntilTime(): number {
		return this.heldUntil;
	}

	/**
	 * The rate this process is actually sending at: the slots given in the last second, over the
	 * part of it in which it could send (since its first slot, and since the last hold ended), and
	 * never over less than one slot's spacing at the rate in force: a process that has just begun
	 * is sending at the rate it was allowed, not at one request a second.
	 */
	sendingRate(): number {
		const now = clock.now();
		this.forgetOld(now);
		const since = Math.max(now - 1000, this.firstGivenAt, Math.min(this.heldUntil, now));
		const given = this.givenAt.filter((at) => at >= since).length;
		return (given * 1000) / Math.max(now - since, 1000 / this.rate);
	}

	/**
	 * When a hold ended less than a second before `sentAt`: the slots given since it ended and
	 * before `sentAt`, that is what this process put in the service's one-second window since it
	 * resumed, up to that request. Otherwise undefined.
	 */
	sentSinceResumed(sentAt: number): number | undefined {
		const resumed = this.heldUntil;
		if (resumed === 0 || resumed > sentAt || sentAt - resumed >= rateLimits.settledAfterMs)
			return undefined;
		return this.givenAt.filter((at) => at >= resumed && at < sentAt).length;
	}

	/**
	 * 0 and the request counts as in flight from now; otherwise how long to wait before trying
	 * again, or Infinity while every slot is in flight (an answer frees one: see `answered`).
	 */
	tryTake(): number {
		const now = clock.now();
		this.refill(now);
		while (this.answeredAt.length > 0 && this.answeredAt[0] <= now - this.windowMs) {
			this.answeredAt.shift();
		}
		this.forgetOld(now);
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

	/** A request's answer (or failure) came: it counts for one more window, then frees its slot. */
	answered(): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		this.answeredAt.push(clock.now());
	}

	/** A slot was given but nothing was sent with it: it frees up at once. */
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

	/** Spaced out evenly: how long until fewer than `size` slots were given in the last window. */
	private evenWindowWait(now: number): number {
		const inWindow = this.givenAt.filter((at) => at > now - this.windowMs);
		return inWindow.length < this.size
			? 0
			: inWindow[inWindow.length - this.size] + this.windowMs - now;
	}

	/** Slot times are kept for the last second, or the last window when that is longer. */
	private forgetOld(now: number): void {
		const since = now - Math.max(1000, this.windowMs);
		while (this.givenAt.length > 0 && this.givenAt[0] <= since) this.givenAt.shift();
	}
}

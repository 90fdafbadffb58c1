/**
 * How fast this process may send to one account, learnt from the service's answers: processes on
 * one account share no state, so each falls on a throttle and climbs back while it has none, and
 * together they settle near the account's limit. A CUBIC-like curve that probes past the old limit
 * slowly, since each throttle pauses the whole account (CONTRIBUTING, "How the request rate adapts").
 */

/**
 * The curve's constants, in one object (as `limits`), so that tests and the bench's model of
 * several processes can try others.
 */
export const rateCurve = {
	/**
	 * The rate after a throttle, as a share of what this process was sending. TCP's AIMD halves;
	 * CUBIC and AWS's adaptive mode keep 0.7, which loses less while the processes settle.
	 */
	fall: 0.7,
	/**
	 * Where the climb back stops, as a share of the rate the throttle came at: that rate filled
	 * the account's window together with the other processes' requests, so coming back to all of
	 * it would fill the window again at once. A twentieth left free lets a process back in after
	 * its pause. The same share of a measured part of the window gives the rate after a throttle
	 * that follows a pause.
	 */
	plateau: 0.95,
	/**
	 * Seconds from the end of the Retry-After pause (or from the throttle, without one) until the
	 * climb is back at its plateau: AWS's curve (scale 0.4) takes 2.1 to 3.4 s from a throttle at
	 * 12.5 to 50 requests a second. It is a cubic that flattens as it arrives.
	 */
	recoveryS: 2,
	/**
	 * The probe past the plateau: the rate grows by ((t − recoveryS) / probeDoublingS)³ of the
	 * plateau, t seconds into the climb: +1 % at 24 s, +10 % at 48 s, twice the plateau at 102 s.
	 */
	probeDoublingS: 100,
	/**
	 * Never slower: one request every two seconds still finds out when the limit lifts. A lower
	 * Max Requests per Second is the floor instead: the option is a ceiling (a plan's quota).
	 */
	minRate: 0.5,
};

/** What a throttle came with. */
export interface Throttle {
	/** When the throttled request was sent: one sent by the last fall lowers nothing more. */
	sentAt: number;
	/** The requests a second this process was sending lately, which may be below its rate. */
	sending: number;
	/** When the climb back may begin: when the Retry-After pause ends. */
	climbFrom: number;
	/**
	 * When the request was sent less than a second after a pause ended: the requests this
	 * process sent since then, before it; that is what it got into the account's window.
	 */
	sinceResumed?: number;
}

export class AdaptiveRate {
	private ceiling: number;
	private rate: number;
	/** The rate right after the last fall, and where the climb from it stops. */
	private fallen = 0;
	private plateau = 0;
	/** When the rate last fell; undefined while the service never throttled. */
	private fellAt: number | undefined;
	private climbFrom = 0;

	/** @param ceiling Max Requests per Second: the rate never goes above it. */
	constructor(ceiling: number) {
		this.ceiling = ceiling;
		this.rate = ceiling;
	}

	/** The requests per second in force now. */
	get current(): number {
		return this.rate;
	}

	/** Whether the service has throttled: from then on, requests are spaced out evenly. */
	get adapted(): boolean {
		return this.fellAt !== undefined;
	}

	/** Whether the rate is at Max Requests per Second. */
	get atCeiling(): boolean {
		return this.rate >= this.ceiling;
	}

	/** Max Requests per Second changed: the rate in force never passes it. */
	setCeiling(ceiling: number): void {
		this.ceiling = ceiling;
		this.rate = this.adapted ? Math.min(this.rate, ceiling) : ceiling;
	}

	/**
	 * The service throttled a request: the rate falls at once. A request sent by the time of the
	 * last fall went at the old pace, which that fall already answered: it lowers nothing more
	 * (TCP's one fall per window). True when the rate fell.
	 */
	throttled(now: number, throttle: Throttle): boolean {
		if (this.fellAt !== undefined && throttle.sentAt <= this.fellAt) return false;
		const { fall, plateau } = rateCurve;
		const minRate = this.floor;
		const before = Math.max(minRate, Math.min(this.rate, throttle.sending));
		this.rate = Math.max(minRate, before * fall);
		this.plateau = Math.max(this.rate, before * plateau);
		if (throttle.sinceResumed !== undefined) {
			// Its measured part of the window: no climb back past it, only the probe. Never more
			// than two falls at once, though: resuming behind processes that did not pause, it
			// finds the window full of theirs, and its part looks smaller than it is.
			const share = throttle.sinceResumed * plateau;
			this.rate = Math.max(minRate, Math.min(this.rate, Math.max(share, this.rate * fall)));
			this.plateau = this.rate;
		}
		this.fallen = this.rate;
		this.fellAt = now;
		this.climbFrom = throttle.climbFrom;
		return true;
	}

	/**
	 * A request sent at `sentAt` went through: the rate follows the curve up, never above the
	 * ceiling nor above twice what this process is sending (`sending`, requests a second), so
	 * that a process with little to send does not climb to a rate it never tried. Only a request
	 * sent after the last fall says that the new pace goes through. True when the rate rose.
	 */
	succeeded(now: number, sentAt: number, sending: number): boolean {
		if (this.fellAt === undefined || sentAt <= this.fellAt || this.rate >= this.ceiling) {
			return false;
		}
		const next = Math.min(this.ceiling, this.curve(now), Math.max(2 * sending, this.floor));
		if (next <= this.rate) return false;
		this.rate = next;
		return true;
	}

	/** The slowest the rate falls to: never above the ceiling, or a throttle would speed it up. */
	private get floor(): number {
		return Math.min(rateCurve.minRate, this.ceiling);
	}

	/** The rate the curve allows at `now`. */
	private curve(now: number): number {
		const { recoveryS, probeDoublingS } = rateCurve;
		const t = Math.max(0, (now - this.climbFrom) / 1000);
		if (t < recoveryS) {
			const left = 1 - t / recoveryS;
			return this.plateau - (this.plateau - this.fallen) * left * left * left;
		}
		return this.plateau * (1 + ((t - recoveryS) / probeDoublingS) ** 3);
	}
}

import { rateLimits } from '../core/limits';

/**
 * How fast this process may send to one account, learnt from the service's answers: processes on
 * one account share no state, so each falls on a throttle and climbs back while it has none, and
 * together they settle near the account's limit. A CUBIC-like curve that probes past the old limit
 * slowly, since each throttle pauses the whole account (CONTRIBUTING, "How the request rate adapts").
 */

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
	/** When a throttle last came once settled (`nudged`). */
	private nudgedAt: number | undefined;

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
		const { fall, plateau } = rateLimits;
		const minRate = this.floor;
		const before = Math.max(minRate, Math.min(this.rate, throttle.sending));
		this.rate = Math.max(minRate, before * fall);
		this.plateau = Math.max(this.rate, before * plateau);
		if (throttle.sinceResumed !== undefined) {
			// Its measured part of the window: no climb back past it, only the probe. Never more
			// than `measuredFalls` falls at once, though: resuming behind processes that did not
			// pause, it finds the window full of theirs, and its part looks smaller than it is.
			const share = evenPart(throttle.sinceResumed, this.ceiling) * plateau;
			const deepest = before * fall ** rateLimits.measuredFalls;
			this.rate = Math.max(minRate, Math.min(this.rate, Math.max(share, deepest)));
			this.plateau = this.rate;
		}
		this.fallen = this.rate;
		this.fellAt = now;
		this.climbFrom = throttle.climbFrom;
		return true;
	}

	/**
	 * The service throttled a request once this process had settled (a second or more after its
	 * last pause ended): at the plateau, that is requests of the processes bunching, and the
	 * account keeps its pace; only a probe past the plateau is taken back, to the plateau or to
	 * `nudge` of the rate, whichever is higher. A second throttle within `nudgeMemoryMs` means
	 * the account is full: the rate falls by `nudge`. Either way the climb starts again from the
	 * rate that results. True when this throttle counted (one per pace, as in `throttled`).
	 */
	nudged(now: number, sentAt: number): boolean {
		if (this.fellAt !== undefined && sentAt <= this.fellAt) return false;
		const { nudge, nudgeMemoryMs } = rateLimits;
		const full = this.nudgedAt !== undefined && now - this.nudgedAt < nudgeMemoryMs;
		const lowered = Math.max(this.floor, this.rate * nudge);
		this.rate = full ? lowered : Math.min(this.rate, Math.max(this.plateau, lowered));
		this.plateau = this.rate;
		this.fallen = this.rate;
		this.fellAt = now;
		this.nudgedAt = now;
		this.climbFrom = now;
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
		return Math.min(rateLimits.minRate, this.ceiling);
	}

	/** The rate the curve allows at `now`. */
	private curve(now: number): number {
		const { recoveryS, probeDoublingS } = rateLimits;
		const t = Math.max(0, (now - this.climbFrom) / 1000);
		if (t < recoveryS) {
			const left = 1 - t / recoveryS;
			return this.plateau - (this.plateau - this.fallen) * left * left * left;
		}
		return this.plateau * (1 + ((t - recoveryS) / probeDoublingS) ** 3);
	}
}

/**
 * A part of the window measured in whole requests, taken as the ceiling's even share when it is
 * within `evenPartTolerance` (at least one request) of the ceiling over a whole number of
 * processes; otherwise as measured.
 */
export function evenPart(part: number, ceiling: number): number {
	if (part < 1) return part;
	const processes = Math.max(1, Math.round(ceiling / part));
	const even = ceiling / processes;
	return Math.abs(even - part) <= Math.max(1, even * rateLimits.evenPartTolerance) ? even : part;
}

// How fast this process may send to one account: falls on a throttle, climbs back while none come.
// The model: docs/design/request-rate.md
import { rateLimits } from '../core/limits';

interface Throttle {
	sentAt: number;
	/** Requests a second sent lately, which may be below the rate. */
	sending: number;
	/** When the Retry-After pause ends. */
	climbFrom: number;
	/** Sent within a second of a pause's end: what this process got into the window since. */
	sinceResumed?: number;
}

export class AdaptiveRate {
	private ceiling: number;
	private rate: number;
	private fallen = 0;
	private plateau = 0;
	/** Undefined while the service never throttled. */
	private fellAt: number | undefined;
	private climbFrom = 0;
	private nudgedAt: number | undefined;

	constructor(ceiling: number) {
		this.ceiling = ceiling;
		this.rate = ceiling;
	}

	get current(): number {
		return this.rate;
	}

	/** Once throttled, requests are spaced out evenly. */
	get adapted(): boolean {
		return this.fellAt !== undefined;
	}

	get atCeiling(): boolean {
		return this.rate >= this.ceiling;
	}

	setCeiling(ceiling: number): void {
		this.ceiling = ceiling;
		this.rate = this.adapted ? Math.min(this.rate, ceiling) : ceiling;
	}

	/** Falls at once; true if so. A request sent by the last fall went at the pace it answered. */
	throttled(now: number, throttle: Throttle): boolean {
		if (this.fellAt !== undefined && throttle.sentAt <= this.fellAt) return false;
		const { fall, plateau } = rateLimits;
		const minRate = this.floor;
		const before = Math.max(minRate, Math.min(this.rate, throttle.sending));
		this.rate = Math.max(minRate, before * fall);
		this.plateau = Math.max(this.rate, before * plateau);
		if (throttle.sinceResumed !== undefined) {
			// Its measured part of the window, with no climb past it; at most `measuredFalls` deep, as
			// behind processes that did not pause its part looks smaller than it is.
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

	/** A short throttle once settled: bunching, not the limit, unless a second follows soon. */
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

	/** True when the rate rose; never past twice `sending`, a rate this process never tried. */
	succeeded(now: number, sentAt: number, sending: number): boolean {
		if (this.fellAt === undefined || sentAt <= this.fellAt || this.rate >= this.ceiling) {
			return false;
		}
		const next = Math.min(this.ceiling, this.curve(now), Math.max(2 * sending, this.floor));
		if (next <= this.rate) return false;
		this.rate = next;
		return true;
	}

	/** Never above the ceiling, or a throttle would speed it up. */
	private get floor(): number {
		return Math.min(rateLimits.minRate, this.ceiling);
	}

	/** Cubic: back near the plateau within `recoveryS`, then a probe past it that speeds up. */
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

/** A part counted in whole requests, taken as an even share of the ceiling when near one. */
export function evenPart(part: number, ceiling: number): number {
	if (part < 1) return part;
	const processes = Math.max(1, Math.round(ceiling / part));
	const even = ceiling / processes;
	return Math.abs(even - part) <= Math.max(1, even * rateLimits.evenPartTolerance) ? even : part;
}

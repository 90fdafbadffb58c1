/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * A clock for the nodes on which time moves only when nothing else can: every wait the nodes
 * start (`clock.sleep`) is kept, and once the event loop is idle and no HTTP request is open, the
 * clock jumps to the end of the earliest wait and wakes it. Waits that run side by side (the
 * request budget's, an item's retry backoff, another execution's) then end in the order they
 * would in real time, and a run of minutes takes a moment. The same time can drive several copies
 * of the nodes' clock (one per isolated module registry: one per simulated n8n process) and the
 * local service's clock.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { setImmediate as nextTurn, setTimeout as realWait } from 'node:timers/promises';

import type { clock as nodeClock } from '../../nodes/shared/core/clock';

interface Wait {
	at: number;
	seq: number;
	wake: () => void;
}

/** n8n's HTTP requests as Node reports them: open from their start until their answer is read. */
const REQUEST_CHANNELS = {
	start: 'http.client.request.start',
	done: ['http.client.response.finish', 'http.client.request.error'],
};

export class VirtualTime {
	private waits: Wait[] = [];
	private seq = 0;
	private openRequests = 0;
	private readonly opened = () => this.openRequests++;
	private readonly closed = () => (this.openRequests = Math.max(0, this.openRequests - 1));

	constructor(public now: number) {}

	/** The nodes' clock (one copy per module registry) reads and waits on this time. */
	drive(clock: typeof nodeClock): void {
		clock.now = () => this.now;
		clock.sleep = async (ms: number, signal?: AbortSignal) => await this.sleep(ms, signal);
		clock.random = () => 0.5;
	}

	/** Waits for real HTTP requests (to a local server) to be answered before time moves. */
	watchRequests(): () => void {
		subscribe(REQUEST_CHANNELS.start, this.opened);
		for (const name of REQUEST_CHANNELS.done) subscribe(name, this.closed);
		return () => {
			unsubscribe(REQUEST_CHANNELS.start, this.opened);
			for (const name of REQUEST_CHANNELS.done) unsubscribe(name, this.closed);
		};
	}

	/** Runs `work` to its end, moving time whenever everything is waiting on it. */
	async run<T>(work: Promise<T>): Promise<T> {
		let finished = false;
		const settled = work.finally(() => (finished = true));
		const giveUpAt = Date.now() + 120_000;
		while (!finished) {
			if (Date.now() > giveUpAt) throw new Error('virtual time: the run never finished');
			if (!(await this.idle())) {
				await realWait(1);
				continue;
			}
			const next = this.earliest();
			if (!next) {
				// Nothing waits on time: something is on its way on the wire.
				await realWait(1);
				continue;
			}
			this.now = Math.max(this.now, next.at);
			next.wake();
		}
		return await settled;
	}

	private async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) throw signal.reason;
		await new Promise<void>((resolve, reject) => {
			const wait: Wait = { at: this.now + Math.max(0, ms), seq: this.seq++, wake: resolve };
			const onAbort = () => {
				this.waits = this.waits.filter((other) => other !== wait);
				reject(signal?.reason);
			};
			wait.wake = () => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.waits.push(wait);
		});
	}

	/**
	 * Whether everything has gone as far as it can without time moving: no request open, and
	 * nothing new waiting on time after a real millisecond more, so that a step still on its way
	 * (a callback of Node's thread pool, a library's own timer) on a busy machine is not overtaken.
	 */
	private async idle(): Promise<boolean> {
		for (let turn = 0; turn < 30; turn++) await nextTurn();
		const seen = this.seq;
		if (this.openRequests !== 0) return false;
		await realWait(1);
		for (let turn = 0; turn < 30; turn++) await nextTurn();
		return this.openRequests === 0 && this.seq === seen;
	}

	private earliest(): Wait | undefined {
		let best: Wait | undefined;
		for (const wait of this.waits) {
			if (!best || wait.at < best.at || (wait.at === best.at && wait.seq < best.seq)) best = wait;
		}
		if (best) this.waits = this.waits.filter((wait) => wait !== best);
		return best;
	}
}

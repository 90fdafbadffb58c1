import { sleep } from 'n8n-workflow';

import { untilAborted } from './cancellation';

/**
 * Time and chance as the poller and the rate limit see them. One object so that tests can run
 * minutes of polling in milliseconds and make jitter predictable. A wait ends when its signal
 * fires, also on n8n versions whose `sleep` ignores the signal.
 */
export const clock = {
	now: (): number => Date.now(),
	sleep: async (ms: number, signal?: AbortSignal): Promise<void> =>
		signal ? await untilAborted(signal, sleep(ms, signal)) : await sleep(ms),
	random: (): number => Math.random(),
};

import { sleep } from 'n8n-workflow';

/**
 * Time and chance as the poller and the rate limit see them. One object so that tests can run
 * minutes of polling in milliseconds and make jitter predictable.
 */
export const clock = {
	now: (): number => Date.now(),
	sleep: async (ms: number, signal?: AbortSignal): Promise<void> => await sleep(ms, signal),
	random: (): number => Math.random(),
};

import { sleep } from 'n8n-workflow';

/** Time and chance, replaceable by tests. A wait ends when its signal fires, whatever `sleep` does. */
export const clock = {
	now: (): number => Date.now(),
	sleep: async (ms: number, signal?: AbortSignal): Promise<void> =>
		signal ? await untilAborted(signal, sleep(ms, signal)) : await sleep(ms),
	random: (): number => Math.random(),
};

/** Rejects as soon as the signal fires, whether or not the work below honours it. */
export async function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(signal.reason);
		if (signal.aborted) onAbort();
		else signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([work, aborted]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
		aborted.catch(() => undefined);
	}
}

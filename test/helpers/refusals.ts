/**
 * Inputs a node must refuse before anything is sent or charged: the service answers any request
 * at all (and the wire records it), so a refusal shows as an error with nothing recorded.
 */
import { runNode } from './engine';
import { API_KEY, api, created, recorded, taskResponse } from './api';

/** Answers every create and every read on the API's base URL, for as long as the test runs. */
export function answerAnyRequest(): void {
	api().persist().post(/.*/).reply(200, created('1')).get(/.*/).reply(200, taskResponse('1'));
}

/** The node fails with exactly `message`, emits nothing, sends nothing, and shows no key. */
export async function expectRejected(
	node: 'photoEnhancer' | 'objectRemover',
	parameters: Record<string, unknown>,
	message: string,
	items?: Parameters<typeof runNode>[0]['items'],
) {
	const { error, items: output, run } = await runNode({ node, parameters, items });
	expect(error?.message).toBe(message);
	expect(output).toEqual([]);
	expect(recorded).toEqual([]);
	expect(JSON.stringify(run)).not.toContain(API_KEY);
	return error;
}

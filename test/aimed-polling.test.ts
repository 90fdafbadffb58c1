import { runNode } from './helpers/engine';
import { DONE, PE, clock, queued, requestsTo, running, serveTask } from './helpers/api';
import { eachTestOnAFreshWire } from './helpers/journey';
import { enhance } from './helpers/params';

eachTestOnAFreshWire();

describe('polls go where the results are', () => {
	test('a task 40 % done after 4 s is polled once more, just after its predicted finish', async () => {
		serveTask(PE, '81', running(40), DONE);

		const { items, error } = await runNode({ node: 'photoEnhancer', parameters: enhance() });

		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('Success');
		// Done at 10 s by its progress; polled 300 ms + 3 % of the 6 s to go after that.
		expect(clock.sleeps).toEqual([4000, 6480]);
		expect(requestsTo(PE.result)).toHaveLength(2);
	});

	test('a task queued behind others: every interval until two readings give its pace', async () => {
		serveTask(PE, '82', queued(3), running(20), DONE);

		await runNode({ node: 'photoEnhancer', parameters: enhance() });

		// It started some time after the 4 s poll, so 20 % at 8 s does not give its pace yet.
		expect(clock.sleeps).toEqual([4000, 4000, 4000]);
	});

	test('progress stuck at 0 then jumping: the plain interval, never a later poll', async () => {
		serveTask(PE, '83', running(0), running(0), running(95), DONE);

		await runNode({ node: 'photoEnhancer', parameters: enhance() });

		// 95 % right after 0 % says nothing about the pace: every 4 s, as a plain poller.
		expect(clock.sleeps).toEqual([4000, 4000, 4000, 4000]);
	});

	test('the Poll Interval still bounds the wait while nothing is predicted', async () => {
		serveTask(PE, '84', { ...queued(2), times: 2 }, DONE);

		await runNode({
			node: 'photoEnhancer',
			parameters: enhance({ options: { pollInterval: 5 } }),
		});

		expect(clock.sleeps).toEqual([5000, 5000, 5000]);
	});
});

// The one set-up of the service's suites: the local service started and closed around the tests,
// a fake clock it reads, and a client bound to it.
import type { RunningService, ServiceOptions } from '../../service/server.ts';
import type { ApiResponse, CallOptions, ImageServer, Kind, Route } from './helpers.ts';
import { call, FakeClock, generate, result, sample, start, startImageServer } from './helpers.ts';

/** A running service that also calls its own API; valid from the first hook of each test on. */
export interface LocalService extends RunningService {
	/** The clock of the running service: a fresh one, at the same instant, every start. */
	readonly clock: FakeClock;
	/** Starts it with these options on top of the suite's (for suites that start it per test). */
	start(options?: ServiceOptions): Promise<void>;
	call(method: string, path: string, options?: CallOptions): Promise<ApiResponse>;
	generate(kind: Kind, body: unknown, options?: CallOptions): Promise<ApiResponse>;
	result(kind: Kind, taskId: string, options?: CallOptions): Promise<ApiResponse>;
	/** The URL of one of its sample images. */
	sample(name: string): string;
}

/** When the service starts: before each test, once before the suite, or by each test itself. */
export type StartedBy = 'each test' | 'the suite' | 'the test';

/**
 * Registers the hooks that start the service and close it after, and returns it. It runs on the
 * fake clock unless the options name another `now`.
 */
export function useService(
	options: ServiceOptions = {},
	startedBy: StartedBy = 'each test',
): LocalService {
	let running: RunningService | undefined;
	let clock = new FakeClock();
	const current = (): RunningService => {
		if (!running) throw new Error('the local service is not started yet');
		return running;
	};
	// The closed service stays readable (its stats), for checks a suite makes after its tests.
	let open = false;
	const closeRunning = async () => {
		if (open) await current().close();
		open = false;
	};
	const local: LocalService = {
		get baseUrl() {
			return current().baseUrl;
		},
		get apiKey() {
			return current().apiKey;
		},
		get clock() {
			return clock;
		},
		stats: () => current().stats(),
		balance: (apiKey) => current().balance(apiKey),
		configure: (patch) => current().configure(patch),
		setAccount: (apiKey, credits) => current().setAccount(apiKey, credits),
		reset: () => current().reset(),
		close: closeRunning,
		start: async (extra = {}) => {
			clock = new FakeClock();
			running = await start({ now: clock.now, ...options, ...extra });
			open = true;
		},
		call: (method, path, callOptions) => call(current(), method, path, callOptions),
		generate: (kind, body, callOptions) => generate(current(), kind, body, callOptions),
		result: (kind, taskId, callOptions) => result(current(), kind, taskId, callOptions),
		sample: (name) => sample(current(), name),
	};
	if (startedBy === 'the suite') {
		beforeAll(() => local.start());
		afterAll(closeRunning);
	} else {
		if (startedBy === 'each test') beforeEach(() => local.start());
		afterEach(closeRunning);
	}
	return local;
}

/** A second local server with these input images, up for the whole suite. */
export function useImageServer(routes: Record<string, Route>): Pick<ImageServer, 'url'> {
	let server: ImageServer | undefined;
	beforeAll(async () => {
		server = await startImageServer(routes);
	});
	afterAll(() => server?.close());
	return {
		url: (path) => {
			if (!server) throw new Error('the image server is not started yet');
			return server.url(path);
		},
	};
}

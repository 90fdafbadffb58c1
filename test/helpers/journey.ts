/**
 * The hooks of a test file that runs the nodes in n8n's engine against nock and local servers:
 * every test starts on a fresh wire (see `resetWire`), with an empty log and the default limits,
 * and the servers it started are closed after it.
 */
import nock from 'nock';

import { limits } from '../../nodes/shared/core/limits';
import { logLines } from './engine';
import { resetWire } from './api';
import { startServer, type Handler, type LocalServer } from './local-server';

export interface Journey {
	/** A local server closed after the test. */
	server(handler: Handler): Promise<LocalServer>;
	/** Every line n8n and the nodes logged in this file's tests so far. */
	loggedInFile: string[];
}

export function eachTestOnAFreshWire(): Journey {
	const defaultLimits = { ...limits };
	const servers: LocalServer[] = [];
	const loggedInFile: string[] = [];
	beforeEach(() => {
		resetWire();
		logLines.length = 0;
		Object.assign(limits, defaultLimits);
	});
	afterEach(async () => {
		loggedInFile.push(...logLines);
		for (const running of servers.splice(0)) await running.close();
	});
	afterAll(() => nock.restore());
	return {
		async server(handler) {
			const started = await startServer(handler);
			servers.push(started);
			return started;
		},
		loggedInFile,
	};
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Node's http and https modules are one object for every test file jest runs in a process: on a
 * 2-core machine jest runs all of them in band, in one process. A file that leaves an HTTP mock
 * patched into them sends every later file's requests through the mock's socket wrapper. nock's
 * wrapper takes a body in without backpressure and reports the socket closed before the client
 * has read it, so a large download to a local server fails with ECONNRESET on a busy machine and
 * passes on an idle one. Instead, a file that starts on patched modules fails here, every time,
 * and names the file that left them so.
 */
import http from 'node:http';
import https from 'node:https';
import { relative } from 'node:path';
import { types } from 'node:util';

/** Kept on the shared http module itself: the only object this file and the next one share. */
const LAST_CLEAN_FILE = Symbol.for('ideal-house.test.lastFileStartedOnCleanHttp');

function patchedParts(): string[] {
	const parts: Array<[string, unknown]> = [
		['http.request', http.request],
		['http.get', http.get],
		['http.ClientRequest', http.ClientRequest],
		['https.request', https.request],
		['https.get', https.get],
	];
	// Node's own functions are never proxies, and its client request class is ClientRequest.
	const patched = parts.filter(([, value]) => types.isProxy(value)).map(([name]) => name);
	if (http.ClientRequest.name !== 'ClientRequest' && !patched.includes('http.ClientRequest')) {
		patched.push('http.ClientRequest');
	}
	return patched;
}

const patched = patchedParts();
if (patched.length > 0) {
	// Every file that starts on clean modules is recorded, so the last one recorded left the mock.
	const culprit = Reflect.get(http, LAST_CLEAN_FILE) as string | undefined;
	throw new Error(
		`Node's ${patched.join(', ')} are still patched by an HTTP mock when this test file starts: ` +
			`${culprit ?? 'a test file that ran before it in this process'} left it on. ` +
			'Restore it at the end of that file (nock.restore() in afterAll).',
	);
}
Reflect.set(http, LAST_CLEAN_FILE, relative(process.cwd(), expect.getState().testPath ?? ''));

import { isLocalHost, isLoopbackHost } from '../nodes/shared/core/addresses';
import { serviceOrigin } from '../nodes/shared/rate/slots';
import { redact, withoutSecrets } from '../nodes/shared/core/redact';

const hostOf = (url: string) => new URL(url).hostname;

describe('isLocalHost judges an address as the URL parser writes it', () => {
	const LOCAL = [
		'http://127.0.0.1/',
		'http://127.8.9.10/',
		'http://0.0.0.0/',
		'http://10.0.0.1/',
		'http://100.64.0.1/',
		'http://169.254.169.254/',
		'http://172.16.0.1/',
		'http://172.31.255.255/',
		'http://192.168.1.1/',
		'http://224.0.0.1/',
		'http://2130706433/',
		'http://0x7f000001/',
		'http://017700000001/',
		'http://[::]/',
		'http://[::1]/',
		'http://[::ffff:10.0.0.1]/',
		'http://[64:ff9b::7f00:1]/',
		'http://[fc00::1]/',
		'http://[fe80::1]/',
		'http://localhost/',
		'http://LOCALHOST./',
		'http://api.localhost/',
		'http://printer.local/',
		'http://metadata.google.internal/',
		'http://nas/',
	];
	const PUBLIC = [
		'https://cdn.ideal.house/',
		'http://8.8.8.8/',
		'http://172.32.0.1/',
		'http://100.128.0.1/',
		'http://192.169.0.1/',
		'http://[2606:4700:4700::1111]/',
		'http://[::ffff:8.8.8.8]/',
	];
	test.each([...LOCAL.map((url) => [url, 'local']), ...PUBLIC.map((url) => [url, 'public'])])(
		'%s is %s',
		(url, kind) => {
			expect(isLocalHost(hostOf(url))).toBe(kind === 'local');
		},
	);
});

describe('redaction', () => {
	const echoed = 'k3y-ABCDEF-123456';

	test('removes the key in every spelling an answer may use, and keeps JSON readable', () => {
		const body = `{"a":"${echoed}","b":"${encodeURIComponent(echoed)}"}`;
		expect(JSON.parse(withoutSecrets(body, [echoed]))).toEqual({
			a: '[redacted]',
			b: '[redacted]',
		});
	});

	test('removes echoed credential headers whatever their value, and cuts long texts', () => {
		expect(redact('got APIKEY: other-value; Authorization: Bearer abc.def', [])).toBe(
			'got APIKEY: [redacted]; Authorization: Bearer [redacted]',
		);
		expect(redact('x'.repeat(1000), [], 50)).toBe(`${'x'.repeat(50)}… (950 more characters)`);
	});

	test('leaves a too-short "key" alone rather than blanking ordinary words', () => {
		expect(withoutSecrets('a b c', ['a'])).toBe('a b c');
	});
});

describe('names of this machine, for the account budget', () => {
	test.each([
		['localhost', true],
		['LOCALHOST', true],
		['127.0.0.1', true],
		['127.8.9.10', true],
		['[::1]', true],
		['::1', true],
		// Where a name under .localhost goes is the resolver's choice: not this machine for a key.
		['api.localhost', false],
		['10.0.0.1', false],
		['api.ideal.house', false],
		['::2', false],
	])('%s: %s', (host, loopback) => {
		expect(isLoopbackHost(host)).toBe(loopback);
	});

	test.each([
		['http://127.0.0.1:5002', 'http://localhost:5002/'],
		['HTTPS://API.IDEAL.HOUSE', 'https://api.ideal.house:443//'],
		['http://[::1]:80', 'http://localhost'],
	])('%s and %s are one service', (a, b) => {
		expect(serviceOrigin(a)).toBe(serviceOrigin(b));
	});

	test('another port or path is another service', () => {
		expect(serviceOrigin('http://localhost:5002')).not.toBe(serviceOrigin('http://localhost:5003'));
		expect(serviceOrigin('https://a.example.com/v1')).not.toBe(
			serviceOrigin('https://a.example.com/v2'),
		);
	});
});

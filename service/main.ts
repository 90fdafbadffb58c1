/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
// CLI: `npm run service -- [options]` starts the local stand-in on a fixed port for manual work
// with n8n. Tests use startService() from server.ts instead.
import { parseArgs } from 'node:util';
import type { FaultConfig } from './faults.ts';
import type { ServiceOptions } from './server.ts';
import { mergeFaults } from './config.ts';
import { startService } from './server.ts';
import { SAMPLE_NAMES } from './samples.ts';

const USAGE = `Usage: node service/main.ts [options]

  --port N              port to listen on (default 8787; 0 = any free port)
  --host H              address to bind (default 127.0.0.1)
  --workers N           tasks processed at once per API (default 4; AI 3D: 1 per account)
  --duration-ms N       task duration in ms (default 8000)
  --jitter-ms N         duration varies by up to ± N ms (default 0)
  --failure-rate R      share of tasks that end Failed, 0..1 (default 0)
  --key KEY=CREDITS     an account; repeatable (default local-dev-key=1000)
  --fault-rate KIND=R   inject a fault; repeatable. KIND: reset, http500, http502, http503,
                        http429, code1003, truncated, malformed, latency
  --fault-phase P       before | after | both: when faults hit a create request (default before)
  --fault-endpoint E    limit faults to an endpoint, e.g. photoEnhancer.generate; repeatable
  --latency-ms N        delay of the latency fault (default 500)
  --seed N              seed for ids, failures and faults
  --public-url URL      base URL put in result URLs (e.g. when n8n runs in Docker)
  --progress MODEL      how percentage moves: linear (default) or stuck-then-jump
  --result-bytes N      size of each result image, incompressible (e.g. 4000000 for a 4K
                        photo); default 0: a small gradient
  --style-shape S       nesting of the getStyles answer: groupsAsKeys (default) or
                        namedGroupList
  --house-plan-results N  images in a House Plan result: 1 (default) or 3
  --rate-limit N        requests a second each API key may send; beyond, HTTP 429 with
                        Retry-After (default 0: no limit)
  --help`;

function fail(message: string): never {
	console.error(`${message}\n\n${USAGE}`);
	process.exit(2);
}

function numberOption(name: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (value.trim() === '' || !Number.isFinite(number))
		fail(`--${name} needs a number, got "${value}"`);
	return number;
}

function pairs(name: string, values: string[] | undefined): Array<[string, number]> {
	return (values ?? []).map((entry) => {
		const at = entry.lastIndexOf('=');
		if (at <= 0) fail(`--${name} needs NAME=NUMBER, got "${entry}"`);
		return [entry.slice(0, at), numberOption(name, entry.slice(at + 1)) as number];
	});
}

function parseOptions(): ServiceOptions {
	let parsed;
	try {
		parsed = parseArgs({
			options: {
				port: { type: 'string' },
				host: { type: 'string' },
				workers: { type: 'string' },
				'duration-ms': { type: 'string' },
				'jitter-ms': { type: 'string' },
				'failure-rate': { type: 'string' },
				key: { type: 'string', multiple: true },
				'fault-rate': { type: 'string', multiple: true },
				'fault-phase': { type: 'string' },
				'fault-endpoint': { type: 'string', multiple: true },
				'latency-ms': { type: 'string' },
				seed: { type: 'string' },
				'public-url': { type: 'string' },
				progress: { type: 'string' },
				'result-bytes': { type: 'string' },
				'style-shape': { type: 'string' },
				'house-plan-results': { type: 'string' },
				'rate-limit': { type: 'string' },
				help: { type: 'boolean' },
			},
		}).values;
	} catch (error) {
		fail((error as Error).message);
	}
	if (parsed.help) {
		console.log(USAGE);
		process.exit(0);
	}
	const keys = pairs('key', parsed.key);
	const faultPatch: Record<string, unknown> = Object.fromEntries(
		pairs('fault-rate', parsed['fault-rate']),
	);
	if (parsed['fault-phase'] !== undefined) faultPatch.faultPhase = parsed['fault-phase'];
	if (parsed['fault-endpoint'] !== undefined) faultPatch.endpoints = parsed['fault-endpoint'];
	if (parsed['latency-ms'] !== undefined)
		faultPatch.latencyMs = numberOption('latency-ms', parsed['latency-ms']);
	let faults: FaultConfig;
	try {
		faults = mergeFaults({}, faultPatch);
	} catch (error) {
		fail((error as Error).message);
	}
	return {
		port: numberOption('port', parsed.port) ?? 8787,
		host: parsed.host,
		accounts: keys.length > 0 ? Object.fromEntries(keys) : undefined,
		workers: numberOption('workers', parsed.workers),
		taskDurationMs: numberOption('duration-ms', parsed['duration-ms']),
		taskDurationJitterMs: numberOption('jitter-ms', parsed['jitter-ms']),
		failureRate: numberOption('failure-rate', parsed['failure-rate']),
		faults,
		seed: numberOption('seed', parsed.seed),
		publicUrl: parsed['public-url'],
		progressModel: parsed.progress as ServiceOptions['progressModel'],
		resultBytes: numberOption('result-bytes', parsed['result-bytes']),
		styleShape: parsed['style-shape'] as ServiceOptions['styleShape'],
		housePlanResults: numberOption(
			'house-plan-results',
			parsed['house-plan-results'],
		) as ServiceOptions['housePlanResults'],
		rateLimit: numberOption('rate-limit', parsed['rate-limit']),
	};
}

async function main(): Promise<void> {
	const options = parseOptions();
	let service;
	try {
		service = await startService(options);
	} catch (error) {
		fail(`could not start: ${(error as Error).message}`);
	}
	const stats = service.stats();
	const faults = Object.entries(options.faults ?? {});
	console.log(`Local image API stand-in listening on ${service.baseUrl}`);
	console.log('');
	console.log('n8n credential:');
	console.log(`  Base URL: ${service.baseUrl}`);
	console.log(`  API key:  ${service.apiKey}`);
	for (const [key, credits] of Object.entries(stats.balances))
		console.log(`  account ${key}: ${credits} credits`);
	console.log('');
	console.log('Sample images:');
	for (const name of SAMPLE_NAMES) console.log(`  ${service.baseUrl}/samples/${name}`);
	console.log('');
	console.log(
		`Admin: GET ${service.baseUrl}/__admin/stats, POST /__admin/config, /__admin/accounts, /__admin/reset`,
	);
	if (faults.length > 0) console.log(`Faults: ${JSON.stringify(options.faults)}`);
	if (options.rateLimit)
		console.log(`Rate limit: ${options.rateLimit} requests a second per API key`);
	console.log('Ctrl+C stops it.');

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping.`);
		service.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();

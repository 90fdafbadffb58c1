/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console */
/**
 * Bulk-run benchmark: both nodes through n8n's engine against the local service, whose tasks
 * each take D seconds. The service runs in its own process, as a real one would, so that it
 * counts requests as they arrive rather than when a shared event loop gets to them. Prints and writes (bench/out/) wall time per N items, compared with one
 * item, and with the serial baseline (each item created and awaited before the next starts).
 *
 *   npm run bench                       # D = 10 s, N = 1, 10, 50, 200; serial at N = 10, 50
 *   npm run bench -- --duration 5 --n 1,10 --serial 10
 *   npm run bench -- --render bench/out/a.json,bench/out/b.json   # table + chart of saved runs
 */
import './n8n-env';

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { sleep } from 'n8n-workflow';

import { runNode, type NodeName } from '../test/harness/engine';
import { freePort } from '../test/n8n-app/n8n-process';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
	const index = args.indexOf(`--${name}`);
	return index >= 0 ? args[index + 1] : fallback;
};
const durationS = Number(option('duration', '10'));
const sizes = option('n', '1,10,50,200').split(',').map(Number);
const serialSizes = option('serial', '10,50').split(',').filter(Boolean).map(Number);
const outName = option('out', 'results');
const outDir = join(__dirname, '..', 'bench', 'out');

interface Service {
	baseUrl: string;
	apiKey: string;
	process: ChildProcess;
}

interface Stats {
	requests: { total: number; byEndpoint: Record<string, { total: number }> };
}

async function stats(service: Service): Promise<Stats> {
	return (await (await fetch(`${service.baseUrl}/__admin/stats`)).json()) as Stats;
}

async function startServiceProcess(): Promise<Service> {
	const port = await freePort();
	const apiKey = 'bench-key';
	const child = spawn(
		process.execPath,
		[
			join(__dirname, '..', 'service', 'main.ts'),
			'--port', String(port),
			// Every task takes D: the service is not the bottleneck being measured.
			'--workers', '1000',
			'--duration-ms', String(durationS * 1000),
			'--key', `${apiKey}=1000000000`,
		],
		{ stdio: 'ignore' },
	);
	const service = { baseUrl: `http://127.0.0.1:${port}`, apiKey, process: child };
	for (let attempt = 0; attempt < 100; attempt++) {
		try {
			await stats(service);
			return service;
		} catch {
			await sleep(100);
		}
	}
	child.kill();
	throw new Error('the local service did not start');
}

interface Measure {
	node: NodeName;
	mode: 'concurrent' | 'serial';
	n: number;
	wallS: number;
	pollsPerTask: number;
	peakRps: number;
	peakRssMb: number;
	failed: number;
}

function parameters(node: NodeName, service: Service) {
	return node === 'photoEnhancer'
		? {
				operation: 'enhance',
				imageUrl: `={{ "${service.baseUrl}/samples/living-room.png?item=" + $json.i }}`,
				presetId: 'image-optimization-mls-photo-enhancement',
				imageSize: '1K',
			}
		: {
				operation: 'remove',
				imageUrl: `={{ "${service.baseUrl}/samples/living-room.png?item=" + $json.i }}`,
				emptyType: 'whole_house',
			};
}

async function measure(
	service: Service,
	node: NodeName,
	mode: Measure['mode'],
	n: number,
	run: () => Promise<number>,
): Promise<Measure> {
	const polls = (snapshot: Stats) => snapshot.requests.byEndpoint[`${node}.result`]?.total ?? 0;
	const pollsBefore = polls(await stats(service));
	const samples: Array<[number, number]> = [];
	let peakRss = process.memoryUsage().rss;
	let running = true;
	const sampler = (async () => {
		while (running) {
			samples.push([Date.now(), (await stats(service)).requests.total]);
			peakRss = Math.max(peakRss, process.memoryUsage().rss);
			await sleep(20);
		}
	})();
	const started = Date.now();
	const failed = await run();
	const wallS = (Date.now() - started) / 1000;
	running = false;
	await sampler;
	const pollsAfter = polls(await stats(service));
	let peakRps = 0;
	// Requests counted between two samples at most one second apart (sampled about every 20 ms).
	for (let i = 0; i < samples.length; i++) {
		let j = i;
		while (j + 1 < samples.length && samples[j + 1][0] - samples[i][0] <= 1000) j++;
		peakRps = Math.max(peakRps, samples[j][1] - samples[i][1]);
	}
	return {
		node,
		mode,
		n,
		wallS,
		pollsPerTask: (pollsAfter - pollsBefore) / n,
		peakRps,
		peakRssMb: peakRss / 2 ** 20,
		failed,
	};
}

async function runItems(service: Service, node: NodeName, from: number, count: number): Promise<number> {
	const { items, error } = await runNode({
		node,
		parameters: parameters(node, service),
		items: Array.from({ length: count }, (_, k) => ({ json: { i: from + k } })),
		credentials: { apiKey: service.apiKey, baseUrl: service.baseUrl },
		onError: 'continueRegularOutput',
	});
	if (error) throw new Error(error.message);
	return items.filter((item) => item.json.status !== 'Success').length;
}

function table(rows: Measure[]): string {
	const one = (node: NodeName) => rows.find((row) => row.node === node && row.n === 1)?.wallS ?? Number.NaN;
	const lines = [
		'| node | mode | N | wall (s) | wall(N)/wall(1) | polls per task | peak requests/s | peak RSS (MB) | failed |',
		'|---|---|---:|---:|---:|---:|---:|---:|---:|',
	];
	for (const row of rows) {
		lines.push(
			`| ${row.node} | ${row.mode} | ${row.n} | ${row.wallS.toFixed(1)} | ${(row.wallS / one(row.node)).toFixed(2)} | ${row.pollsPerTask.toFixed(2)} | ${row.peakRps} | ${row.peakRssMb.toFixed(0)} | ${row.failed} |`,
		);
	}
	return lines.join('\n');
}

function chartSvg(rows: Measure[]): string {
	const width = 720;
	const height = 420;
	const pad = { left: 70, right: 20, top: 40, bottom: 50 };
	const maxN = Math.max(...rows.map((row) => row.n));
	const maxWall = Math.max(...rows.map((row) => row.wallS)) * 1.1;
	const x = (n: number) => pad.left + (n / maxN) * (width - pad.left - pad.right);
	const y = (s: number) => height - pad.bottom - (s / maxWall) * (height - pad.top - pad.bottom);
	const colors: Record<string, string> = {
		'photoEnhancer concurrent': '#1f77b4',
		'objectRemover concurrent': '#2ca02c',
		'photoEnhancer serial': '#d62728',
		'objectRemover serial': '#ff7f0e',
	};
	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
		`<rect width="100%" height="100%" fill="white"/>`,
		`<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">Wall time against items per run (task time ${durationS} s)</text>`,
		`<line x1="${pad.left}" y1="${y(0)}" x2="${width - pad.right}" y2="${y(0)}" stroke="black"/>`,
		`<line x1="${pad.left}" y1="${y(0)}" x2="${pad.left}" y2="${pad.top}" stroke="black"/>`,
		`<text x="${width / 2}" y="${height - 12}" text-anchor="middle">items (N)</text>`,
		`<text x="18" y="${height / 2}" text-anchor="middle" transform="rotate(-90 18 ${height / 2})">wall time (s)</text>`,
	];
	for (let tick = 0; tick <= 5; tick++) {
		const s = (maxWall / 5) * tick;
		parts.push(`<text x="${pad.left - 8}" y="${y(s) + 4}" text-anchor="end">${s.toFixed(0)}</text>`);
	}
	for (const n of [...new Set(rows.map((row) => row.n))]) {
		parts.push(`<text x="${x(n)}" y="${y(0) + 18}" text-anchor="middle">${n}</text>`);
	}
	let legendY = pad.top + 10;
	for (const [series, color] of Object.entries(colors)) {
		const points = rows
			.filter((row) => `${row.node} ${row.mode}` === series)
			.sort((a, b) => a.n - b.n)
			.map((row) => `${x(row.n).toFixed(1)},${y(row.wallS).toFixed(1)}`);
		if (points.length === 0) continue;
		parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(' ')}"/>`);
		for (const point of points) {
			const [px, py] = point.split(',');
			parts.push(`<circle cx="${px}" cy="${py}" r="3" fill="${color}"/>`);
		}
		parts.push(`<rect x="${pad.left + 15}" y="${legendY - 9}" width="12" height="12" fill="${color}"/>`);
		parts.push(`<text x="${pad.left + 33}" y="${legendY + 1}">${series}</text>`);
		legendY += 18;
	}
	parts.push('</svg>');
	return parts.join('\n');
}

function report(rows: Measure[]) {
	const markdown = table(rows);
	console.log(`\n${markdown}`);
	mkdirSync(outDir, { recursive: true });
	writeFileSync(join(outDir, `${outName}.md`), `${markdown}\n`);
	writeFileSync(join(outDir, `${outName}.json`), JSON.stringify(rows, null, 2));
	const svgPath = join(outDir, 'wall-time.svg');
	writeFileSync(svgPath, chartSvg(rows));
	try {
		execFileSync('rsvg-convert', [svgPath, '-o', join(outDir, 'wall-time.png')]);
		console.log(`Chart: ${join(outDir, 'wall-time.png')}`);
	} catch {
		console.log(`Chart: ${svgPath} (install librsvg2-bin for the PNG: apt-get install librsvg2-bin)`);
	}
}

async function main() {
	const render = option('render', '');
	if (render) {
		report(render.split(',').flatMap((file) => JSON.parse(readFileSync(file, 'utf8')) as Measure[]));
		return;
	}
	const service = await startServiceProcess();
	const rows: Measure[] = [];
	let next = 0;
	try {
		console.log(`Bench: task time ${durationS} s, N = ${sizes.join(', ')}, serial at N = ${serialSizes.join(', ') || 'none'}`);
		for (const node of ['photoEnhancer', 'objectRemover'] as NodeName[]) {
			for (const n of sizes) {
				// One item's time hangs on a single ±0.5 s poll jitter draw: take the median of three.
				const repeats = n === 1 ? 3 : 1;
				const tries: Measure[] = [];
				for (let r = 0; r < repeats; r++) {
					const from = next;
					next += n;
					tries.push(await measure(service, node, 'concurrent', n, () => runItems(service, node, from, n)));
				}
				const row = tries.sort((a, b) => a.wallS - b.wallS)[Math.floor(tries.length / 2)];
				rows.push(row);
				console.log(`${node} concurrent N=${n}: ${tries.map((t) => t.wallS.toFixed(1)).join(' / ')} s`);
			}
		}
		// The two serial baselines run side by side (they do not share anything) to halve the wait.
		const serialRows = await Promise.all(
			(['photoEnhancer', 'objectRemover'] as NodeName[]).map(async (node) => {
				const out: Measure[] = [];
				for (const n of serialSizes) {
					const from = next;
					next += n;
					out.push(
						await measure(service, node, 'serial', n, async () => {
							let failed = 0;
							for (let k = 0; k < n; k++) failed += await runItems(service, node, from + k, 1);
							return failed;
						}),
					);
					console.log(`${node} serial N=${n}: ${out[out.length - 1].wallS.toFixed(1)} s`);
				}
				return out;
			}),
		);
		rows.push(...serialRows.flat());
	} finally {
		service.process.kill();
	}

	report(rows);
	console.log("(peak requests/s of the serial rows includes the other node's serial run, which ran alongside)");
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console */
/**
 * n8n's verification scan, run the way n8n runs it (`npm run scan`, part of `npm test`).
 *
 * n8n verifies a community package with `@n8n/scan-community-package`: it lints the source the
 * package's provenance points at with `SOURCE_FILE_PATTERNS`, then the published tarball. Both
 * legs use the scanner's own `analyzePackage` with `allowInlineConfig: false`, so an
 * `eslint-disable` comment counts for nothing there. This script runs the same two legs on the
 * checkout and on the tarball `npm pack` makes (with the scanner's default patterns, which
 * include the `.js`/`package.json` files n8n's tarball leg reads), prints every violation and
 * exits non-zero on any. It also refuses a tarball that ships files n8n never loads.
 *
 * Needs `npm run build` first (the tarball is dist/).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}
interface Scanner {
	analyzePackage(dir: string, patterns?: string[]): Promise<ScanResult>;
	SOURCE_FILE_PATTERNS: string[];
}

const repo = resolve(__dirname, '..');

/** What a published file may be: the manifest, the docs npm shows, and what n8n loads from dist/. */
const SHIPPED = [
	/^package\.json$/,
	/^README\.md$/,
	/^LICENSE(\.md)?$/,
	/^CHANGELOG\.md$/,
	/^dist\/.+\.(js|json|svg)$/,
];

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((entry) => statSync(join(dir, entry)).isFile())
		.map((entry) => entry.split('\\').join('/'))
		.sort();
}

/** Inline eslint comments in shipped code: the scanner ignores them, so they hide nothing but intent. */
function inlineDisables(): string[] {
	const hits: string[] = [];
	for (const top of ['nodes', 'credentials']) {
		for (const file of filesUnder(join(repo, top))) {
			readFileSync(join(repo, top, file), 'utf8')
				.split('\n')
				.forEach((line, index) => {
					if (/eslint-disable|eslint-enable|eslint\s+[\w@/-]+\s*:/.test(line))
						hits.push(`${top}/${file}:${index + 1}: ${line.trim()}`);
				});
		}
	}
	return hits;
}

function problemCount(details: string | undefined): number {
	const match = /✖ (\d+) problems?/.exec(details ?? '');
	return match ? Number(match[1]) : 0;
}

function report(leg: string, result: ScanResult): number {
	if (result.passed) {
		console.log(`scan: ${leg}: 0 violations`);
		return 0;
	}
	const count = problemCount(result.details) || 1;
	console.log(`scan: ${leg}: ${count} violation(s): ${result.message ?? ''}`);
	if (result.details) console.log(result.details);
	return count;
}

function packTarball(into: string): { file: string; unpacked: string } {
	const out = execFileSync('npm', ['pack', '--pack-destination', into, '--loglevel=error'], {
		cwd: repo,
		encoding: 'utf8',
	});
	const file = join(into, out.trim().split('\n').pop() as string);
	const unpacked = join(into, 'package');
	execFileSync('tar', ['-xzf', file, '-C', into]);
	return { file, unpacked };
}

async function main() {
	// The scanner ships no type declarations: typed here by what this script uses.
	const scannerModule = '@n8n/scan-community-package/scanner/scanner.mjs';
	const scanner = (await import(scannerModule)) as Scanner;
	let failures = 0;

	const disables = inlineDisables();
	if (disables.length) {
		console.log(
			`scan: inline eslint comments in nodes/ or credentials/ (the scanner ignores them):\n  ${disables.join('\n  ')}`,
		);
		failures += disables.length;
	}

	failures += report(
		'source (n8n SOURCE_FILE_PATTERNS)',
		await scanner.analyzePackage(repo, scanner.SOURCE_FILE_PATTERNS),
	);

	const work = mkdtempSync(join(tmpdir(), 'ideal-house-scan-'));
	try {
		const { file, unpacked } = packTarball(work);
		const shipped = filesUnder(unpacked);
		const stray = shipped.filter((name) => !SHIPPED.some((pattern) => pattern.test(name)));
		const kB = (statSync(file).size / 1024).toFixed(1);
		const unpackedKB = (
			shipped.reduce((sum, name) => sum + statSync(join(unpacked, name)).size, 0) / 1024
		).toFixed(1);
		console.log(
			`scan: tarball ${relative(work, file)}: ${shipped.length} files, ${kB} kB packed, ${unpackedKB} kB unpacked`,
		);
		if (stray.length) {
			console.log(`scan: tarball ships files n8n never loads:\n  ${stray.join('\n  ')}`);
			failures += stray.length;
		}
		failures += report('tarball (default patterns)', await scanner.analyzePackage(unpacked));
	} finally {
		rmSync(work, { recursive: true, force: true });
	}

	if (failures) {
		console.log(`scan: FAILED (${failures} problem(s)); n8n would refuse to verify this package.`);
		process.exit(1);
	}
	console.log('scan: passed: n8n verification scan clean on both legs.');
}

void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development code, not part of the package */
/**
 * The rooms of `nodes/shared` as the code has them: each room's files and lines, and the imports
 * between files, read from the source text. `test/layout.test.ts` holds the rules against it
 * (a room imports only the rooms below it, no circle, no room over a quarter of the lines);
 * `scripts/layout.ts` draws it (`npm run layout`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
export const SHARED = join(ROOT, 'nodes', 'shared');

/** The rooms, from the bottom up: a room may import itself and the rooms before it here. */
export const ROOMS = [
	'core',
	'catalog',
	'files',
	'http',
	'output',
	'photo-files',
	'rate',
	'transport',
	'waiting',
	'item-life',
	'descriptions',
] as const;

/** The largest share of `nodes/shared`'s lines one room may hold. */
export const MAX_ROOM_SHARE = 0.25;

export interface SourceFile {
	/** From the repository's root, e.g. `nodes/shared/item-life/path.ts`. */
	path: string;
	lines: number;
	/** The files of this tree it imports, from the repository's root. */
	imports: string[];
}

export function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative module a file imports, as a path from the repository's root. */
export function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specs = [...text.matchAll(/(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
		(match) => match[1],
	);
	return specs.map((spec) => {
		const target = relative(ROOT, resolve(dirname(file), spec));
		return target.endsWith('.ts') ? target : `${target}.ts`;
	});
}

/** The room of a file of `nodes/shared`. */
export const roomOf = (path: string): string => path.split('/')[2];

export function sharedFiles(): SourceFile[] {
	return sources(SHARED).map((file) => ({
		path: relative(ROOT, file),
		lines: readFileSync(file, 'utf8').split('\n').length,
		imports: importsOf(file),
	}));
}

/** Every circle of files that import each other, each as its files in order. */
export function circles(files: SourceFile[]): string[][] {
	const byPath = new Map(files.map((file) => [file.path, file]));
	const found: string[][] = [];
	const done = new Set<string>();
	const visit = (path: string, trail: string[]) => {
		const at = trail.indexOf(path);
		if (at >= 0) {
			found.push(trail.slice(at));
			return;
		}
		if (done.has(path)) return;
		for (const next of byPath.get(path)?.imports ?? []) {
			if (byPath.has(next)) visit(next, [...trail, path]);
		}
		done.add(path);
	};
	for (const file of files) visit(file.path, []);
	return found;
}

/** The largest share of a room's non-blank lines that may be comments. */
export const MAX_COMMENT_SHARE = 0.15;

/** Non-blank lines, and those of them that are comments (`//` lines, and lines of `/* … *\/` blocks). */
export function commentLines(text: string): { lines: number; comments: number } {
	let lines = 0;
	let comments = 0;
	let inBlock = false;
	for (const raw of text.split('\n')) {
		const line = raw.trim();
		if (line === '') continue;
		lines++;
		if (inBlock) {
			comments++;
			if (line.includes('*/')) inBlock = false;
		} else if (line.startsWith('//')) {
			comments++;
		} else if (line.startsWith('/*')) {
			comments++;
			inBlock = !line.includes('*/');
		}
	}
	return { lines, comments };
}

/** The rooms of `nodes/`: each folder of `nodes/shared`, and each node's own folder. */
export function nodeRooms(): Array<{ room: string; lines: number; comments: number }> {
	const rooms = [
		...readdirSync(SHARED).map((name) => join(SHARED, name)),
		...readdirSync(join(ROOT, 'nodes'))
			.filter((name) => name !== 'shared')
			.map((name) => join(ROOT, 'nodes', name)),
	].filter((dir) => statSync(dir).isDirectory());
	return rooms.map((dir) => {
		const counts = sources(dir).map((file) => commentLines(readFileSync(file, 'utf8')));
		return {
			room: relative(ROOT, dir),
			lines: counts.reduce((sum, count) => sum + count.lines, 0),
			comments: counts.reduce((sum, count) => sum + count.comments, 0),
		};
	});
}

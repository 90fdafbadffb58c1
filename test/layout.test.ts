/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The rooms of `nodes/shared`: a room imports only the rooms below it, never one above, and the
 * node folders never import each other (CONTRIBUTING, the layout of the code).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SHARED = join(ROOT, 'nodes', 'shared');
/** From the bottom up. */
const ROOMS = [
	'basics',
	'catalog',
	'transport',
	'results',
	'storage',
	'waiting',
	'item',
	'descriptions',
];
const NODE_FOLDERS = ['IdealHouse', 'PhotoEnhancer', 'ObjectRemover'];

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative module a file imports, as a path from the repository's root. */
function importsOf(file: string): string[] {
	const text = readFileSync(file, 'utf8');
	const specs = [...text.matchAll(/(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map(
		(match) => match[1],
	);
	return specs.map((spec) => relative(ROOT, resolve(dirname(file), spec)));
}

const roomOf = (path: string) => path.split('/')[2];

test('nodes/shared holds only its rooms', () => {
	const entries = readdirSync(SHARED);
	expect(entries.sort()).toEqual([...ROOMS].sort());
});

test.each(ROOMS)('%s imports only itself and the rooms below it', (room) => {
	const allowed = ROOMS.slice(0, ROOMS.indexOf(room) + 1);
	const wrong = sources(join(SHARED, room)).flatMap((file) =>
		importsOf(file)
			.filter((target) => !target.startsWith('nodes/shared/') || !allowed.includes(roomOf(target)))
			.map((target) => `${relative(ROOT, file)} -> ${target}`),
	);
	expect(wrong).toEqual([]);
});

test.each(NODE_FOLDERS)('nodes/%s imports no other node folder', (folder) => {
	const others = NODE_FOLDERS.filter((other) => other !== folder).map((other) => `nodes/${other}`);
	const wrong = sources(join(ROOT, 'nodes', folder)).flatMap((file) =>
		importsOf(file)
			.filter((target) => others.some((other) => target.startsWith(other)))
			.map((target) => `${relative(ROOT, file)} -> ${target}`),
	);
	expect(wrong).toEqual([]);
});

/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The rooms of `nodes/shared`: a room imports only the rooms below it, never one above; no files
 * import each other in a circle; no room holds more than a quarter of the lines; and the node
 * folders never import each other (CONTRIBUTING, the layout of the code).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import {
	MAX_COMMENT_SHARE,
	MAX_ROOM_SHARE,
	ROOMS,
	ROOT,
	SHARED,
	circles,
	commentLines,
	importsOf,
	nodeRooms,
	roomOf,
	sharedFiles,
	sources,
} from '../scripts/layout-rooms';

const NODE_FOLDERS = ['IdealHouse', 'PhotoEnhancer', 'ObjectRemover'];
const files = sharedFiles();

test('nodes/shared holds only its rooms', () => {
	const entries = readdirSync(SHARED);
	expect(entries.sort()).toEqual([...ROOMS].sort());
});

test.each(ROOMS)('%s imports only itself and the rooms below it', (room) => {
	const allowed: string[] = ROOMS.slice(0, ROOMS.indexOf(room) + 1);
	const wrong = files
		.filter((file) => roomOf(file.path) === room)
		.flatMap((file) =>
			file.imports
				.filter(
					(target) => !target.startsWith('nodes/shared/') || !allowed.includes(roomOf(target)),
				)
				.map((target) => `${file.path} -> ${target}`),
		);
	expect(wrong).toEqual([]);
});

test('no files of nodes/shared import each other in a circle', () => {
	expect(circles(files)).toEqual([]);
});

test(`no room holds more than ${MAX_ROOM_SHARE * 100} % of nodes/shared's lines`, () => {
	const total = files.reduce((sum, file) => sum + file.lines, 0);
	const tooLarge = ROOMS.map((room) => ({
		room,
		share:
			files.filter((file) => roomOf(file.path) === room).reduce((sum, f) => sum + f.lines, 0) /
			total,
	})).filter(({ share }) => share > MAX_ROOM_SHARE);
	expect(tooLarge).toEqual([]);
});

test('the circle check finds a circle where there is one', () => {
	const a = { path: 'nodes/shared/core/a.ts', lines: 1, imports: ['nodes/shared/core/b.ts'] };
	const b = { path: 'nodes/shared/core/b.ts', lines: 1, imports: ['nodes/shared/core/a.ts'] };
	expect(circles([a, b])).toEqual([['nodes/shared/core/a.ts', 'nodes/shared/core/b.ts']]);
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

test(`no room of nodes/ is more than ${MAX_COMMENT_SHARE * 100} % comment lines`, () => {
	const wordy = nodeRooms()
		.filter((room) => room.comments > MAX_COMMENT_SHARE * room.lines)
		.map((room) => `${room.room}: ${((100 * room.comments) / room.lines).toFixed(1)} %`);
	expect(wordy).toEqual([]);
});

test('comment lines are counted as a reader sees them', () => {
	const text = [
		'/**',
		' * Why.',
		' */',
		'const a = 1; // a note',
		'',
		'// one',
		'f(); /* x */',
	].join('\n');
	expect(commentLines(text)).toEqual({ lines: 6, comments: 4 });
});

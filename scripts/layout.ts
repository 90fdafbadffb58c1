/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * Draws the rooms of `nodes/shared` as the code has them (`npm run layout`): one floor a room,
 * from the top room down, each room's files sized by their lines, and the imports between rooms
 * as arrows down the left side (an arrow running up, or a circle of files, would be drawn red).
 * Writes `docs/layout-nodes.svg` and prints the same in words.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { MAX_ROOM_SHARE, ROOMS, ROOT, circles, roomOf, sharedFiles } from './layout-rooms';

const files = sharedFiles();
const total = files.reduce((sum, file) => sum + file.lines, 0);
const floors = [...ROOMS].reverse();

interface Room {
	name: string;
	lines: number;
	files: typeof files;
}
const rooms: Room[] = floors.map((name) => {
	const own = files.filter((file) => roomOf(file.path) === name).sort((a, b) => b.lines - a.lines);
	return { name, lines: own.reduce((sum, file) => sum + file.lines, 0), files: own };
});

/** Imports from room to room, counted by file pairs. */
const arrows = new Map<string, number>();
for (const file of files) {
	for (const target of file.imports) {
		if (!target.startsWith('nodes/shared/')) continue;
		const from = roomOf(file.path);
		const to = roomOf(target);
		if (from === to) continue;
		arrows.set(`${from}>${to}`, (arrows.get(`${from}>${to}`) ?? 0) + 1);
	}
}
const found = circles(files);
const floorOf = (room: string) => floors.indexOf(room as (typeof floors)[number]);

const LANE = 9;
const LEFT = 40 + arrows.size * LANE;
const WIDTH = 1100;
const FLOOR = 86;
const BOX = 64;
const TOP = 70;
const biggest = Math.max(...rooms.map((room) => room.lines));
const scale = (WIDTH - LEFT - 20) / biggest;

const escape = (text: string) =>
	text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const parts: string[] = [];
const height = TOP + floors.length * FLOOR + 40;
parts.push(
	`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="11">`,
	`<rect width="100%" height="100%" fill="white"/>`,
	`<text x="20" y="26" font-size="16" font-weight="bold">nodes/shared: ${rooms.length} rooms, ${total} lines, ${[...arrows.values()].reduce((a, b) => a + b, 0)} imports between rooms</text>`,
	`<text x="20" y="46" fill="#555">A room imports only the rooms below it. Box width: lines of code. Arrows: imports from room to room (file pairs). Largest room: ${Math.round((Math.max(...rooms.map((room) => room.lines)) / total) * 100)} % (at most ${MAX_ROOM_SHARE * 100} %); circles of files: ${found.length}.</text>`,
);
rooms.forEach((room, floor) => {
	const y = TOP + floor * FLOOR;
	const width = Math.max(60, room.lines * scale);
	parts.push(
		`<rect x="${LEFT}" y="${y}" width="${width}" height="${BOX}" fill="#e8eef6" stroke="#345"/>`,
		`<text x="${LEFT + 4}" y="${y + 13}" font-weight="bold">${room.name}/  ${room.lines} lines (${Math.round((room.lines / total) * 100)} %)</text>`,
	);
	let x = LEFT;
	for (const file of room.files) {
		const cell = file.lines * scale;
		parts.push(
			`<rect x="${x.toFixed(1)}" y="${y + 18}" width="${cell.toFixed(1)}" height="${BOX - 18}" fill="#c9d8ea" stroke="white"/>`,
		);
		if (cell > 40) {
			const name = file.path.split('/').pop() as string;
			parts.push(
				`<text x="${(x + 3).toFixed(1)}" y="${y + 32}" font-size="10">${escape(name.length * 5.5 > cell ? `${name.slice(0, Math.floor(cell / 5.5) - 1)}…` : name)}</text>`,
				`<text x="${(x + 3).toFixed(1)}" y="${y + 45}" font-size="10" fill="#555">${file.lines}</text>`,
			);
		}
		x += cell;
	}
});
[...arrows.entries()]
	.sort(([a], [b]) => a.localeCompare(b))
	.forEach(([pair, count], lane) => {
		const [from, to] = pair.split('>');
		const up = floorOf(to) < floorOf(from);
		const y1 = TOP + floorOf(from) * FLOOR + BOX / 2 + (lane % 5) * 3 - 6;
		const y2 = TOP + floorOf(to) * FLOOR + BOX / 2 - (lane % 5) * 3 + 6;
		const x = LEFT - 12 - lane * LANE;
		const colour = up ? '#c00' : '#678';
		parts.push(
			`<path d="M ${LEFT} ${y1} H ${x} V ${y2} H ${LEFT - 4}" fill="none" stroke="${colour}" stroke-width="1.2"/>`,
			`<path d="M ${LEFT - 4} ${y2 - 3} L ${LEFT} ${y2} L ${LEFT - 4} ${y2 + 3} Z" fill="${colour}"/>`,
			`<text x="${x - 2}" y="${(y1 + y2) / 2}" font-size="9" fill="${colour}" text-anchor="end" transform="rotate(-90 ${x - 2} ${(y1 + y2) / 2})">${count}</text>`,
		);
	});
parts.push('</svg>');

const out = join(ROOT, 'docs', 'layout-nodes.svg');
writeFileSync(out, `${parts.join('\n')}\n`);
console.log(`Wrote ${out}`);
for (const room of rooms) {
	console.log(
		`${room.name.padEnd(13)} ${String(room.lines).padStart(5)} lines ${String(Math.round((room.lines / total) * 100)).padStart(3)} %  ${room.files.map((file) => `${file.path.split('/').pop()} ${file.lines}`).join(', ')}`,
	);
}
const upward = [...arrows.keys()].filter((pair) => {
	const [from, to] = pair.split('>');
	return floorOf(to) < floorOf(from);
});
console.log(
	`${arrows.size} room pairs with imports; running up: ${upward.length ? upward.join(', ') : 'none'}; circles of files: ${found.length ? found.map((circle) => circle.join(' -> ')).join('; ') : 'none'}`,
);

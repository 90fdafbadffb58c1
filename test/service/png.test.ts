/* eslint-disable @n8n/community-nodes/no-restricted-imports */
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32, encodePng, gradientPng } from '../../service/png.ts';
import { inspectImage } from '../../service/images.ts';
import { decodePng, decodePngSize } from './helpers.ts';

function chunks(png: Buffer): Array<{ type: string; data: Buffer; crc: number }> {
	const list = [];
	let offset = 8;
	while (offset < png.length) {
		const length = png.readUInt32BE(offset);
		list.push({
			type: png.toString('latin1', offset + 4, offset + 8),
			data: png.subarray(offset + 8, offset + 8 + length),
			crc: png.readUInt32BE(offset + 8 + length),
		});
		offset += 12 + length;
	}
	return list;
}

describe('PNG encoder', () => {
	it('computes CRC-32 like zlib', () => {
		expect(crc32(Buffer.from('IEND', 'latin1'))).toBe(0xae426082);
		const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 31) & 0xff));
		expect(crc32(bytes)).toBe(zlibCrc32(bytes));
		expect(crc32(bytes.subarray(500), crc32(bytes.subarray(0, 500)))).toBe(zlibCrc32(bytes));
	});

	it('writes signature, IHDR, IDAT, IEND with valid CRCs and the exact pixels', () => {
		const width = 7;
		const height = 5;
		const rowA = Buffer.from(Array.from({ length: width * 3 }, (_, i) => (i * 40) & 0xff));
		const rowB = Buffer.from(Array.from({ length: width * 3 }, (_, i) => 255 - i));
		const rowOf = (y: number) => (y < 2 ? rowA : y === 2 ? rowB : rowA);
		const png = encodePng({ width, height, color: 'rgb', row: rowOf });
		const list = chunks(png);
		expect(list.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
		for (const c of list) {
			expect(c.crc).toBe(zlibCrc32(Buffer.concat([Buffer.from(c.type, 'latin1'), c.data])));
		}
		expect(list[0].data).toEqual(Buffer.from([0, 0, 0, 7, 0, 0, 0, 5, 8, 2, 0, 0, 0]));
		const decoded = decodePng(png);
		expect(decoded.bpp).toBe(3);
		decoded.rows.forEach((row, y) => expect(row).toEqual(rowOf(y)));
	});

	it('writes palette and grey images that the inspector reads back', () => {
		const gradient = gradientPng(300, 200, [0, 0, 0], [255, 255, 255]);
		expect(chunks(gradient).map((c) => c.type)).toEqual(['IHDR', 'PLTE', 'IDAT', 'IEND']);
		expect(decodePngSize(gradient)).toEqual({ width: 300, height: 200 });
		const grey = encodePng({
			width: 3,
			height: 2,
			color: 'gray',
			row: () => Buffer.from([0, 128, 255]),
		});
		expect(inspectImage(grey)).toEqual({ format: 'png', width: 3, height: 2, bytes: grey.length });
	});

	it('encodes a 4096 px result quickly (rows repeat)', () => {
		const started = Date.now();
		const png = gradientPng(4096, 3072, [255, 196, 120], [70, 130, 210]);
		expect(Date.now() - started).toBeLessThan(1500);
		expect(png.length).toBeLessThan(200_000);
		expect(decodePngSize(png)).toEqual({ width: 4096, height: 3072 });
	});

	it('rejects impossible sizes and rows of the wrong length', () => {
		expect(() => gradientPng(0, 10, [0, 0, 0], [0, 0, 0])).toThrow(/invalid PNG size/);
		expect(() =>
			encodePng({ width: 2, height: 1, color: 'rgb', row: () => Buffer.alloc(5) }),
		).toThrow(/expected 6/);
	});
});

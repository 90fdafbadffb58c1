/**
 * 3D model files built in a few bytes, for the tests of result files told apart by their bytes:
 * a binary glTF and ZIP archives (a USDZ is a ZIP whose first entry is a USD scene).
 */

/** A small binary glTF: the 12-byte header, then a JSON chunk. */
export function glb(): Buffer {
	const json = Buffer.from('{"asset":{"version":"2.0"}}  ');
	const header = Buffer.alloc(20);
	header.write('glTF', 0, 'latin1');
	header.writeUInt32LE(2, 4);
	header.writeUInt32LE(20 + json.length, 8);
	header.writeUInt32LE(json.length, 12);
	header.write('JSON', 16, 'latin1');
	return Buffer.concat([header, json]);
}

/** A ZIP of stored entries: each a local file header, its name, then its bytes. */
export function zipOf(entries: Array<[name: string, content: string]>): Buffer {
	return Buffer.concat(
		entries.flatMap(([name, content]) => {
			const header = Buffer.alloc(30);
			header.write('PK\x03\x04', 0, 'latin1');
			header.writeUInt16LE(20, 4);
			header.writeUInt32LE(Buffer.byteLength(content), 18);
			header.writeUInt32LE(Buffer.byteLength(content), 22);
			header.writeUInt16LE(Buffer.byteLength(name), 26);
			return [header, Buffer.from(name, 'latin1'), Buffer.from(content, 'latin1')];
		}),
	);
}

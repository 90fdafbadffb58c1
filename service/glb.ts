// The AI 3D result: a small binary glTF 2.0 file (.glb) holding one mesh, a house-shaped block.
// The catalog does not show the real output format; GLB is the common single-file choice, and a
// valid file lets a client test that it stores and passes on a 3D model, not just an image.

const GLB_MAGIC = 0x46546c67; // 'glTF'
const GLB_VERSION = 2;
const CHUNK_JSON = 0x4e4f534a; // 'JSON'
const CHUNK_BIN = 0x004e4942; // 'BIN\0'

const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

// Walls 2 x 1 x 1.5, a ridge roof up to 1.5: values a 32-bit float holds exactly, so the
// accessor's min and max match the stored numbers.
const POSITIONS = [
	[0, 0, 0],
	[2, 0, 0],
	[2, 0, 1.5],
	[0, 0, 1.5],
	[0, 1, 0],
	[2, 1, 0],
	[2, 1, 1.5],
	[0, 1, 1.5],
	[0, 1.5, 0.75],
	[2, 1.5, 0.75],
];

// Counter-clockwise seen from outside, as glTF expects for front faces.
const TRIANGLES = [
	[0, 4, 5, 0, 5, 1], // front wall
	[3, 2, 6, 3, 6, 7], // back wall
	[0, 3, 7, 0, 7, 4], // left wall
	[1, 5, 6, 1, 6, 2], // right wall
	[0, 1, 2, 0, 2, 3], // floor
	[4, 8, 9, 4, 9, 5], // front roof slope
	[7, 6, 9, 7, 9, 8], // back roof slope
	[4, 7, 8, 5, 9, 6], // gables
].flat();

function padded(bytes: Buffer, fill: number): Buffer {
	const extra = (4 - (bytes.length % 4)) % 4;
	return extra === 0 ? bytes : Buffer.concat([bytes, Buffer.alloc(extra, fill)]);
}

function chunk(type: number, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32LE(data.length, 0);
	head.writeUInt32LE(type, 4);
	return Buffer.concat([head, data]);
}

/** A GLB file whose one node carries `name` (the task id, so each result is its own file). */
export function houseModelGlb(name: string): Buffer {
	const positions = Buffer.alloc(POSITIONS.length * 12);
	POSITIONS.flat().forEach((value, index) => positions.writeFloatLE(value, index * 4));
	const indices = padded(Buffer.alloc(TRIANGLES.length * 2), 0);
	TRIANGLES.forEach((value, index) => indices.writeUInt16LE(value, index * 2));
	const binary = Buffer.concat([positions, indices]);

	const gltf = {
		asset: { version: '2.0', generator: 'ideal-house local service' },
		scene: 0,
		scenes: [{ nodes: [0] }],
		nodes: [{ mesh: 0, name }],
		meshes: [{ name: 'house', primitives: [{ attributes: { POSITION: 0 }, indices: 1, mode: 4 }] }],
		accessors: [
			{
				bufferView: 0,
				componentType: FLOAT,
				count: POSITIONS.length,
				type: 'VEC3',
				min: [0, 0, 0],
				max: [2, 1.5, 1.5],
			},
			{ bufferView: 1, componentType: UNSIGNED_SHORT, count: TRIANGLES.length, type: 'SCALAR' },
		],
		bufferViews: [
			{ buffer: 0, byteOffset: 0, byteLength: positions.length, target: ARRAY_BUFFER },
			{
				buffer: 0,
				byteOffset: positions.length,
				byteLength: TRIANGLES.length * 2,
				target: ELEMENT_ARRAY_BUFFER,
			},
		],
		buffers: [{ byteLength: binary.length }],
	};

	const jsonChunk = chunk(CHUNK_JSON, padded(Buffer.from(JSON.stringify(gltf), 'utf8'), 0x20));
	const binChunk = chunk(CHUNK_BIN, padded(binary, 0));
	const header = Buffer.alloc(12);
	header.writeUInt32LE(GLB_MAGIC, 0);
	header.writeUInt32LE(GLB_VERSION, 4);
	header.writeUInt32LE(12 + jsonChunk.length + binChunk.length, 8);
	return Buffer.concat([header, jsonChunk, binChunk]);
}

/**
 * The file-type rules on their own: a verdict only once the bytes suffice, and signatures that
 * an error page or a stray text cannot meet.
 */
import { sniffModelType, sniffResultType, type Extent } from '../nodes/shared/files/file-types';
import { TINY_PNG } from './helpers/api';
import { fileLimits } from '../nodes/shared/core/limits';

function zipOf(names: string[]): Buffer {
	return Buffer.concat(
		names.flatMap((name) => {
			const header = Buffer.alloc(30);
			header.write('PK\x03\x04', 0, 'latin1');
			header.writeUInt16LE(Buffer.byteLength(name), 26);
			return [header, Buffer.from(name, 'latin1')];
		}),
	);
}

const type = (mimeType: string, extension: string) => ({ mimeType, extension });

describe('no verdict from too few bytes', () => {
	test.each([
		['a PNG', TINY_PNG, 8, 'image', type('image/png', 'png')],
		[
			'a GLB',
			Buffer.from('glTF\x02\0\0\0\x40\0\0\0', 'latin1'),
			12,
			'model3d',
			type('model/gltf-binary', 'glb'),
		],
		['a USDZ', zipOf(['scene.usdc']), 40, 'model3d', type('model/vnd.usdz+zip', 'usdz')],
		[
			'an ASCII FBX',
			Buffer.from('; FBX 7.4.0 project file\n'),
			24,
			'model3d',
			type('application/octet-stream', 'fbx'),
		],
	] as const)(
		'%s: undecided until its signature is whole',
		(_name, bytes, needed, accept, verdict) => {
			for (let length = 0; length < needed; length++) {
				expect(sniffResultType(bytes.subarray(0, length), accept, 'partial')).toBeUndefined();
			}
			expect(sniffResultType(bytes.subarray(0, needed), accept, 'partial')).toEqual(verdict);
		},
	);

	test('a ZIP cut inside its first name is not yet a plain ZIP', () => {
		const usdz = zipOf(['scene.usdz']);
		expect(sniffModelType(usdz.subarray(0, 34), 'partial')).toBeUndefined();
		expect(sniffModelType(usdz, 'partial')).toEqual(type('model/vnd.usdz+zip', 'usdz'));
	});

	test('text formats and unknown binaries wait for all the bytes there will be', () => {
		const gltf = Buffer.from('{"asset":{"version":"2.0"},"scenes":[]}');
		expect(sniffResultType(gltf, 'model3d', 'partial')).toBeUndefined();
		expect(sniffResultType(gltf, 'model3d', 'whole')).toEqual(type('model/gltf+json', 'gltf'));
		const binary = Buffer.from([0, 0, 0, 0x20, 1, 2, 3]);
		expect(sniffResultType(binary, 'any', 'partial')).toBeUndefined();
		expect(sniffResultType(binary, 'any', 'whole')).toEqual(
			type('application/octet-stream', 'bin'),
		);
	});
});

describe('glTF', () => {
	test.each([
		[
			'a glTF 2.0 document',
			'{"asset":{"version":"2.0","generator":"x"},"scene":0,"nodes":[]}',
			true,
		],
		['with a byte-order mark and blanks first', '\uFEFF\n {"asset":{"version":"2.0"}}', true],
		[
			'an error envelope with an asset',
			'{"code":1,"message":"no","asset":{"version":"2.0"}}',
			false,
		],
		['an asset without a version', '{"asset":{"generator":"x"}}', false],
		['an asset that is text', '{"asset":"model.glb"}', false],
		['a cut document', '{"asset":{"version":"2.0"},"nodes":[', false],
		['a list', '[{"asset":{"version":"2.0"}}]', false],
	])('%s', (_name, text, isModel) => {
		expect(sniffModelType(Buffer.from(text), 'whole')).toEqual(
			isModel ? type('model/gltf+json', 'gltf') : undefined,
		);
	});

	test('a document longer than the bytes read is judged on its first members', () => {
		const buffers = `"buffers":[{"uri":"data:application/octet-stream;base64,${'A'.repeat(fileLimits.sniffBytes)}"}]}`;
		const long = (start: string) =>
			Buffer.from(`${start},${buffers}`).subarray(0, fileLimits.sniffBytes);
		expect(sniffModelType(long('{"asset":{"version":"2.0"}'), 'head')).toEqual(
			type('model/gltf+json', 'gltf'),
		);
		expect(sniffModelType(long('{"accessors":[{"count":3}]'), 'head')).toEqual(
			type('model/gltf+json', 'gltf'),
		);
		expect(
			sniffModelType(long('{"error":"denied","asset":{"version":"2.0"}'), 'head'),
		).toBeUndefined();
	});
});

describe('OBJ', () => {
	test.each<[string, string, Extent, boolean]>([
		['vertices and a face', 'o room\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n', 'whole', true],
		[
			'faces with texture and normal indices',
			'v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1\n',
			'whole',
			true,
		],
		[
			'vertices only, in the first bytes of a long file',
			'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 1 1',
			'head',
			true,
		],
		['vertices only, the whole file', 'v 0 0 0\nv 1 0 0\nv 0 1 0\n', 'whole', false],
		['text that starts with "v "', 'v 1.2 is retired\nf 1 2 3\n', 'whole', false],
		['a vertex with two coordinates', 'v 1 2\nf 1 1 1\n', 'whole', false],
		['an unknown statement', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nhello world\n', 'whole', false],
	])('%s', (_name, text, extent, isModel) => {
		expect(sniffModelType(Buffer.from(text), extent)).toEqual(
			isModel ? type('model/obj', 'obj') : undefined,
		);
	});
});

describe('ZIP', () => {
	test.each([
		['a model first', ['chair.glb'], type('application/zip', 'zip')],
		[
			'a model after its textures',
			['textures/wood.png', 'chair.obj', 'chair.mtl'],
			type('application/zip', 'zip'),
		],
		['a USD layer first', ['scene.usda', 'tex.png'], type('model/vnd.usdz+zip', 'usdz')],
		['only an HTML page', ['index.html'], undefined],
		['only images', ['a.png', 'b.jpg'], undefined],
	])('%s', (_name, names, verdict) => {
		expect(sniffModelType(zipOf(names), 'whole')).toEqual(verdict);
	});

	test('an API called by name takes any ZIP as a ZIP', () => {
		expect(sniffResultType(zipOf(['index.html']), 'any', 'whole')).toEqual(
			type('application/zip', 'zip'),
		);
	});
});

describe('an API called by name', () => {
	test.each([
		['an HTML page', '<!doctype html><title>403 Forbidden</title>'],
		['an HTML page after blanks', '\r\n  <html><body>Forbidden</body></html>'],
		['XML', '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>'],
		['JSON', '{"code":403,"message":"forbidden"}'],
		['a JSON list', '[]'],
		['plain text', 'Forbidden'],
		['nothing', ''],
	])('%s is no result', (_name, text) => {
		expect(sniffResultType(Buffer.from(text), 'any', 'whole')).toBeUndefined();
	});
});

import type { ResultFiles } from '../catalog/apis';
import { fileLimits } from '../core/limits';

/**
 * File types told apart by their first bytes rather than by a name or a Content-Type, which a
 * file host may get wrong: what an API's result must be, and what a mask may be.
 *
 * Each type needs a signature that an error page cannot meet: a binary magic number, or for the
 * text formats (glTF, OBJ, ASCII FBX) their grammar, not a word that any text may contain.
 */
export interface FileType {
	mimeType: string;
	extension: string;
}

const PNG: FileType = { mimeType: 'image/png', extension: 'png' };
const JPEG: FileType = { mimeType: 'image/jpeg', extension: 'jpg' };
const WEBP: FileType = { mimeType: 'image/webp', extension: 'webp' };
const GLB: FileType = { mimeType: 'model/gltf-binary', extension: 'glb' };
const GLTF: FileType = { mimeType: 'model/gltf+json', extension: 'gltf' };
const OBJ: FileType = { mimeType: 'model/obj', extension: 'obj' };
const FBX: FileType = { mimeType: 'application/octet-stream', extension: 'fbx' };
const USDZ: FileType = { mimeType: 'model/vnd.usdz+zip', extension: 'usdz' };
const ZIP: FileType = { mimeType: 'application/zip', extension: 'zip' };
const UNKNOWN: FileType = { mimeType: 'application/octet-stream', extension: 'bin' };

/**
 * How much of the file the bytes are. `partial`: more is on its way, so only a verdict that more
 * bytes cannot change is given. `head`: the first fileLimits.sniffBytes of a longer file. `whole`: all of it.
 */
export type Extent = 'partial' | 'head' | 'whole';

/** The image formats the service takes and gives: PNG, JPEG, WebP. */
export function sniffImageType(bytes: Buffer): FileType | undefined {
	if (
		bytes.length >= 8 &&
		bytes.readUInt32BE(0) === 0x89504e47 &&
		bytes.readUInt32BE(4) === 0x0d0a1a0a
	) {
		return PNG;
	}
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return JPEG;
	if (
		bytes.length >= 12 &&
		bytes.toString('latin1', 0, 4) === 'RIFF' &&
		bytes.toString('latin1', 8, 12) === 'WEBP'
	) {
		return WEBP;
	}
	return undefined;
}

const ZIP_ENTRY = 'PK\x03\x04';
const ZIP_HEADER_BYTES = 30;
const MODEL_ENTRY = /\.(glb|gltf|obj|mtl|fbx|usd[acz]?)$/i;

/** The names of the ZIP entries whose local headers are whole in these bytes, in order. */
function zipEntryNames(bytes: Buffer): string[] {
	const names: string[] = [];
	// Searching for each header, rather than skipping sizes, also finds the entries after one
	// whose size comes only in a trailing data descriptor.
	for (let at = 0; at >= 0; at = bytes.indexOf(ZIP_ENTRY, at + 4, 'latin1')) {
		if (at + ZIP_HEADER_BYTES > bytes.length) break;
		const end = at + ZIP_HEADER_BYTES + bytes.readUInt16LE(at + 26);
		if (end > bytes.length) break;
		names.push(bytes.toString('latin1', at + ZIP_HEADER_BYTES, end));
	}
	return names;
}

/**
 * A USDZ package has a USD file first; a model archive has a model file among its first entries.
 * The first entry's name decides only once all of it has arrived: a header split across reads is
 * not yet a plain ZIP.
 */
function zipType(bytes: Buffer): FileType | undefined {
	const names = zipEntryNames(bytes.subarray(0, fileLimits.sniffBytes));
	if (names.length === 0) return undefined;
	if (/\.usd[acz]?$/i.test(names[0])) return USDZ;
	return names.some((name) => MODEL_ENTRY.test(name)) ? ZIP : undefined;
}

/** The text of the first bytes, without a byte-order mark or leading blanks. */
function leadingText(bytes: Buffer): string {
	return bytes
		.toString('utf8', 0, Math.min(bytes.length, fileLimits.sniffBytes))
		.replace(/^\uFEFF/, '')
		.trimStart();
}

/** A binary glTF header: magic, version 1 or 2, and a length that covers the header itself. */
function isGlb(bytes: Buffer): boolean {
	return (
		bytes.length >= 12 &&
		bytes.toString('latin1', 0, 4) === 'glTF' &&
		[1, 2].includes(bytes.readUInt32LE(4)) &&
		bytes.readUInt32LE(8) >= 12
	);
}

const FBX_BINARY = 'Kaydara FBX Binary  \0';
const FBX_ASCII = /^; FBX \d+(\.\d+)+ project file/;

/** The top-level members a glTF document may have (glTF 2.0 and 1.0). */
const GLTF_KEYS = new Set([
	'asset',
	'scene',
	'scenes',
	'nodes',
	'meshes',
	'accessors',
	'bufferViews',
	'buffers',
	'materials',
	'textures',
	'images',
	'samplers',
	'animations',
	'skins',
	'cameras',
	'extensionsUsed',
	'extensionsRequired',
	'extensions',
	'extras',
	'programs',
	'shaders',
	'techniques',
]);

interface Member {
	key: string;
	/** The value's JSON text, when all of it is in the bytes read. */
	value?: string;
}

/** The index just past the string that starts at `start`, or -1 when it is cut off. */
function stringEnd(text: string, start: number): number {
	for (let i = start + 1; i < text.length; i++) {
		if (text[i] === '\\') i++;
		else if (text[i] === '"') return i + 1;
	}
	return -1;
}

/**
 * The top-level members of a JSON object, read without parsing all of it: a glTF with its
 * buffers inline can be far larger than the bytes read. Undefined when the text is no object.
 */
function topLevelMembers(text: string): Member[] | undefined {
	if (!text.startsWith('{')) return undefined;
	const members: Member[] = [];
	let open: { key: string; start: number } | undefined;
	let depth = 1;
	const close = (end: number) => {
		if (open) members.push({ key: open.key, value: text.slice(open.start, end).trim() });
		open = undefined;
	};
	for (let i = 1; i < text.length; i++) {
		const ch = text[i];
		if (ch === '"') {
			const end = stringEnd(text, i);
			if (end < 0) break;
			if (depth === 1 && !open) {
				const colon = text.slice(end).match(/^\s*:/);
				if (!colon) return undefined;
				try {
					open = { key: JSON.parse(text.slice(i, end)) as string, start: end + colon[0].length };
				} catch {
					return undefined;
				}
				i = open.start - 1;
			} else {
				i = end - 1;
			}
		} else if (ch === '{' || ch === '[') {
			depth++;
		} else if (ch === '}' || ch === ']') {
			depth--;
			if (depth === 0) {
				close(i);
				return members;
			}
		} else if (ch === ',' && depth === 1) {
			close(i);
		} else if (depth === 1 && !open && !/\s/.test(ch)) {
			return undefined;
		}
	}
	// Cut off by the end of the bytes read: the open member's value is not whole.
	if (open) members.push({ key: open.key });
	return members;
}

function hasGltfAsset(members: Member[]): boolean {
	const asset = members.find((member) => member.key === 'asset');
	if (asset?.value === undefined) return false;
	try {
		const value = JSON.parse(asset.value) as { version?: unknown };
		return typeof value === 'object' && value !== null && typeof value.version === 'string';
	} catch {
		return false;
	}
}

/**
 * A glTF document: an object with only glTF's own top-level members, among them an `asset` with
 * a `version`. An error envelope (`code`, `message`, `error`) has members glTF does not. A long
 * document whose `asset` comes after the bytes read needs glTF's buffer views or accessors.
 */
function isGltf(text: string, extent: Extent): boolean {
	const members = topLevelMembers(text);
	if (!members || members.length === 0) return false;
	if (!members.every((member) => GLTF_KEYS.has(member.key))) return false;
	if (extent === 'whole') {
		try {
			JSON.parse(text);
		} catch {
			return false;
		}
		return hasGltfAsset(members);
	}
	return (
		hasGltfAsset(members) ||
		(!members.some((member) => member.key === 'asset') &&
			members.some((member) => member.key === 'accessors' || member.key === 'bufferViews'))
	);
}

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;
const numbers = (min: number, max: number) =>
	new RegExp(String.raw`^(?:\s+${NUMBER}){${min},${max}}\s*$`);
const REF = String.raw`-?\d+(?:\/-?\d*)?(?:\/-?\d+)?`;
const refs = (min: number) => new RegExp(String.raw`^(?:\s+${REF}){${min},}\s*$`);

/** OBJ statements and what may follow each keyword. */
const OBJ_STATEMENTS = new Map<string, RegExp>(
	Object.entries({
		v: numbers(3, 7),
		vt: numbers(1, 3),
		vn: numbers(3, 3),
		vp: numbers(1, 3),
		f: refs(3),
		l: refs(2),
		p: refs(1),
		o: /^\s+\S/,
		g: /^(\s+\S+)*\s*$/,
		s: /^\s+(on|off|\d+)\s*$/i,
		mtllib: /^\s+\S/,
		usemtl: /^\s+\S/,
		usemap: /^\s+\S/,
		maplib: /^\s+\S/,
		lod: /^\s+\d+\s*$/,
		shadow_obj: /^\s+\S/,
		trace_obj: /^\s+\S/,
	}),
);

/**
 * An OBJ model: every statement in the bytes read is OBJ's grammar, with vertices of numbers, and
 * faces (in a longer file, they may come after its vertices).
 */
function isObj(text: string, extent: Extent): boolean {
	const lines = text.split(/\r?\n/);
	// A line cut off by the end of the bytes read is not judged.
	if (extent !== 'whole') lines.pop();
	let vertices = 0;
	let faces = 0;
	for (const line of lines) {
		const statement = line.trim();
		if (statement === '' || statement.startsWith('#')) continue;
		const keyword = statement.split(/\s/, 1)[0];
		const rule = OBJ_STATEMENTS.get(keyword);
		if (!rule?.test(statement.slice(keyword.length))) return false;
		if (keyword === 'v') vertices++;
		if (keyword === 'f') faces++;
	}
	return vertices > 0 && (faces > 0 || (extent === 'head' && vertices >= 3));
}

/** 3D model files: GLB, glTF, OBJ, FBX (binary or ASCII), USDZ, or a ZIP of them. */
export function sniffModelType(bytes: Buffer, extent: Extent = 'whole'): FileType | undefined {
	if (isGlb(bytes)) return GLB;
	if (bytes.toString('latin1', 0, FBX_BINARY.length) === FBX_BINARY) return FBX;
	if (bytes.toString('latin1', 0, 4) === ZIP_ENTRY) return zipType(bytes);
	const text = leadingText(bytes);
	if (FBX_ASCII.test(text)) return FBX;
	// The text formats are judged on all the bytes there will be, never on a first few.
	if (extent === 'partial') return undefined;
	if (isGltf(text, extent)) return GLTF;
	if (isObj(text, extent)) return OBJ;
	return undefined;
}

/** Text only: no control bytes but tab, line breaks, form feed and escape. */
function isText(bytes: Buffer): boolean {
	const head = bytes.subarray(0, fileLimits.sniffBytes);
	return !head.some(
		(byte) => (byte < 0x20 && ![9, 10, 11, 12, 13, 27].includes(byte)) || byte === 0x7f,
	);
}

/**
 * Any result of an API the node does not list: a known image or model, or another binary file
 * (a video, say). A web page, JSON or other text is an error page, never a paid result.
 */
function sniffAnyType(bytes: Buffer, extent: Extent): FileType | undefined {
	const known = sniffImageType(bytes) ?? sniffModelType(bytes, extent);
	if (known || extent === 'partial') return known;
	if (bytes.toString('latin1', 0, 4) === ZIP_ENTRY) return ZIP;
	if (bytes.length === 0 || isText(bytes)) return undefined;
	return UNKNOWN;
}

/**
 * The file type a result of this kind has, or undefined when the bytes are not one (or, while
 * `partial`, not yet known to be one).
 */
export function sniffResultType(
	bytes: Buffer,
	accept: ResultFiles,
	extent: Extent = 'whole',
): FileType | undefined {
	if (accept === 'image') return sniffImageType(bytes);
	if (accept === 'model3d') return sniffModelType(bytes, extent);
	return sniffAnyType(bytes, extent);
}

/** How a refused download says what the file should have been. */
export const EXPECTED_FILES: Record<ResultFiles, string> = {
	image: 'a PNG, JPEG or WebP image',
	model3d: 'a 3D model (GLB, glTF, OBJ, FBX, USDZ or a ZIP of them)',
	any: 'a result file (an image, a 3D model or another binary file, not a web page or text)',
};

import type { ResultFiles } from '../catalog/apis';
import { fileLimits } from '../core/limits';

// File types told by their first bytes, not a name or Content-Type a host may get wrong, each by
// a signature no error page can meet. Why: docs/design/file-checks.md
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

/** `partial`: more bytes to come (only a final verdict); `head`: the first sniffBytes; `whole`: all. */
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
	// Searched, not skipped by size: an entry may give its size only in a trailing data descriptor.
	for (let at = 0; at >= 0; at = bytes.indexOf(ZIP_ENTRY, at + 4, 'latin1')) {
		if (at + ZIP_HEADER_BYTES > bytes.length) break;
		const end = at + ZIP_HEADER_BYTES + bytes.readUInt16LE(at + 26);
		if (end > bytes.length) break;
		names.push(bytes.toString('latin1', at + ZIP_HEADER_BYTES, end));
	}
	return names;
}

/** A USDZ has a USD file first; a model archive, a model among its first entries. */
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

/** A JSON object's top-level members, without parsing it all (inline buffers may be huge). */
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

/** Only glTF's top-level members (an error envelope has others), with an `asset` and its `version`. */
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

/** OBJ: every statement in OBJ's grammar, with vertices and faces (in a head, faces may come later). */
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

/** Any binary file; text (a web page, JSON) is an error page, never a paid result. */
function sniffAnyType(bytes: Buffer, extent: Extent): FileType | undefined {
	const known = sniffImageType(bytes) ?? sniffModelType(bytes, extent);
	if (known || extent === 'partial') return known;
	if (bytes.toString('latin1', 0, 4) === ZIP_ENTRY) return ZIP;
	if (bytes.length === 0 || isText(bytes)) return undefined;
	return UNKNOWN;
}

/** The file type a result of this kind has; undefined when not (or, while `partial`, not yet). */
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

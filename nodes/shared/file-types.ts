import type { ResultFiles } from './catalog';

/**
 * File types told apart by their first bytes rather than by a name or a Content-Type, which a
 * file host may get wrong: what an API's result must be, and what a mask may be.
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

/** A ZIP's first entry decides: a USD file first makes it a USDZ package. */
function zipType(bytes: Buffer): FileType {
	const nameLength = bytes.length >= 30 ? bytes.readUInt16LE(26) : 0;
	const firstName = bytes.toString('latin1', 30, 30 + nameLength).toLowerCase();
	return /\.usd[acz]?$/.test(firstName) ? USDZ : ZIP;
}

/** 3D model files: GLB, glTF, OBJ, FBX, USDZ, or a ZIP of them. */
export function sniffModelType(bytes: Buffer): FileType | undefined {
	const head = bytes.toString('latin1', 0, Math.min(bytes.length, 512));
	if (head.startsWith('glTF')) return GLB;
	if (head.startsWith('Kaydara FBX Binary')) return FBX;
	if (head.startsWith('PK\x03\x04')) return zipType(bytes);
	const text = head.replace(/^\uFEFF/, '').trimStart();
	if (text.startsWith('{') && text.includes('"asset"')) return GLTF;
	// OBJ is text: comments, then statements such as `mtllib`, `o`, `v 0 0 0`.
	const statements = text.split(/\r?\n/).filter((line) => line.trim() && !line.startsWith('#'));
	if (statements.length > 0 && /^(v|vt|vn|f|o|g|mtllib|usemtl|s)\s/.test(statements[0])) return OBJ;
	return undefined;
}

/** The file type a result of this kind has, or undefined when the bytes are not one. */
export function sniffResultType(bytes: Buffer, accept: ResultFiles): FileType | undefined {
	if (accept === 'image') return sniffImageType(bytes);
	if (accept === 'model3d') return sniffModelType(bytes);
	return sniffImageType(bytes) ?? sniffModelType(bytes) ?? UNKNOWN;
}

/** How a refused download says what the file should have been. */
export const EXPECTED_FILES: Record<ResultFiles, string> = {
	image: 'a PNG, JPEG or WebP image',
	model3d: 'a 3D model (GLB, glTF, OBJ, FBX, USDZ or a ZIP of them)',
	any: 'a file',
};

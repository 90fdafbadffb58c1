/** Image formats the service accepts, recognised by their first bytes rather than by a name. */
export interface ImageType {
	mimeType: string;
	extension: string;
}

const PNG: ImageType = { mimeType: 'image/png', extension: 'png' };
const JPEG: ImageType = { mimeType: 'image/jpeg', extension: 'jpg' };
const WEBP: ImageType = { mimeType: 'image/webp', extension: 'webp' };

export function sniffImageType(bytes: Buffer): ImageType | undefined {
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

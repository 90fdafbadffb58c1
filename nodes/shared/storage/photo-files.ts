import { createHash } from 'crypto';

import type { IExecuteSingleFunctions } from 'n8n-workflow';

import { sniffImageType, type FileType } from '../results/file-types';
import { fieldError } from '../basics/validation';
import type { ObjectBody } from './storage-requests';

/** The spec: every input image at most 20 MB. A larger file is refused before it is uploaded. */
export const photoFileLimits = { maxBytes: 20 * 1024 * 1024 };

/** How many first bytes decide a photo's type. */
const HEAD_BYTES = 16;

export interface PhotoFile extends ObjectBody {
	property: string;
	type: FileType;
}

const TYPES_HINT =
	'The service takes JPEG, PNG and WebP photos of at most 20 MB. The file is judged by its bytes, not by its name or MIME type.';

function megabytes(bytes: number): string {
	return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/**
 * One pass over the file as it is stored (inline, on disk or in S3, whatever n8n's binary mode):
 * its first bytes, size and SHA-256, without holding it. The upload then reads it again.
 */
async function measure(
	ctx: IExecuteSingleFunctions,
	property: string,
	label: string,
): Promise<{ head: Buffer; size: number; sha256: string; open: ObjectBody['open'] }> {
	const binary = ctx.helpers.assertBinaryData(property);
	const hash = createHash('sha256');
	if (!binary.id) {
		const bytes = await ctx.helpers.getBinaryDataBuffer(property);
		if (bytes.length > photoFileLimits.maxBytes) {
			throw fieldError(ctx, label, `is larger than 20 MB (${megabytes(bytes.length)})`, TYPES_HINT);
		}
		return {
			head: bytes.subarray(0, HEAD_BYTES),
			size: bytes.length,
			sha256: hash.update(bytes).digest('hex'),
			open: async () => await ctx.helpers.getBinaryDataBuffer(property),
		};
	}
	const id = binary.id;
	const stream = await ctx.helpers.getBinaryStream(id);
	const head: Buffer[] = [];
	let headBytes = 0;
	let size = 0;
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > photoFileLimits.maxBytes) {
			stream.destroy();
			throw fieldError(ctx, label, 'is larger than 20 MB', TYPES_HINT);
		}
		if (headBytes < HEAD_BYTES) {
			head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
			headBytes += head[head.length - 1].length;
		}
		hash.update(chunk);
	}
	return {
		head: Buffer.concat(head),
		size,
		sha256: hash.digest('hex'),
		open: async () => await ctx.helpers.getBinaryStream(id),
	};
}

/**
 * The item's photos, each checked before anything leaves n8n: present on the item, not empty, a
 * JPEG, PNG or WebP by its bytes, within the size limit.
 */
export async function readPhotoFiles(
	ctx: IExecuteSingleFunctions,
	properties: string[],
): Promise<PhotoFile[]> {
	const binary = ctx.getInputData().binary ?? {};
	const files: PhotoFile[] = [];
	for (const property of properties) {
		const label = `Image Binary Property "${property}"`;
		// An own property only: "__proto__" or "toString" name no file of the item.
		if (!Object.prototype.hasOwnProperty.call(binary, property) || !binary[property]) {
			const available = Object.keys(binary);
			throw fieldError(
				ctx,
				label,
				`is not on the item (${available.length ? `it has: ${available.join(', ')}` : 'it has no binary data'})`,
				'Name the binary property that holds the photo, as the previous node output it (a form upload uses the field name, Google Drive and HTTP Request use "data").',
			);
		}
		const { head, size, sha256, open } = await measure(ctx, property, label);
		if (size === 0) throw fieldError(ctx, label, 'is empty', TYPES_HINT);
		const type = sniffImageType(head);
		if (!type) throw fieldError(ctx, label, 'is not a JPEG, PNG or WebP image', TYPES_HINT);
		files.push({ property, type, size, sha256, contentType: type.mimeType, open });
	}
	return files;
}

import type { IExecuteSingleFunctions } from 'n8n-workflow';

import type { ImageSize } from '../catalog/apis';
import { fieldError, NOTHING_SENT } from '../core/validation';
import { failureText } from '../http/network';
import type { FileType } from '../files/file-types';
import { ImageHeaderReader, readImageHeader, type ImageVerdict } from '../files/image-header';
import type { SizedImage } from './image-sizes';
import { fileLimits } from '../core/limits';

// The one check of an image from an item's binary property or base64 text, before anything is
// sent (docs/photo-files.md#image-checks). A file n8n stores by id is streamed, never held whole.

type FileStream = Awaited<ReturnType<IExecuteSingleFunctions['helpers']['getBinaryStream']>>;

export interface ImageFile extends SizedImage {
	property: string;
	type: FileType;
	/** Bytes, as the check counted them. */
	size: number;
	/** The file once more, from where n8n keeps it: a stream is read once. */
	open(): Promise<Buffer | FileStream>;
}

/** Where an image comes from and what the API asks of it, as its messages say them. */
export interface ImageField {
	/** The field that names the image: `Input Binary Field`, `Mask (Base64)`. */
	field: string;
	/** What the file is, for the hint when the item does not have it: `the photo`. */
	holds: string;
	/** What the API takes, told with every refusal of the file itself. */
	rules: string;
	/** The smallest image the API takes, where its spec gives one, and the API's name. */
	smallest?: { size: ImageSize; api: string };
}

const CUT_HINT =
	'The file stops short, as a download or an upload that did not finish leaves it: take it from its source again.';
const HOLLOW_HINT =
	'Its header gives a picture that its bytes do not hold, as a damaged or hand-made file does: export the image again.';

function megabytes(bytes: number): string {
	return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

interface Measured {
	verdict: ImageVerdict;
	size: number;
	open: ImageFile['open'];
}

/** Bytes held already (n8n's default mode keeps an item's files in the item), judged at once. */
function measured(bytes: Buffer, open: ImageFile['open']): Measured {
	return { verdict: readImageHeader(bytes), size: bytes.length, open };
}

/** One pass for header and size; a stream is left as soon as it is too large or refused. */
async function measure(
	ctx: IExecuteSingleFunctions,
	property: string,
	label: string,
): Promise<Measured> {
	const binary = ctx.helpers.assertBinaryData(property);
	if (!binary.id) {
		const bytes = await ctx.helpers.getBinaryDataBuffer(property);
		if (bytes.length > fileLimits.imageMaxBytes) {
			throw tooLarge(ctx, label, `(${megabytes(bytes.length)})`);
		}
		return measured(bytes, async () => await ctx.helpers.getBinaryDataBuffer(property));
	}
	const id = binary.id;
	const reader = new ImageHeaderReader();
	let size = 0;
	let tooBig = false;
	try {
		const stream = await ctx.helpers.getBinaryStream(id);
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			size += chunk.length;
			tooBig = size > fileLimits.imageMaxBytes;
			reader.push(chunk);
			if (tooBig || reader.verdict?.ok === false) {
				stream.destroy();
				break;
			}
		}
	} catch (error) {
		throw fileGone(ctx, label, error);
	}
	if (tooBig) throw tooLarge(ctx, label);
	return {
		verdict: reader.verdict ?? reader.end(),
		size,
		open: async () => await ctx.helpers.getBinaryStream(id),
	};
}

/** n8n holds the item's entry for the file, but no longer the file (pruned, or gone with its run). */
function fileGone(ctx: IExecuteSingleFunctions, label: string, error: unknown) {
	return fieldError(
		ctx,
		label,
		'names a file n8n no longer has in its binary data',
		`n8n said: ${failureText(error, [])}. The file was stored by an earlier run or node and has been deleted since (n8n prunes old executions' data). Run the workflow again from the node that makes the file. Nothing was sent or charged.`,
	);
}

function tooLarge(ctx: IExecuteSingleFunctions, label: string, detail?: string) {
	return fieldError(
		ctx,
		label,
		`is larger than 20 MB${detail ? ` ${detail}` : ''}`,
		'The service takes images of at most 20 MB.',
	);
}

/** The file's verdict as the item's error, or its type and size when it passes. */
function judge(
	ctx: IExecuteSingleFunctions,
	label: string,
	{ verdict, size }: Pick<Measured, 'verdict' | 'size'>,
	image: ImageField,
) {
	if (size === 0) throw fieldError(ctx, label, 'is empty', image.rules);
	if (!verdict.ok) {
		if (!verdict.format) {
			throw fieldError(ctx, label, 'is not a JPEG, PNG or WebP image', image.rules);
		}
		const whole = verdict.cut || verdict.hollow;
		const problem = `is not a ${whole ? 'whole' : 'readable'} ${verdict.format}: ${verdict.reason}`;
		const hint = verdict.cut ? CUT_HINT : verdict.hollow ? HOLLOW_HINT : undefined;
		throw fieldError(ctx, label, problem, hint ? `${hint} ${image.rules}` : image.rules);
	}
	const { width, height } = verdict;
	const smallest = image.smallest;
	if (smallest && (width < smallest.size.width || height < smallest.size.height)) {
		const least = `${smallest.size.width} × ${smallest.size.height} px`;
		throw fieldError(
			ctx,
			label,
			`is ${width} × ${height} px; the ${smallest.api} takes photos from ${least}`,
			`Give a photo of at least ${least}. A larger one than the service works at is fine: it is scaled down.`,
		);
	}
	return verdict;
}

/** The image in the item's binary property `property`, checked; refused as an item error. */
export async function readImageFile(
	ctx: IExecuteSingleFunctions,
	property: string,
	image: ImageField,
): Promise<ImageFile> {
	const label = `${image.field} "${property}"`;
	const binary = ctx.getInputData().binary ?? {};
	// An own property only: "__proto__" or "toString" name no file of the item.
	if (!Object.prototype.hasOwnProperty.call(binary, property) || !binary[property]) {
		const available = Object.keys(binary);
		throw fieldError(
			ctx,
			label,
			`is not on the item (${available.length ? `it has: ${available.join(', ')}` : 'it has no binary data'})`,
			`Name the binary field that holds ${image.holds}, as the previous node output it (a form upload uses the field name, Google Drive and HTTP Request use "data").`,
		);
	}
	const file = await measure(ctx, property, label);
	const { type, width, height } = judge(ctx, label, file, image);
	return { property, label, type, width, height, size: file.size, open: file.open };
}

/** Image bytes given in a field (base64 text, decoded), checked as a file is; their size. */
export function checkImageBytes(
	ctx: IExecuteSingleFunctions,
	bytes: Buffer,
	image: ImageField,
): SizedImage {
	if (bytes.length > fileLimits.imageMaxBytes) {
		throw tooLarge(ctx, image.field, `(${megabytes(bytes.length)})`);
	}
	const verdict = readImageHeader(bytes);
	const { width, height } = judge(ctx, image.field, { verdict, size: bytes.length }, image);
	return { label: image.field, width, height };
}

/** A checked file as base64, encoded as it streams, never past the size the check measured. */
export async function imageBase64(
	ctx: IExecuteSingleFunctions,
	file: ImageFile,
	image: ImageField,
): Promise<string> {
	const body = await file.open();
	if (Buffer.isBuffer(body)) return body.toString('base64');
	const parts: string[] = [];
	let carry = Buffer.alloc(0);
	let read = 0;
	for await (const chunk of body as FileStream & AsyncIterable<Buffer>) {
		read += chunk.length;
		if (read > file.size) {
			body.destroy();
			throw fieldError(
				ctx,
				`${image.field} "${file.property}"`,
				'changed while it was read',
				`Run the workflow again: the file changed between its check and its upload. ${NOTHING_SENT}`,
			);
		}
		const bytes = Buffer.concat([carry, chunk]);
		// Whole groups of three bytes encode alone; the rest waits for the next chunk.
		const whole = bytes.length - (bytes.length % 3);
		parts.push(bytes.toString('base64', 0, whole));
		carry = bytes.subarray(whole);
	}
	parts.push(carry.toString('base64'));
	return parts.join('');
}

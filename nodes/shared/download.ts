import type { IBinaryData, IExecuteSingleFunctions, IN8nHttpFullResponse } from 'n8n-workflow';

import { executionStopSignal } from './cancellation';
import { httpStatusError } from './errors';
import { sniffImageType } from './images';
import { networkError } from './transport';

/** The parts of Node's Readable used here (nodes may not import node:stream). */
interface ByteStream extends AsyncIterable<Buffer> {
	pipe: unknown;
	read(): Buffer | null;
	unshift(chunk: Buffer): void;
	on(event: string, listener: (...args: never[]) => void): unknown;
	once(event: string, listener: (...args: never[]) => void): unknown;
	off(event: string, listener: (...args: never[]) => void): unknown;
	destroy(error?: Error): unknown;
}

function isByteStream(body: unknown): body is ByteStream {
	return (
		typeof body === 'object' &&
		body !== null &&
		typeof (body as ByteStream).pipe === 'function' &&
		typeof (body as ByteStream).unshift === 'function' &&
		typeof (body as ByteStream).read === 'function'
	);
}

/** The first chunk that arrives (empty at the end), left unread on the stream. */
async function peek(stream: ByteStream): Promise<Buffer> {
	const head = await new Promise<Buffer>((resolve, reject) => {
		const settle = (done: () => void) => {
			stream.off('readable', onReadable);
			stream.off('end', onEnd);
			stream.off('error', onError);
			done();
		};
		const onReadable = () => {
			const chunk = stream.read();
			if (chunk !== null) settle(() => resolve(chunk));
		};
		const onEnd = () => settle(() => resolve(Buffer.alloc(0)));
		const onError = (error: Error) => settle(() => reject(error));
		stream.on('readable', onReadable);
		stream.once('end', onEnd);
		stream.once('error', onError);
	});
	if (head.length > 0) stream.unshift(head);
	return head;
}

/** At most `limit` bytes of an error body, for the message; the rest is dropped. */
async function readSome(stream: ByteStream, limit = 64 * 1024): Promise<string> {
	const parts: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		parts.push(chunk);
		size += chunk.length;
		if (size >= limit) break;
	}
	stream.destroy();
	return Buffer.concat(parts).toString('utf8').slice(0, limit);
}

function wholeBody(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	return Buffer.from(typeof body === 'string' ? body : '');
}

function fileNameFor(taskId: string, url: string, extension: string): string {
	const last = url.split('?')[0].split('/').pop() ?? '';
	return /\.[a-z0-9]{2,5}$/i.test(last) ? decodeURIComponent(last) : `ideal-house-${taskId}.${extension}`;
}

/**
 * Downloads a result image into n8n's binary data. The response body is streamed into
 * `prepareBinaryData`, so in filesystem mode the image goes to disk as it arrives and is never
 * held whole in memory; in memory mode n8n keeps its one copy. When the helper hands back a
 * finished body rather than a stream (older n8n, or an HTTP mock), that body is used as it is.
 *
 * Sent without the credential: result URLs are public links, possibly on another host, and the
 * API key must only ever go to the service itself.
 */
export async function downloadResultImage(
	ctx: IExecuteSingleFunctions,
	taskId: string,
	url: string,
): Promise<IBinaryData> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			abortSignal: executionStopSignal(ctx),
		})) as IN8nHttpFullResponse;
	} catch (error) {
		throw networkError.call(ctx, error);
	}
	const body: unknown = response.body;
	const stream = isByteStream(body) ? body : undefined;
	const whole = stream ? undefined : wholeBody(body);

	if (response.statusCode >= 400) {
		const text = stream ? await readSome(stream).catch(() => '') : (whole as Buffer).toString('utf8');
		throw httpStatusError(ctx.getNode(), response.statusCode, text, ctx.getItemIndex());
	}
	try {
		const head = stream ? await peek(stream) : (whole as Buffer);
		const sniffed = sniffImageType(head);
		const contentType = response.headers?.['content-type'];
		const mimeType =
			sniffed?.mimeType ??
			(typeof contentType === 'string' ? contentType.split(';')[0] : undefined) ??
			'application/octet-stream';
		const fileName = fileNameFor(taskId, url, sniffed?.extension ?? 'bin');
		return await ctx.helpers.prepareBinaryData(
			(stream ?? whole) as Parameters<typeof ctx.helpers.prepareBinaryData>[0],
			fileName,
			mimeType,
		);
	} catch (error) {
		stream?.destroy();
		throw networkError.call(ctx, error);
	}
}

import type {
	IBinaryData,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';

import { isLocalHost } from '../core/addresses';
import { executionStopSignal, stoppedError } from '../core/cancellation';
import { untilAborted } from '../core/clock';
import { IdealHouseApiError, rewrittenByN8n, type IdealHouseError } from '../core/errors';
import type { Retry } from '../core/outcome';
import { fileLimits, limits } from '../core/limits';
import { bounded, redact } from '../core/redact';
import { secretsOf } from '../catalog/service';
import type { ResultFiles } from '../catalog/apis';
import { EXPECTED_FILES, sniffResultType, type Extent } from '../files/file-types';
import { guardedRequest, sendGuarded } from '../http/http';
import { failureText, networkFailure, networkRetry, type NetworkFailure } from '../http/network';
import { retryAfterMs } from '../http/responses';

/** The parts of Node's Readable used here (nodes may not import node:stream). */
interface ByteStream extends AsyncIterable<Buffer> {
	pipe: unknown;
	read(): Buffer | null;
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
		typeof (body as ByteStream).read === 'function'
	);
}

/** The first bytes of a body, and whether they are all of it. */
interface Head {
	bytes: Buffer;
	ended: boolean;
}

const extentOf = (head: Head): Extent =>
	head.ended ? 'whole' : head.bytes.length >= fileLimits.sniffBytes ? 'head' : 'partial';

/**
 * Reads until the bytes can be judged (a host may send a few bytes at a time), up to
 * `fileLimits.sniffBytes`; judged again only once they doubled, so tiny pieces cost few passes.
 */
async function readHead(stream: ByteStream, accept: ResultFiles): Promise<Head> {
	return await new Promise<Head>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let nextJudgement = 1;
		const settle = (done: () => void) => {
			stream.off('readable', onReadable);
			stream.off('end', onEnd);
			stream.off('error', onError);
			done();
		};
		const head = (ended: boolean): Head => ({ bytes: Buffer.concat(chunks, size), ended });
		const onReadable = () => {
			for (let chunk = stream.read(); chunk !== null; chunk = stream.read()) {
				chunks.push(chunk);
				size += chunk.length;
				if (size >= fileLimits.sniffBytes) return settle(() => resolve(head(false)));
				if (size < nextJudgement) continue;
				nextJudgement = size * 2;
				const sofar = head(false);
				if (sniffResultType(sofar.bytes, accept, 'partial')) return settle(() => resolve(sofar));
			}
		};
		const onEnd = () => settle(() => resolve(head(true)));
		const onError = (error: Error) => settle(() => reject(error));
		stream.on('readable', onReadable);
		stream.once('end', onEnd);
		stream.once('error', onError);
	});
}

interface ReadableClass {
	from(source: AsyncIterable<Buffer>): ByteStream;
}

/** Node's Readable, from the stream's prototype chain: nodes may not import node:stream. */
function readableClassOf(stream: ByteStream): ReadableClass | undefined {
	for (let proto = Object.getPrototypeOf(stream); proto; proto = Object.getPrototypeOf(proto)) {
		const candidate = (proto as { constructor?: { name?: string; from?: unknown } }).constructor;
		if (candidate?.name === 'Readable' && typeof candidate.from === 'function')
			return candidate as unknown as ReadableClass;
	}
	return undefined;
}

/**
 * The whole body again as one stream: the first bytes, already read to check the type, then the
 * rest as it arrives. (Putting the bytes back with `unshift` leaves a stream whose end has been
 * received unable to flow again, which n8n 1.x's memory mode waits on forever.)
 */
async function rejoined(head: Head, rest: ByteStream): Promise<ByteStream | Buffer> {
	const Readable = readableClassOf(rest);
	if (Readable) {
		return Readable.from(
			(async function* () {
				yield head.bytes;
				if (head.ended) return;
				for await (const chunk of rest) yield chunk;
			})(),
		);
	}
	if (head.ended) return head.bytes;
	const chunks = [head.bytes];
	for await (const chunk of rest) chunks.push(chunk);
	return Buffer.concat(chunks);
}

/** At most `limit` bytes of a body that is not the image (an error page), for the message. */
async function readSome(stream: ByteStream, limit = fileLimits.sniffBytes): Promise<Buffer> {
	const parts: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		parts.push(chunk);
		size += chunk.length;
		if (size >= limit) break;
	}
	stream.destroy();
	return Buffer.concat(parts).subarray(0, limit);
}

function wholeBody(body: unknown): Buffer {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	return Buffer.from(typeof body === 'string' ? body : '');
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		// A bare "%" (100%.png) is not an escape: the name is kept as written.
		return text;
	}
}

/** A safe file name from the URL, else from the task id; the extension always matches the bytes. */
function fileNameFor(taskId: string, url: string, extension: string): string {
	const last = safeDecode(url.split(/[?#]/)[0].split('/').pop() ?? '');
	const name = Array.from(last.split(/[/\\]/).pop() ?? '', (ch) =>
		ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127 || '<>:"|?*'.includes(ch) ? '_' : ch,
	)
		.join('')
		.replace(/^[.\s]+/, '')
		.trim();
	const stem = name.replace(/\.[a-z0-9]{2,5}$/i, '');
	if (stem === name || stem === '') return `ideal-house-${taskId}.${extension}`;
	return `${stem.slice(0, 100)}.${extension}`;
}

/** What a download that failed on the way says, by how it failed. */
const FILE_HOST_FAILURES: Record<NetworkFailure, string> = {
	secretNotSent: 'n8n did not send the request',
	noConnection: 'n8n could not connect to the file host',
	tlsHandshake: 'n8n could not open a secure connection to the file host',
	connectionCut: 'the connection to the file host broke',
	notHttp: 'the file host answered with something that is not HTTP',
	unknown: 'the request to the file host ended without an answer',
};

/** A result file that was not downloaded; `reason` says why in a few words, for a list of files. */
export class DownloadError extends IdealHouseApiError {
	declare reason: string;
}

/** Why a result was not downloaded, as a failed item says it. */
export function downloadError(
	ctx: IExecuteSingleFunctions,
	taskId: string,
	reason: string,
	retry?: Retry,
): DownloadError {
	const error = new DownloadError(
		ctx.getNode(),
		{ message: reason } as JsonObject,
		{
			message: `The result of task ${taskId} was not downloaded: ${reason}`,
			description: `The task finished and was paid for. Fetch it again with the Get Result operation and task ID ${taskId}${retry ? ' in a moment' : ''}, or open its result URL yourself.`,
			itemIndex: ctx.getItemIndex(),
		},
		{ kind: 'created', taskId, ...(retry && { retry }) },
	);
	error.reason = reason;
	return error;
}

interface DownloadRules {
	/** The local service's own host, the one local address a result link may have (see output.ts). */
	localServiceHost: string | undefined;
	/** The most this attempt may take, redirects and the whole body included. */
	timeoutMs: number;
	/** What the file must be, by its bytes. */
	accept: ResultFiles;
}

/** The download rules, applied to the first address and to every redirect. */
function refusal(url: URL, localServiceHost: string | undefined): string | undefined {
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return `its address is not http(s) (${url.protocol.slice(0, 20)})`;
	}
	if (url.hostname !== localServiceHost && isLocalHost(url.hostname)) {
		return `its address ${url.host.slice(0, 100)} is in a private or local network, which a result link never is`;
	}
	return undefined;
}

function tooLarge(ctx: IExecuteSingleFunctions, taskId: string, bytes: number): IdealHouseApiError {
	const cap = limits.downloadMaxBytes;
	const capText = cap >= 1024 * 1024 ? `${Math.round(cap / 1024 / 1024)} MB` : `${cap} bytes`;
	return downloadError(ctx, taskId, `the file is larger than ${capText} (${bytes} bytes)`);
}

/** What n8n stored: its own count (n8n 2.x), else the inline bytes (memory mode). */
function storedBytes(binary: IBinaryData): number | undefined {
	const counted = (binary as IBinaryData & { bytes?: number }).bytes;
	if (typeof counted === 'number') return counted;
	return binary.id ? undefined : Buffer.byteLength(binary.data ?? '', 'base64');
}

/** Stop during a result's download: the task exists and is named, and nothing is tried again. */
export function downloadStopped(ctx: IExecuteSingleFunctions, taskId: string): IdealHouseError {
	return stoppedError(
		ctx,
		`Execution stopped while downloading the result of task ${taskId}`,
		`The task is done and paid for: fetch its result later with the Get Result operation and task ID ${taskId}.`,
		{ kind: 'created', taskId },
	);
}

/**
 * Downloads a result file, streamed into n8n's binary data. Sent without the credential (the key
 * goes only to the service); redirects followed one at a time so each address is checked.
 */
export async function downloadResultFile(
	ctx: IExecuteSingleFunctions,
	taskId: string,
	address: string,
	rules: DownloadRules,
): Promise<IBinaryData> {
	const stop = executionStopSignal(ctx);
	const secrets = await secretsOf(ctx);
	const timeoutMs = Math.max(1, Math.round(rules.timeoutMs));
	const stopped = () => downloadStopped(ctx, taskId);
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		throw downloadError(ctx, taskId, 'the service gave a result URL that is not a valid address');
	}
	// One time limit for the attempt, redirects included.
	const request = guardedRequest(
		{ method: 'GET', encoding: 'stream', url: '' },
		{ timeoutMs, stop },
	);
	for (let hop = 0; ; hop++) {
		const refused = refusal(url, rules.localServiceHost);
		if (refused) throw downloadError(ctx, taskId, refused);
		const failed = (error: unknown): IdealHouseError => {
			if (stop.aborted) return stopped();
			if (request.timedOut()) {
				return downloadError(
					ctx,
					taskId,
					`the file host did not send the file within ${Math.round(timeoutMs / 100) / 10} s`,
					{ reason: 'no answer in time' },
				);
			}
			const failure = networkFailure(error);
			const said = failureText(error, secrets);
			// No system code in the message: n8n would replace it with advice to retry.
			const reason =
				failure.kind !== 'unknown' || rewrittenByN8n(said)
					? FILE_HOST_FAILURES[failure.kind]
					: `${FILE_HOST_FAILURES.unknown}: ${said}`;
			return downloadError(ctx, taskId, reason, networkRetry(failure));
		};
		let response: IN8nHttpFullResponse;
		try {
			const hopRequest = { ...request, options: { ...request.options, url: url.href } };
			response = await sendGuarded(hopRequest, async (sent) => await ctx.helpers.httpRequest(sent));
		} catch (error) {
			throw failed(error);
		}
		const stream = isByteStream(response.body) ? response.body : undefined;
		const whole = stream ? undefined : wholeBody(response.body);
		const status = response.statusCode;
		const location = response.headers?.location;
		if (status >= 300 && status < 400 && typeof location === 'string') {
			stream?.destroy();
			if (hop >= limits.downloadMaxRedirects)
				throw downloadError(ctx, taskId, 'too many redirects');
			try {
				url = new URL(location, url);
			} catch {
				throw downloadError(ctx, taskId, 'a redirect to an address that is not valid');
			}
			continue;
		}
		if (status >= 300) {
			const text = (
				stream ? await readSome(stream).catch(() => Buffer.alloc(0)) : (whole as Buffer)
			).toString('utf8');
			const snippet = redact(
				text
					.replace(/<[^>]*>/g, ' ')
					.replace(/\s+/g, ' ')
					.trim(),
				secrets,
				200,
			);
			const transient = status === 429 || status >= 500;
			throw downloadError(
				ctx,
				taskId,
				`the file host answered HTTP ${status}${snippet ? `: ${snippet}` : ''}`,
				transient
					? { reason: `HTTP ${status}`, afterMs: retryAfterMs(response.headers) }
					: undefined,
			);
		}
		const announced = Number(response.headers?.['content-length']);
		const size = whole ? whole.length : announced;
		if (Number.isFinite(size) && size > limits.downloadMaxBytes) {
			stream?.destroy();
			throw tooLarge(ctx, taskId, size);
		}
		let head: Head;
		try {
			head = stream
				? await untilAborted(request.signal, readHead(stream, rules.accept))
				: { bytes: whole as Buffer, ended: true };
		} catch (error) {
			stream?.destroy();
			throw failed(error);
		}
		const sniffed = sniffResultType(head.bytes, rules.accept, extentOf(head));
		if (!sniffed) {
			stream?.destroy();
			const contentType = response.headers?.['content-type'];
			const said =
				typeof contentType === 'string'
					? ` (the host called it ${bounded(contentType.split(';')[0], 60)})`
					: '';
			throw downloadError(ctx, taskId, `the file is not ${EXPECTED_FILES[rules.accept]}${said}`);
		}
		let binary: IBinaryData;
		try {
			const body = stream ? await rejoined(head, stream) : (whole as Buffer);
			binary = await untilAborted(
				request.signal,
				ctx.helpers.prepareBinaryData(
					body as Parameters<typeof ctx.helpers.prepareBinaryData>[0],
					fileNameFor(taskId, address, sniffed.extension),
					sniffed.mimeType,
				),
			);
		} catch (error) {
			stream?.destroy();
			throw failed(error);
		}
		const stored = storedBytes(binary);
		if (stored !== undefined && stored > limits.downloadMaxBytes)
			throw tooLarge(ctx, taskId, stored);
		return binary;
	}
}

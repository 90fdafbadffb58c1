import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { stoppedError } from '../basics/cancellation';
import { IdealHouseItemError, type IdealHouseError } from '../basics/errors';
import { storageLimits } from '../basics/limits';
import { guardedRequest, sendGuarded } from '../http/http';
import { codeInChain, failureText, networkCode } from '../http/network';
import { bodyText } from '../http/responses';
import { backoffMs, withRetries } from '../http/retries';
import { objectUrl, type StorageSettings } from './settings';
import { signRequestFor } from './signed-request';
import {
	notS3Error,
	readS3Answer,
	storageAnswerError,
	storageNetworkError,
	type StorageStep,
} from './storage-errors';

/**
 * The node's own requests to the bucket: signed here with the storage credential and sent with
 * n8n's plain HTTP helper, so that the Ideal House key, which only the authenticated helper adds,
 * never goes to the storage host. No redirect is followed; every request has a time limit and
 * ends at once on Stop.
 */

async function send(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	step: StorageStep,
	options: IHttpRequestOptions,
	stop: AbortSignal,
): Promise<IN8nHttpFullResponse> {
	const request = guardedRequest(
		{ ...options, encoding: 'text', json: false },
		{ timeoutMs: storageLimits.requestTimeoutMs, stop },
	);
	try {
		return await sendGuarded(request, async (sent) => await ctx.helpers.httpRequest(sent));
	} catch (error) {
		if (stop.aborted) throw uploadStopped(ctx);
		// Rebuilt from scratch: the helper's error carries the request and its signed headers.
		const code = networkCode(error) ?? errorCode(error);
		const reason = request.timedOut()
			? `no answer within ${storageLimits.requestTimeoutMs / 1000} s`
			: `network error ${code ?? 'unknown'}`;
		throw storageNetworkError(ctx, settings, step, reason, code);
	}
}

/**
 * A code such as `ERR_TLS_CERT_ALTNAME_INVALID` or `DEPTH_ZERO_SELF_SIGNED_CERT` from the error or
 * its causes: only a word of that shape is taken, never a message.
 */
function errorCode(error: unknown): string | undefined {
	return codeInChain(error, (code) => /^[A-Z][A-Z0-9_]{1,63}$/.test(code));
}

/**
 * The photo's bytes, opened again for the PUT. n8n may have lost the file since it was checked (a
 * trigger's temporary file cleared by another run, its storage failing): nothing was sent.
 */
async function openForUpload(ctx: IExecuteSingleFunctions, body: ObjectBody): Promise<unknown> {
	try {
		return await body.open();
	} catch (error) {
		throw photoLost(ctx, error);
	}
}

/** The cause goes in the description: n8n replaces a message that names a system error code. */
function photoLost(ctx: IExecuteSingleFunctions, error: unknown): IdealHouseItemError {
	const itemIndex = ctx.getItemIndex();
	const cause = failureText(error, []);
	return new IdealHouseItemError(
		ctx.getNode(),
		`n8n could not read the photo again to upload it [item ${itemIndex}]`,
		{
			itemIndex,
			description: `n8n no longer has the file it checked (${cause}): a temporary file cleared by another run, or its binary data storage failing. Run the item again. Nothing was sent to Ideal House and no credit was spent.`,
		},
		{ kind: 'neverSent' },
	);
}

/** Stop during an upload: nothing was created, nothing charged. */
export function uploadStopped(ctx: IExecuteSingleFunctions): IdealHouseError {
	return stoppedError(
		ctx,
		'Execution stopped while the photo was being uploaded',
		'Nothing was sent to Ideal House and no credit was spent.',
		{ kind: 'neverSent' },
	);
}

function failed(response: IN8nHttpFullResponse): boolean {
	return response.statusCode < 200 || response.statusCode >= 300;
}

function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = Object.entries(response.headers ?? {}).find(
		([given]) => given.toLowerCase() === name,
	)?.[1];
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The start of a web page: what a sign-in page or a web console sends, never S3. */
const HTML_BODY = /<!doctype\s+html|<html[\s>]/i;
const HTML_TYPE = /^(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/**
 * Why a 2xx answer to a PUT is not S3's, or undefined when it is. S3, MinIO, R2 and the stores
 * that copy them send a strong, quoted ETag and no body; a weak ETag (`W/"…"`) or an HTML page
 * comes from a web server, a proxy or a sign-in page, which stored nothing S3 could serve.
 */
function notStoredAsS3(response: IN8nHttpFullResponse): string | undefined {
	const etag = header(response, 'etag');
	if (etag === undefined) return 'without an ETag';
	if (/^W\//i.test(etag)) return 'with a weak ETag';
	if (!/^"[^"]*"$/.test(etag)) return 'with an unquoted ETag';
	const type = header(response, 'content-type');
	const body = bodyText(response.body).slice(0, 4096);
	if ((type !== undefined && HTML_TYPE.test(type)) || HTML_BODY.test(body)) {
		return 'with an HTML page';
	}
	return undefined;
}

/** A file as n8n's binary helpers stream it, typed without importing `stream` (not allowed in nodes). */
export type FileStream = Awaited<ReturnType<IExecuteSingleFunctions['helpers']['getBinaryStream']>>;

export interface ObjectBody {
	contentType: string;
	size: number;
	sha256: string;
	/** A fresh body for each attempt: a stream is read once. */
	open(): Promise<Buffer | FileStream>;
}

/**
 * PUT of one object, its body's SHA-256 signed so that the storage refuses a body that changed on
 * the way. Repeated on a network error or a 5xx; anything else fails at once, a 2xx that S3
 * would not send too (without a strong ETag, or with an HTML page: the object may not be stored).
 */
export async function putObject(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	key: string,
	body: ObjectBody,
	stop: AbortSignal,
): Promise<void> {
	return await withRetries(
		ctx,
		async () => {
			const signed = signRequestFor(
				settings,
				{
					method: 'PUT',
					url: objectUrl(settings, key),
					headers: { 'Content-Type': body.contentType, 'x-amz-content-sha256': body.sha256 },
				},
				new Date(),
			);
			const response = await send(
				ctx,
				settings,
				'upload',
				{
					...signed,
					headers: { ...signed.headers, 'Content-Length': String(body.size) },
					body: (await openForUpload(ctx, body)) as IHttpRequestOptions['body'],
				},
				stop,
			);
			if (!failed(response)) {
				const notS3 = notStoredAsS3(response);
				if (notS3 !== undefined) throw notS3Error(ctx, settings, response.statusCode, notS3);
				return;
			}
			const answer = readS3Answer(response.statusCode, bodyText(response.body), response.headers);
			throw storageAnswerError(ctx, settings, 'upload', answer);
		},
		{
			next: (error, attempt) =>
				error.outcome.retry && attempt < storageLimits.putAttempts
					? { retryInMs: backoffMs(storageLimits.retryBaseMs, attempt) }
					: { giveUp: error },
			stoppedWhileWaiting: () => uploadStopped(ctx),
		},
	);
}

/** DELETE of one object; S3 answers 204 whether or not it was there. */
export async function deleteObject(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	key: string,
	stop: AbortSignal,
): Promise<void> {
	const signed = signRequestFor(
		settings,
		{ method: 'DELETE', url: objectUrl(settings, key) },
		new Date(),
	);
	const response = await send(ctx, settings, 'delete', signed, stop);
	if (failed(response)) {
		throw storageAnswerError(
			ctx,
			settings,
			'delete',
			readS3Answer(response.statusCode, bodyText(response.body), response.headers),
		);
	}
}

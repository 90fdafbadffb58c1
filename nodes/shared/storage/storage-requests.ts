import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { stoppedError } from '../basics/cancellation';
import { guardedRequest, sendGuarded } from '../transport/http';
import type { IdealHouseError } from '../basics/errors';
import { backoffMs, withRetries } from '../transport/retries';
import { codeInChain, networkCode, bodyText } from '../transport/transport';
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
export const storageLimits = {
	/** One PUT or DELETE, answer included. */
	requestTimeoutMs: 120_000,
	/** A PUT is idempotent: it is repeated on a network error or a 5xx. */
	putAttempts: 4,
	retryBaseMs: 1000,
};

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

/** Stop during an upload: nothing was created, nothing charged. */
export function uploadStopped(ctx: IExecuteSingleFunctions): IdealHouseError {
	return stoppedError(
		ctx,
		'Execution stopped while the photo was being uploaded',
		'Nothing was sent to Ideal House and no credit was spent.',
	);
}

function failed(response: IN8nHttpFullResponse): boolean {
	return response.statusCode < 200 || response.statusCode >= 300;
}

/** S3 answers every stored object with its ETag; a 2xx without one came from something else. */
function etagOf(response: IN8nHttpFullResponse): string | undefined {
	const etag = Object.entries(response.headers ?? {}).find(
		([name]) => name.toLowerCase() === 'etag',
	)?.[1];
	return typeof etag === 'string' && etag.trim() !== '' ? etag : undefined;
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
 * the way. Repeated on a network error or a 5xx; anything else fails at once, a 2xx without an
 * ETag too (not S3's answer, so the object may not be stored).
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
					body: (await body.open()) as IHttpRequestOptions['body'],
				},
				stop,
			);
			if (!failed(response)) {
				if (etagOf(response) === undefined) throw notS3Error(ctx, settings, response.statusCode);
				return;
			}
			const answer = readS3Answer(response.statusCode, bodyText(response.body), response.headers);
			throw storageAnswerError(ctx, settings, 'upload', answer);
		},
		(error, attempt) => {
			if (!error.transient || attempt >= storageLimits.putAttempts) throw error;
			return backoffMs(storageLimits.retryBaseMs, attempt);
		},
		() => uploadStopped(ctx),
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

import type { IExecuteSingleFunctions, JsonObject } from 'n8n-workflow';

import { IdealHouseApiError } from '../basics/errors';
import { redact } from '../basics/redact';
import { STORAGE_CREDENTIAL_LABEL, storageName, type StorageSettings } from './settings';

/** What the nodes ask of the storage; each failure says which. */
export type StorageStep = 'upload' | 'delete';

export interface S3Answer {
	status: number;
	/** S3's error code (`NoSuchBucket`, …), when the body holds one. */
	code?: string;
	message?: string;
	/** S3's message quoted the signed request, and was dropped. */
	messageLeftOut?: boolean;
	/** The bucket's real region, when the answer names it. */
	region?: string;
}

function tag(xml: string, name: string): string | undefined {
	const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
	return match ? match[1].trim() : undefined;
}

/**
 * Text of the signed request: the Authorization header (`AWS4-HMAC-SHA256 Credential=…,
 * SignedHeaders=…, Signature=…`) or a presigned link's query. S3 and the stores that copy it may
 * quote the request in `<Message>`, and with it the key id and the signature.
 */
const SIGNED_REQUEST_TEXT =
	/authorization|aws4-hmac-sha256|credential=|signature=|signedheaders=|x-amz-(?:signature|credential|security-token)/i;

/** `NoSuchBucket`, `SlowDown`: what an S3 error code looks like. Anything else is not quoted. */
const S3_CODE = /^[A-Za-z0-9.]{1,64}$/;
/** `eu-west-1`, `auto`: what a region looks like. */
const S3_REGION = /^[A-Za-z0-9_-]{1,64}$/;

function shaped(text: string | undefined, shape: RegExp): string | undefined {
	return text !== undefined && shape.test(text) ? text : undefined;
}

/**
 * S3's XML error body, and the region header S3 adds when the bucket lives elsewhere. Only what
 * can be quoted safely is kept: a code and a region of their usual shape, and a message that does
 * not quote the signed request (`messageLeftOut` says one was dropped).
 */
export function readS3Answer(
	status: number,
	body: string,
	headers: Record<string, unknown> | undefined,
): S3Answer {
	const regionHeader = headers?.['x-amz-bucket-region'];
	const message = tag(body, 'Message');
	const quotesRequest = message !== undefined && SIGNED_REQUEST_TEXT.test(message);
	return {
		status,
		code: shaped(tag(body, 'Code'), S3_CODE),
		message: quotesRequest ? undefined : message,
		messageLeftOut: quotesRequest || undefined,
		region: shaped(
			typeof regionHeader === 'string' ? regionHeader : tag(body, 'Region'),
			S3_REGION,
		),
	};
}

const FIX = `in the "${STORAGE_CREDENTIAL_LABEL}" credential`;

/** What the answer means and what to do, by S3 error code first and status second. */
function meaning(answer: S3Answer, settings: StorageSettings): { what: string; todo: string } {
	const wrongRegion = () => ({
		what: `the bucket is not in region "${settings.region}"${answer.region ? ` but in "${answer.region}"` : ''}`,
		todo: `Set Region to ${answer.region ? `"${answer.region}"` : "the bucket's region"} ${FIX} (auto for Cloudflare R2).`,
	});
	switch (answer.code) {
		case 'InvalidAccessKeyId':
			return {
				what: 'the access key ID is not known to the storage (InvalidAccessKeyId)',
				todo: `Copy the Access Key ID again ${FIX}, and check that Endpoint is the storage the key belongs to.`,
			};
		case 'SignatureDoesNotMatch':
			return {
				what: 'the secret access key does not belong to the access key ID (SignatureDoesNotMatch)',
				todo: `Copy the Secret Access Key again ${FIX}.`,
			};
		case 'NoSuchBucket':
			return {
				what: 'there is no such bucket at this endpoint (NoSuchBucket)',
				todo: `Check Bucket, Endpoint and Force Path Style ${FIX} (MinIO and most self-hosted stores need Force Path Style on).`,
			};
		case 'AccessDenied':
			return {
				what: 'the key may not do this (AccessDenied)',
				todo: 'Give the key s3:PutObject, s3:GetObject and s3:DeleteObject on the ideal-house-uploads/ prefix of the bucket (see "Photos that are files" in the README).',
			};
		case 'AuthorizationHeaderMalformed':
		case 'PermanentRedirect':
		case 'IllegalLocationConstraintException':
			return wrongRegion();
		default:
	}
	if (answer.status === 301 || answer.status === 307 || answer.region) return wrongRegion();
	if (answer.status >= 500 || answer.code === 'SlowDown') {
		return {
			what: `the storage is failing right now (HTTP ${answer.status}${answer.code ? ` ${answer.code}` : ''})`,
			todo: 'This is usually temporary: run the item again later.',
		};
	}
	const message = answer.message
		? `: ${answer.message}`
		: answer.messageLeftOut
			? ' (its message quoted the signed request and is left out)'
			: '';
	return {
		what: `the storage answered HTTP ${answer.status}${answer.code ? ` ${answer.code}` : ''}${message}`,
		todo: `Check the settings ${FIX}.`,
	};
}

function stepText(step: StorageStep): string {
	return step === 'upload' ? 'uploading the photo' : 'deleting the uploaded photo';
}

const NOTHING_SENT = ' Nothing was sent to Ideal House and no credit was spent.';

/** One storage failure, named by the storage and the step, cleared of the secret. */
function storageError(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	step: StorageStep,
	status: number,
	code: string | undefined,
	{ what, todo }: { what: string; todo: string },
): IdealHouseApiError {
	const secrets = [settings.secretAccessKey];
	return new IdealHouseApiError(
		ctx.getNode(),
		{ status, code: code ?? '' } as JsonObject,
		{
			message: redact(
				`Upload storage (${storageName(settings)}) failed while ${stepText(step)}: ${what}`,
				secrets,
				500,
			),
			description: redact(`${todo}${step === 'upload' ? NOTHING_SENT : ''}`, secrets, 1000),
			httpCode: String(status),
			itemIndex: ctx.getItemIndex(),
		},
		// Nothing reached Ideal House: the create is sent only once the photos are up.
		status >= 500
			? { kind: 'neverSent', retry: { reason: `HTTP ${status}` } }
			: { kind: 'neverSent' },
	);
}

/** The storage refused: named, explained, and cleared of the secret. */
export function storageAnswerError(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	step: StorageStep,
	answer: S3Answer,
): IdealHouseApiError {
	return storageError(ctx, settings, step, answer.status, answer.code, meaning(answer, settings));
}

/**
 * A 2xx answer to a PUT that S3 would not send (`how`: without an ETag, with a weak one, with an
 * HTML page): something else answered, such as a captive portal, a proxy's sign-in page or a web
 * console.
 */
export function notS3Error(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	status: number,
	how: string,
): IdealHouseApiError {
	return storageError(ctx, settings, 'upload', status, undefined, {
		what: `it answered, but not as S3 does (HTTP ${status} ${how}): a proxy or a login page?`,
		todo: `Check that Endpoint ${FIX} is the storage's S3 API address (not its web console), and that no proxy, captive portal or sign-in page stands between this n8n instance and the storage.`,
	});
}

/** Network codes a bucket name the host's DNS or certificate does not cover ends with. */
const UNADDRESSABLE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ERR_TLS_CERT_ALTNAME_INVALID']);

/** The storage could not be reached, or did not answer in time. */
export function storageNetworkError(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	step: StorageStep,
	reason: string,
	code?: string,
): IdealHouseApiError {
	const { bucket, endpoint } = settings;
	const addressing =
		!settings.pathStyle && code !== undefined && UNADDRESSABLE.has(code)
			? ` The bucket is addressed as ${bucket}.${endpoint.host} (Force Path Style off): if that name does not resolve, or the storage's certificate does not cover it, turn on Force Path Style ${FIX} (MinIO and most self-hosted stores need it).`
			: '';
	return new IdealHouseApiError(
		ctx.getNode(),
		{ message: reason } as JsonObject,
		{
			message: `Upload storage (${storageName(settings)}) could not be reached while ${stepText(step)}`,
			description: redact(
				`${reason}. Check Endpoint ${FIX} and that this n8n instance can reach it.${addressing}${step === 'upload' ? NOTHING_SENT : ''}`,
				[settings.secretAccessKey],
				1000,
			),
			itemIndex: ctx.getItemIndex(),
		},
		{ kind: 'neverSent', retry: { reason } },
	);
}

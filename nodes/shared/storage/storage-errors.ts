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
	/** The bucket's real region, when the answer names it. */
	region?: string;
}

function tag(xml: string, name: string): string | undefined {
	const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
	return match ? match[1].trim() : undefined;
}

/** S3's XML error body, and the region header S3 adds when the bucket lives elsewhere. */
export function readS3Answer(
	status: number,
	body: string,
	headers: Record<string, unknown> | undefined,
): S3Answer {
	const regionHeader = headers?.['x-amz-bucket-region'];
	return {
		status,
		code: tag(body, 'Code'),
		message: tag(body, 'Message'),
		region: typeof regionHeader === 'string' ? regionHeader : tag(body, 'Region'),
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
	return {
		what: `the storage answered HTTP ${answer.status}${answer.code ? ` ${answer.code}` : ''}${answer.message ? `: ${answer.message}` : ''}`,
		todo: `Check the settings ${FIX}.`,
	};
}

function stepText(step: StorageStep): string {
	return step === 'upload' ? 'uploading the photo' : 'deleting the uploaded photo';
}

/** The storage refused: named, explained, and cleared of the secret. */
export function storageAnswerError(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	step: StorageStep,
	answer: S3Answer,
): IdealHouseApiError {
	const { what, todo } = meaning(answer, settings);
	const secrets = [settings.secretAccessKey];
	const nothing =
		step === 'upload' ? ' Nothing was sent to Ideal House and no credit was spent.' : '';
	return new IdealHouseApiError(
		ctx.getNode(),
		{ status: answer.status, code: answer.code ?? '' } as JsonObject,
		{
			message: redact(
				`Upload storage (${storageName(settings)}) failed while ${stepText(step)}: ${what}`,
				secrets,
				500,
			),
			description: redact(`${todo}${nothing}`, secrets, 1000),
			httpCode: String(answer.status),
			itemIndex: ctx.getItemIndex(),
		},
		{
			transient:
				answer.status >= 500 ? { reason: `HTTP ${answer.status}`, notProcessed: false } : undefined,
		},
	);
}

/** The storage could not be reached, or did not answer in time. */
export function storageNetworkError(
	ctx: IExecuteSingleFunctions,
	settings: StorageSettings,
	step: StorageStep,
	reason: string,
): IdealHouseApiError {
	const nothing =
		step === 'upload' ? ' Nothing was sent to Ideal House and no credit was spent.' : '';
	return new IdealHouseApiError(
		ctx.getNode(),
		{ message: reason } as JsonObject,
		{
			message: `Upload storage (${storageName(settings)}) could not be reached while ${stepText(step)}`,
			description: redact(
				`${reason}. Check Endpoint ${FIX} and that this n8n instance can reach it.${nothing}`,
				[settings.secretAccessKey],
				1000,
			),
			itemIndex: ctx.getItemIndex(),
		},
		{ transient: { reason, notProcessed: false } },
	);
}

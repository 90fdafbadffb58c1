import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	STORAGE_CREDENTIAL_LABEL,
	STORAGE_CREDENTIAL_NAME,
	UPLOAD_PREFIX,
	storageSettings,
} from '../nodes/shared/storage/settings';
import { signRequestFor } from '../nodes/shared/storage/signed-request';

export class IdealHouseStorageApi implements ICredentialType {
	name = STORAGE_CREDENTIAL_NAME;

	// The contract's name, shared with the messages that tell where to fix a setting.
	displayName = STORAGE_CREDENTIAL_LABEL;

	icon: Icon = { light: 'file:../icons/idealHouse.svg', dark: 'file:../icons/idealHouse.dark.svg' };

	documentationUrl = 'https://github.com/ideal-house/n8n-nodes-ideal-house#photos-that-are-files';

	properties: INodeProperties[] = [
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://s3.eu-west-1.amazonaws.com',
			description:
				'Address of the S3-compatible API: AWS (https://s3.<region>.amazonaws.com), Cloudflare R2 (https://<account>.r2.cloudflarestorage.com), Backblaze B2, Wasabi, DigitalOcean Spaces or MinIO. Must be https, except on this machine.',
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'string',
			default: 'us-east-1',
			description: "The bucket's region; auto for Cloudflare R2",
		},
		{
			displayName: 'Bucket',
			name: 'bucket',
			type: 'string',
			required: true,
			default: '',
			description: `Bucket the photos are uploaded to, under ${UPLOAD_PREFIX}, and deleted from once their task has ended. S3's naming rules apply: 3–63 lower-case letters, digits, dots and hyphens; upper case and underscores only with Force Path Style on.`,
		},
		{
			displayName: 'Access Key ID',
			name: 'accessKeyId',
			type: 'string',
			required: true,
			default: '',
		},
		{
			displayName: 'Secret Access Key',
			name: 'secretAccessKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Used only to sign requests on this n8n instance; it is never sent anywhere',
		},
		{
			displayName: 'Force Path Style',
			name: 'forcePathStyle',
			type: 'boolean',
			default: false,
			description:
				'Whether to address the bucket as <endpoint>/<bucket> (MinIO and most self-hosted stores) rather than <bucket>.<endpoint host> (AWS, R2, Spaces). An endpoint at an IP address or localhost is always addressed the first way.',
		},
	];

	/**
	 * Signs with AWS Signature Version 4. A relative URL is taken inside the bucket, which is how
	 * the Test below reaches it. Redirects are never followed: a signed request goes nowhere else.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const settings = storageSettings(credentials);
		if (typeof settings === 'string') throw new Error(settings);
		return signRequestFor(settings, requestOptions, new Date());
	}

	/**
	 * Lists at most one object under the upload prefix: harmless, and it proves the key, the
	 * secret, the bucket and the region at once. n8n's Test can only tell answers apart by their
	 * status; the nodes name the exact S3 error code when they run.
	 */
	test: ICredentialTestRequest = {
		request: {
			method: 'GET',
			url: '',
			qs: { 'list-type': '2', 'max-keys': '1', prefix: UPLOAD_PREFIX },
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 301,
					message:
						'The bucket is in another region (S3 answered 301 PermanentRedirect). Set Region to the region the bucket was created in (auto for Cloudflare R2).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 400,
					message:
						'The storage refused the request (HTTP 400). With AWS this is a wrong Region (AuthorizationHeaderMalformed): set the region the bucket was created in (auto for Cloudflare R2).',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: `The storage refused the key (HTTP 403): the Access Key ID is unknown (InvalidAccessKeyId), the Secret Access Key does not belong to it (SignatureDoesNotMatch), or the key may not list ${UPLOAD_PREFIX} in this bucket (AccessDenied). Copy both keys again, and check the key's policy against the README.`,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No such bucket at this endpoint (HTTP 404 NoSuchBucket). Check Bucket, Endpoint and Force Path Style (MinIO and most self-hosted stores need it on).',
				},
			},
		],
	};
}

import type {
	IBinaryData,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { isLocalHost } from '../basics/addresses';
import { IdealHouseItemError, type IdealHouseError } from '../basics/errors';
import { apiCodeOf } from '../basics/outcome';
import { CREDENTIAL_NAME, PUBLIC_BASE_URL, serviceBaseUrl } from '../catalog/api';
import { failureText } from '../http/network';
import type { PhotoFile } from './photo-files';
import type { LinkLifetime, PhotoLinks } from './photo-links';

/**
 * Photo Link = This n8n Instance: the service fetches the file from n8n itself. n8n's helper
 * `createBinarySignedUrl` signs a token for one binary data id with n8n's own signing secret, and
 * n8n's main process serves `<REST address>/binary-data/signed?token=…` without a login. Nothing
 * is uploaded and nothing is left to delete: the file lives with the execution's binary data.
 *
 * The token is a key to the photo: it is made only in the item's turn, never logged, and cleared
 * from whatever the service says back (`withoutSecrets`).
 */

const NOTHING_SENT = 'Nothing was sent or charged.';
const OR_BUCKET = 'or choose Photo Link = Your Bucket (S3-Compatible)';

/** Where n8n serves its signed links, as the links name it: never with a token. */
interface N8nAddress {
	/** `https://n8n.example.com` */
	origin: string;
	/** `https://n8n.example.com/rest/binary-data/signed` */
	signedPath: string;
}

type Sign = (binaryData: IBinaryData, expiresIn?: string) => string;

function refusal(ctx: IExecuteSingleFunctions, message: string, description: string) {
	const itemIndex = ctx.getItemIndex();
	return new IdealHouseItemError(
		ctx.getNode(),
		`${message} [item ${itemIndex}]`,
		{ itemIndex, description },
		{ kind: 'neverSent' },
	);
}

/** n8n's signing helper; an n8n without it cannot hand out links. */
function signerOf(ctx: IExecuteSingleFunctions): Sign {
	const sign = (ctx.helpers as { createBinarySignedUrl?: Sign }).createBinarySignedUrl;
	if (typeof sign !== 'function') {
		throw refusal(
			ctx,
			'This version of n8n cannot hand out links to its files',
			`Update n8n, ${OR_BUCKET}. ${NOTHING_SENT}`,
		);
	}
	return sign.bind(ctx.helpers);
}

/**
 * The file as n8n stores it. In n8n's in-memory mode (`default`, n8n 1.x's default) a file has no
 * id, and n8n signs links only to files it stores.
 */
function storedFile(ctx: IExecuteSingleFunctions, file: PhotoFile): IBinaryData {
	const binary = ctx.helpers.assertBinaryData(file.property);
	if (!binary.id) {
		throw refusal(
			ctx,
			`The photo in "${file.property}" is held in n8n's memory (N8N_DEFAULT_BINARY_DATA_MODE=default), and n8n can hand out a link only to a file it stores`,
			`Set N8N_DEFAULT_BINARY_DATA_MODE=filesystem (or database, where your n8n lists that mode) and restart n8n, ${OR_BUCKET}. ${NOTHING_SENT}`,
		);
	}
	return binary;
}

/**
 * A task that may outlive the item fetches its photo after the run. A workflow set not to save its
 * production executions has n8n delete each one, its files included, as soon as it ends: the link
 * would open nothing. (n8n's instance-wide default is not visible to a node; the README says so.)
 */
function assertExecutionKept(ctx: IExecuteSingleFunctions): void {
	const settings = ctx.getWorkflowSettings?.() ?? {};
	if (settings.saveDataSuccessExecution !== 'none' && settings.saveDataErrorExecution !== 'none') {
		return;
	}
	throw refusal(
		ctx,
		'This workflow does not save its executions, so n8n deletes the photo as soon as the run ends, while the task this item may leave running still has to fetch it',
		`Keep Wait for Completion on with On Timeout = Fail, or set the workflow's Settings to save successful and failed production executions, ${OR_BUCKET}. ${NOTHING_SENT}`,
	);
}

/**
 * n8n's address as its links carry it (`WEBHOOK_URL`, else the editor's own), read from a link
 * signed for a second and dropped. A link to localhost or a private network can never be fetched
 * by the public service; with the service itself on such an address (a local stand-in) it can.
 */
async function addressOf(
	ctx: IExecuteSingleFunctions,
	sign: Sign,
	binary: IBinaryData,
): Promise<N8nAddress> {
	const probe = new URL(sign(binary, '1s'));
	const address = { origin: probe.origin, signedPath: `${probe.origin}${probe.pathname}` };
	if (!isLocalHost(probe.hostname)) return address;
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	const service = new URL(serviceBaseUrl(credentials.baseUrl) || PUBLIC_BASE_URL);
	if (isLocalHost(service.hostname)) return address;
	throw refusal(
		ctx,
		`n8n's own address is ${probe.origin}, which Ideal House cannot reach to fetch the photo`,
		`Set WEBHOOK_URL to n8n's public address (the one its webhooks use, e.g. https://n8n.example.com/) and restart n8n, ${OR_BUCKET}. ${NOTHING_SENT}`,
	);
}

/**
 * The item's photos, checked for a link n8n can sign and the service can fetch. Signs nothing
 * that is kept: the links are made in the item's turn.
 */
export async function n8nLinks(
	ctx: IExecuteSingleFunctions,
	files: PhotoFile[],
	lifetime: LinkLifetime,
): Promise<PhotoLinks> {
	const sign = signerOf(ctx);
	if (lifetime.mayOutliveItem) assertExecutionKept(ctx);
	const stored = files.map((file) => storedFile(ctx, file));
	const address = await addressOf(ctx, sign, stored[0]);
	return new N8nLinks(sign, files, stored, address, lifetime);
}

class N8nLinks implements PhotoLinks {
	readonly planned: string[];
	private expiresAt = '';
	private keep = false;

	constructor(
		private readonly sign: Sign,
		readonly files: PhotoFile[],
		private readonly stored: IBinaryData[],
		private readonly address: N8nAddress,
		private readonly lifetime: LinkLifetime,
	) {
		// What Preview shows and the body check reads: the link's shape, its token made when sent.
		this.planned = files.map(() => `${address.signedPath}?token=[made-when-sent]`);
	}

	/** The links, in the item's turn. Whatever fails here fails before the create: nothing was sent. */
	async publish(ctx: IExecuteSingleFunctions): Promise<string[]> {
		const { seconds } = this.lifetime;
		const links: string[] = [];
		try {
			for (const [index, binary] of this.stored.entries()) {
				const file = this.lasts(ctx, binary) ? binary : await this.ownCopy(this.files[index], ctx);
				links.push(this.sign(file, `${seconds}s`));
			}
		} catch (error) {
			// The cause goes in the description: n8n replaces a message that names a system error code.
			const cause = failureText(error, []);
			throw refusal(
				ctx,
				'n8n could not make the link to the photo',
				`${cause}. Check that n8n can read and write its binary data (N8N_BINARY_DATA_STORAGE_PATH: disk space, permissions), ${OR_BUCKET}. ${NOTHING_SENT}`,
			);
		}
		this.expiresAt = new Date(Date.now() + seconds * 1000).toISOString();
		return links;
	}

	/**
	 * Whether the file stays where its id says for as long as the link may be used. A file a
	 * Webhook or Form trigger received is stored under a temporary id, and n8n moves it when the
	 * execution ends (n8n 1.x also clears the workflow's whole temporary folder then, under other
	 * runs of the same workflow): a link to it would open nothing. A file of another execution
	 * goes when that one is pruned, so a task that may outlive the item needs one of this run's.
	 */
	private lasts(ctx: IExecuteSingleFunctions, binary: IBinaryData): boolean {
		const id = binary.id ?? '';
		if (id.includes('/executions/temp/')) return false;
		return !this.lifetime.mayOutliveItem || id.includes(`/executions/${ctx.getExecutionId()}/`);
	}

	/** A copy of the file under this execution's own id, through n8n's binary helpers. */
	private async ownCopy(file: PhotoFile, ctx: IExecuteSingleFunctions): Promise<IBinaryData> {
		const binary = ctx.helpers.assertBinaryData(file.property);
		const fileName = binary.fileName ?? `photo.${file.type.extension}`;
		return await ctx.helpers.prepareBinaryData(await file.open(), fileName, file.type.mimeType);
	}

	keepForUnfinishedTask(): void {
		this.keep = true;
	}

	/** Nothing to delete; an item whose task may still fetch the photo says until when it can. */
	async cleanUp(
		_ctx: IExecuteSingleFunctions,
		ended: { items?: INodeExecutionData[] },
	): Promise<void> {
		if (!this.keep || !this.expiresAt) return;
		for (const item of ended.items ?? []) item.json.photoLink = this.record();
	}

	/**
	 * The service's own words are read from n8n's list of the error's messages: n8n replaces a
	 * message that names a network code (ECONNREFUSED, ENOTFOUND …), which is just what a link
	 * the service cannot reach gives.
	 */
	explainRefusal(failure: IdealHouseError): void {
		// Only a refusal says that nothing was spent: an answer that may have created a task keeps its words.
		if (failure.outcome.kind !== 'refused' || apiCodeOf(failure.outcome) !== 1011) return;
		const said = [...failure.messages, failure.message].find((text) => /imageUrl/i.test(text));
		if (!said) return;
		failure.message = `Ideal House could not download the photo that this n8n instance offered at ${this.address.origin}`;
		const restPath = new URL(this.address.signedPath).pathname;
		failure.description = [
			`Ideal House fetches the photo from n8n's own link (${this.address.signedPath}).`,
			`Check that WEBHOOK_URL is n8n's public address and that the internet can reach it; a reverse proxy that passes only /webhook/ must also pass ${restPath}.`,
			`No credit was spent. The service said: ${said}`,
		].join(' ');
	}

	private record(): IDataObject {
		return { address: this.address.origin, expiresAt: this.expiresAt };
	}
}

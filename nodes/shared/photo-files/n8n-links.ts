import type {
	IBinaryData,
	IDataObject,
	IExecuteSingleFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { NOTHING_SENT } from '../core/validation';
import { isLocalHost, isLoopbackHost } from '../core/addresses';
import { refuseWhenStopped } from '../core/cancellation';
import { rememberSecrets, tokenAndParts } from '../core/redact';
import { IdealHouseItemError, type IdealHouseError } from '../core/errors';
import { PARAM_ERROR } from '../core/api-codes';
import { apiCodeOf } from '../core/outcome';
import { CREDENTIAL_NAME, PUBLIC_BASE_URL, serviceBaseUrl } from '../catalog/service';
import { failureText } from '../http/network';
import type { PhotoFile } from './item-photos';

// A photo file reaches the service as n8n's own signed link; its token is a key to the photo.
// Why: docs/design/photo-links.md

/** How long the service's links must work, by the item's settings. */
export interface LinkLifetime {
	seconds: number;
	/** The node may leave the task unfinished, so the service may fetch the photo after the item ends. */
	mayOutliveItem: boolean;
}

/** The body's `imageUrl` for these links: a list where the API takes several and several are given. */
export function imageUrlOf(links: string[], several: boolean): string | string[] {
	return several && links.length > 1 ? links : links[0];
}

const PRIVATE_N8N_RECIPE =
	'https://github.com/ideal-house/n8n-nodes-ideal-house/blob/main/docs/photos-without-public-n8n.md';

/** The way left when n8n cannot hand the service a link: the photo at a URL of the user's own. */
const OR_URL = `or give the photo as a URL ('Image Source' = URL); to give a file that way from your own S3 bucket, see ${PRIVATE_N8N_RECIPE}`;

/** Where n8n serves its signed links, as the links name it: never with a token. */
interface N8nAddress {
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
			`Update n8n, ${OR_URL}. ${NOTHING_SENT}`,
		);
	}
	return sign.bind(ctx.helpers);
}

/** n8n signs links only to files it stores: in its memory mode (`default`) a file has no id. */
function storedFile(ctx: IExecuteSingleFunctions, file: PhotoFile): IBinaryData {
	const binary = ctx.helpers.assertBinaryData(file.property);
	if (!binary.id) {
		throw refusal(
			ctx,
			`The photo in "${file.property}" is held in n8n's memory (N8N_DEFAULT_BINARY_DATA_MODE=default), and n8n can hand out a link only to a file it stores`,
			`Set N8N_DEFAULT_BINARY_DATA_MODE=filesystem (or database, where your n8n lists that mode) and restart n8n, ${OR_URL}. ${NOTHING_SENT}`,
		);
	}
	return binary;
}

/** A workflow that saves no executions has n8n delete its files as the run ends. */
function executionKept(ctx: IExecuteSingleFunctions): boolean {
	const settings = ctx.getWorkflowSettings?.() ?? {};
	return settings.saveDataSuccessExecution !== 'none' && settings.saveDataErrorExecution !== 'none';
}

function assertExecutionKept(ctx: IExecuteSingleFunctions): void {
	if (executionKept(ctx)) return;
	throw refusal(
		ctx,
		'This workflow does not save its executions, so n8n deletes the photo as soon as the run ends, while the task this item may leave running still has to fetch it',
		`Keep 'Wait for Completion' on with 'On Timeout' = Fail, or set the workflow's Settings to save successful and failed production executions, ${OR_URL}. ${NOTHING_SENT}`,
	);
}

/** n8n's address, read from a link signed for 1 s; refused where the service cannot fetch it. */
async function addressOf(
	ctx: IExecuteSingleFunctions,
	sign: Sign,
	binary: IBinaryData,
): Promise<N8nAddress> {
	const probe = new URL(sign(binary, '1s'));
	const address = { origin: probe.origin, signedPath: `${probe.origin}${probe.pathname}` };
	// The link carries n8n's address as is: a user name or password in it would go to Ideal House.
	if (probe.username || probe.password) {
		throw refusal(
			ctx,
			`n8n's own address (${probe.origin}) holds a user name or password, which would go to Ideal House inside the link to the photo`,
			`Set WEBHOOK_URL to n8n's public address without credentials (e.g. https://n8n.example.com/) and restart n8n, ${OR_URL}. ${NOTHING_SENT}`,
		);
	}
	if (isLocalHost(probe.hostname) && !(await serviceIsLocal(ctx))) {
		throw refusal(
			ctx,
			`n8n's own address is ${probe.origin}, which Ideal House cannot reach to fetch the photo`,
			`Set WEBHOOK_URL to n8n's public address (the one its webhooks use, e.g. https://n8n.example.com/) and restart n8n, ${OR_URL}. ${NOTHING_SENT}`,
		);
	}
	// The token opens the photo: it travels only encrypted, but to a service on this machine.
	if (probe.protocol !== 'https:' && !isLoopbackHost(probe.hostname)) {
		throw refusal(
			ctx,
			`n8n's own address is ${probe.origin}, so the link's token would travel unencrypted`,
			`Set WEBHOOK_URL to n8n's https:// address (e.g. https://n8n.example.com/) and restart n8n, ${OR_URL}. ${NOTHING_SENT}`,
		);
	}
	return address;
}

async function serviceIsLocal(ctx: IExecuteSingleFunctions): Promise<boolean> {
	const credentials = await ctx.getCredentials(CREDENTIAL_NAME);
	return isLocalHost(new URL(serviceBaseUrl(credentials.baseUrl) || PUBLIC_BASE_URL).hostname);
}

/** The photos, checked for a link n8n can sign and the service fetch; made later, in the turn. */
export async function n8nLinks(
	ctx: IExecuteSingleFunctions,
	files: PhotoFile[],
	lifetime: LinkLifetime,
): Promise<PhotoLinks> {
	const sign = signerOf(ctx);
	if (lifetime.mayOutliveItem) assertExecutionKept(ctx);
	const stored = files.map((file) => storedFile(ctx, file));
	const address = await addressOf(ctx, sign, stored[0]);
	return new PhotoLinks(sign, files, stored, address, lifetime);
}

/** An item's photo files on their way to the service as n8n's links. */
export class PhotoLinks {
	/** What Preview shows and the body check reads: the link's shape, its token made when sent. */
	readonly planned: string[];
	private expiresAt = '';

	constructor(
		private readonly sign: Sign,
		/** The checked files, in order: for a body check that compares an image with them (a mask). */
		readonly files: PhotoFile[],
		private readonly stored: IBinaryData[],
		private readonly address: N8nAddress,
		private readonly lifetime: LinkLifetime,
	) {
		this.planned = files.map(() => `${address.signedPath}?token=[made-when-sent]`);
	}

	/** The links, in the files' order, in the item's turn right before the create. */
	async publish(ctx: IExecuteSingleFunctions): Promise<string[]> {
		const { seconds } = this.lifetime;
		const links: string[] = [];
		for (const [index, binary] of this.stored.entries()) {
			refuseWhenStopped(ctx);
			const file = this.lasts(ctx, binary) ? binary : await this.ownCopy(this.files[index], ctx);
			// A copy n8n finished storing after Stop is left unlinked.
			refuseWhenStopped(ctx);
			const link = await this.linkMade(ctx, async () => this.sign(file, `${seconds}s`));
			// The token opens the photo: whatever the service says back is cleared of it.
			rememberSecrets(ctx, tokenAndParts(new URL(link).searchParams.get('token') ?? ''));
			links.push(link);
		}
		this.expiresAt = new Date(Date.now() + seconds * 1000).toISOString();
		return links;
	}

	/** A step of making a link; whatever fails there fails before the create: nothing was sent. */
	private async linkMade<T>(ctx: IExecuteSingleFunctions, step: () => Promise<T>): Promise<T> {
		try {
			return await step();
		} catch (error) {
			// The cause goes in the description: n8n replaces a message that names a system error code.
			const cause = failureText(error, []);
			throw refusal(
				ctx,
				'n8n could not make the link to the photo',
				`${cause}. Check that n8n can read and write its binary data (N8N_BINARY_DATA_STORAGE_PATH: disk space, permissions). ${NOTHING_SENT}`,
			);
		}
	}

	/** Whether the file stays under its id while the link may be used (not a trigger's temp file). */
	private lasts(ctx: IExecuteSingleFunctions, binary: IBinaryData): boolean {
		const id = binary.id ?? '';
		if (id.includes('/executions/temp/')) return false;
		return !this.lifetime.mayOutliveItem || id.includes(`/executions/${ctx.getExecutionId()}/`);
	}

	/** A copy of the file under this execution's own id, through n8n's binary helpers. */
	private async ownCopy(file: PhotoFile, ctx: IExecuteSingleFunctions): Promise<IBinaryData> {
		return await this.linkMade(ctx, async () => {
			const binary = ctx.helpers.assertBinaryData(file.property);
			const fileName = binary.fileName ?? `photo.${file.type.extension}`;
			return await ctx.helpers.prepareBinaryData(await file.open(), fileName, file.type.mimeType);
		});
	}

	/** A task left unfinished may still fetch its photo: each item says from where and until when. */
	noteOnUnfinished(items: INodeExecutionData[]): void {
		if (!this.expiresAt) return;
		const record: IDataObject = { address: this.address.origin, expiresAt: this.expiresAt };
		for (const item of items) item.json.photoLink = { ...record };
	}

	/** A task left running, or that may exist, says until when the service can fetch its photo. */
	noteOnLeftRunning(ctx: IExecuteSingleFunctions, failure: IdealHouseError): void {
		const { kind } = failure.outcome;
		if (!this.expiresAt || (kind !== 'created' && kind !== 'maybeActed')) return;
		const who = kind === 'created' ? 'Ideal House' : 'If the task was created, Ideal House';
		const gone =
			!this.lifetime.mayOutliveItem && !executionKept(ctx)
				? ' This workflow does not save its executions, though: n8n deletes the photo as this run ends, so the task may not get it (a task that ends Failed is refunded).'
				: '';
		failure.description =
			`${failure.description ?? ''} ${who} can still fetch the photo from n8n until ${this.expiresAt}.${gone}`.trim();
	}

	/**
	 * A create refused for its photo: what to check. The service's words come from `messages`:
	 * n8n rewrites a message naming a network code, just what an unreachable link gives.
	 */
	explainRefusal(failure: IdealHouseError): void {
		// Only a refusal says that nothing was spent: an answer that may have created a task keeps its words.
		if (failure.outcome.kind !== 'refused' || apiCodeOf(failure.outcome) !== PARAM_ERROR) return;
		const texts = [...failure.messages, failure.message, failure.description ?? ''];
		const found = texts.find((text) => /imageUrl/i.test(text));
		if (!found) return;
		const said = /"(.*imageUrl.*)"/is.exec(found)?.[1] ?? found;
		failure.message = `Ideal House could not download the photo that this n8n instance offered at ${this.address.origin}${itemSuffix(failure)}`;
		failure.description = `Ideal House fetches the photo from n8n's own link (${this.address.signedPath}). The service said: ${said}`;
		const restPath = new URL(this.address.signedPath).pathname;
		failure.fix = `Check that WEBHOOK_URL is n8n's public address and that the internet can reach it; a reverse proxy that passes only /webhook/ must also pass ${restPath}.`;
	}
}

/** The ` [item N]` an error's message ends with. */
function itemSuffix(failure: IdealHouseError): string {
	const itemIndex = failure.context.itemIndex;
	return typeof itemIndex === 'number' ? ` [item ${itemIndex}]` : '';
}

/**
 * n8n's own signed links in the tests: n8n at a public address, items whose files n8n stores by
 * id (filesystem mode, see `binary-store.ts`), and what a link the service was given opens, by
 * n8n-core's own check of its token.
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { BinaryStore, FileLocation } from './binary-store';

/** n8n at a public address: its REST API, where its signed links point. */
export const N8N = 'https://n8n.example.com';
export const REST = `${N8N}/rest`;
export const SIGNED = `${REST}/binary-data/signed`;

/** An item whose files n8n stores by id, each under its property's name. */
export async function storedItem(
	files: BinaryStore,
	named: Record<string, Buffer>,
	location?: FileLocation,
	json: IDataObject = {},
): Promise<INodeExecutionData> {
	const binary: Record<string, IBinaryData> = {};
	for (const [name, bytes] of Object.entries(named)) {
		binary[name] = await files.store(bytes, `${name}.jpg`, location);
	}
	return { json, binary };
}

export function tokenOf(link: unknown): string {
	return new URL(String(link)).searchParams.get('token') ?? '';
}

/** The token's claims, as jsonwebtoken wrote them. */
export function claimsOf(link: unknown): { id: string; iat: number; exp: number } {
	const payload = tokenOf(link).split('.')[1] ?? '';
	return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** The links a create's body carries in `imageUrl`: one, or a list. */
export function linksIn(body: unknown): string[] {
	const imageUrl = (body as IDataObject).imageUrl;
	return Array.isArray(imageUrl) ? imageUrl.map(String) : [String(imageUrl)];
}

/** What n8n's endpoint would serve for this link: n8n-core's own token check, then the file. */
export async function opened(files: BinaryStore, link: string) {
	if (!link.startsWith(`${SIGNED}?token=`)) throw new Error(`Not one of n8n's links: ${link}`);
	const id = files.idOfToken(tokenOf(link));
	return { id, ...(await files.read(id)) };
}

/**
 * What saved workflows and n8n's editor see of the package: the three nodes' descriptions and
 * methods and the credential, as one JSON value with every object's keys sorted. n8n hands
 * the editor a node's description as JSON, so two descriptions that print the same here look and
 * save the same; the hooks that run on the server (routing's preSend, pagination and postReceive,
 * the load-options methods, a credential's authenticate) are named by their function names.
 */
import type { ICredentialType, INodeType } from 'n8n-workflow';

import { IdealHouseApi } from '../credentials/IdealHouseApi.credentials.ts';
import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node.ts';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node.ts';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A plain JSON value: keys sorted, functions by name, `undefined` left out as JSON leaves it. */
function plain(value: unknown): Json | undefined {
	if (typeof value === 'function') return `[function ${value.name || '(anonymous)'}]`;
	if (value === undefined) return undefined;
	if (value === null || typeof value !== 'object') return value as Json;
	if (Array.isArray(value)) return value.map((entry) => plain(entry) ?? null);
	const sorted: { [key: string]: Json } = {};
	for (const key of Object.keys(value).sort()) {
		const entry = plain((value as Record<string, unknown>)[key]);
		if (entry !== undefined) sorted[key] = entry;
	}
	return sorted;
}

/** A credential's fields and its methods (`authenticate` is one on the class, not a field). */
function credentialView(credential: ICredentialType): Record<string, unknown> {
	const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(credential)).filter(
		(name) => name !== 'constructor',
	);
	return {
		...credential,
		...Object.fromEntries(
			methods.map((name) => [name, (credential as unknown as Record<string, unknown>)[name]]),
		),
	};
}

function nodeView(node: INodeType): Record<string, unknown> {
	return { description: node.description, methods: node.methods };
}

export function describePackage(): Json {
	return plain({
		nodes: {
			photoEnhancer: nodeView(new PhotoEnhancer()),
			objectRemover: nodeView(new ObjectRemover()),
			idealHouse: nodeView(new IdealHouse()),
		},
		credentials: {
			idealHouseApi: credentialView(new IdealHouseApi()),
		},
	}) as Json;
}

/** The dump as the snapshot file holds it. */
export function describePackageText(): string {
	return `${JSON.stringify(describePackage(), null, '\t')}\n`;
}

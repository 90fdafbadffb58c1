/**
 * The examples ship with public sample photos, placeholder addresses and credential references
 * named as n8n names a new credential, so that they run on any n8n as imported once the user picks
 * a credential. The demo and the real-n8n suites run them against the local set-up instead: the
 * local service, the stand-ins for a feed, a CRM and a chat model, and the suite's own credentials.
 * `exampleForLocalSetUp` is the one rewrite they all apply when they import an example.
 */

/** Public photos the examples use as samples (Unsplash's CDN: stable links, served as JPEG). */
export const SAMPLE_PHOTOS = {
	/** A furnished living room. */
	interior:
		'https://images.unsplash.com/photo-1586023492125-27b2c045efd7?w=800&h=600&fit=crop&crop=center',
	/** The front of a house. */
	exterior:
		'https://images.unsplash.com/photo-1568605114967-8130f3a36994?fm=jpg&q=80&w=800&fit=crop',
} as const;

export type SamplePhoto = keyof typeof SAMPLE_PHOTOS;

/** The local service's sample (`GET /samples/<name>`) that stands in for each public photo. */
export const LOCAL_SAMPLE_OF: Readonly<Record<SamplePhoto, string>> = {
	interior: 'living-room.png',
	exterior: 'exterior.png',
};

/**
 * The addresses the examples give for what the user must point at their own: a feed, a CRM, a
 * bucket (its name and its address, as JSON values of their own).
 */
export const PLACEHOLDER_ADDRESSES = {
	mlsFeed: 'https://mls.example.com',
	crm: 'https://crm.example.com',
	bucket: 'your-bucket',
	bucketUrl: 'https://your-bucket.s3.eu-west-1.amazonaws.com',
} as const;

/** The credential references the examples ship with, by credential type. */
export const EXAMPLE_CREDENTIALS = {
	idealHouseApi: { id: 'IdealHouseApiAccount', name: 'Ideal House API account' },
	openAiApi: { id: 'OpenAiAccount', name: 'OpenAI account' },
	postgres: { id: 'BrokerageDatabase', name: 'Brokerage database' },
	mlsFeed: { id: 'MlsFeedToken', name: 'MLS feed token' },
	crm: { id: 'CrmToken', name: 'CRM token' },
	aws: { id: 'AwsYourBucket1', name: 'AWS (your bucket)' },
} as const;

export interface CredentialRef {
	id: string;
	name: string;
}

/** Where the local set-up runs what an example points at. */
export interface LocalSetUp {
	/** The local service's base URL, e.g. `http://127.0.0.1:8787`: its samples replace the photos. */
	service: string;
	/** The MLS feed stand-in's base URL, for the placeholder feed address. */
	mlsFeed?: string;
	/** The CRM stand-in's base URL, for the placeholder CRM address. */
	crm?: string;
	/** The private bucket stand-in, for the placeholder bucket: its name and its address. */
	bucket?: { name: string; url: string };
	/**
	 * The suite's credentials, by credential type (`idealHouseApi`, `openAiApi`, `postgres`,
	 * `httpBearerAuth`): every node's reference of that type is replaced.
	 */
	credentials?: Readonly<Record<string, CredentialRef>>;
}

interface WorkflowJson {
	nodes: Array<{ credentials?: Record<string, CredentialRef> }>;
}

/** The local service's URL of the sample that stands in for a public photo. */
export function localSample(service: string, photo: SamplePhoto): string {
	return `${service}/samples/${LOCAL_SAMPLE_OF[photo]}`;
}

/** An example's JSON text as the local set-up runs it. */
export function exampleForLocalSetUp(text: string, local: LocalSetUp): string {
	let rewritten = text;
	for (const photo of Object.keys(SAMPLE_PHOTOS) as SamplePhoto[])
		rewritten = rewritten.split(SAMPLE_PHOTOS[photo]).join(localSample(local.service, photo));
	if (local.mlsFeed) rewritten = rewritten.split(PLACEHOLDER_ADDRESSES.mlsFeed).join(local.mlsFeed);
	if (local.crm) rewritten = rewritten.split(PLACEHOLDER_ADDRESSES.crm).join(local.crm);
	if (local.bucket) {
		// Whole JSON values only: the bucket's name is part of its address.
		const value = (text: string) => JSON.stringify(text);
		rewritten = rewritten
			.split(value(PLACEHOLDER_ADDRESSES.bucketUrl))
			.join(value(local.bucket.url))
			.split(value(PLACEHOLDER_ADDRESSES.bucket))
			.join(value(local.bucket.name));
	}
	const credentials = local.credentials;
	if (!credentials) return rewritten;
	const workflow = JSON.parse(rewritten) as WorkflowJson;
	for (const node of workflow.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			const replacement = credentials[type];
			if (replacement && node.credentials)
				node.credentials[type] = { id: replacement.id, name: replacement.name };
		}
	}
	return JSON.stringify(workflow, null, '\t');
}

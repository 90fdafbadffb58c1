/* eslint-disable @n8n/community-nodes/no-restricted-imports */
// A stand-in for an MLS listing feed, in the shape of the RESO Web API that MLS systems expose:
// an OData service root with a `Property` resource, `$filter` on ModificationTimestamp,
// `$expand=Media`, `$top`/`$skip` with `@odata.nextLink` paging, and a bearer token. Its photos
// are real PNG files, served without a token the way MLS media CDNs serve MediaURL links.
// Tests add listings, add or replace photos, and read back every request the feed answered.
// It is not part of the Ideal House stand-in: that service never imports this module.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gradientPng } from '../png.ts';
import { parseFilter, type TimestampCondition } from './filter.ts';

export interface MlsMedia {
	MediaKey: string;
	ResourceRecordKey: string;
	ResourceName: 'Property';
	MediaURL: string;
	MediaCategory: string;
	MediaType: 'png';
	Order: number;
	ImageWidth: number;
	ImageHeight: number;
	ModificationTimestamp: string;
}

export interface MlsProperty {
	ListingKey: string;
	ListingId: string;
	StandardStatus: string;
	UnparsedAddress: string;
	ListPrice: number;
	PhotosCount: number;
	ModificationTimestamp: string;
	Media: MlsMedia[];
}

export interface NewListing {
	listingKey: string;
	address?: string;
	listPrice?: number;
	/** Media categories of its photos, in order; default three photos. */
	photos?: string[];
}

export interface FeedRequest {
	method: string;
	/** Path and query as sent. */
	url: string;
	status: number;
	/** `Property` requests: the decoded query options. */
	query?: Record<string, string>;
	/** `Property` requests: the ListingKeys returned on this page. */
	returned?: string[];
}

export interface MlsFeedOptions {
	port?: number;
	host?: string;
	/** The bearer token clients must send; default 'local-mls-token'. */
	token?: string;
	/** Records per page when the client sends no `$top`, and the most a page holds; default 100. */
	maxPageSize?: number;
	/** Photo size; default 1024x768 (above the enhancer's 128 px minimum, quick to encode). */
	photoWidth?: number;
	photoHeight?: number;
	now?: () => number;
}

export interface RunningMlsFeed {
	baseUrl: string;
	/** The OData service root: `${baseUrl}/reso/odata`. */
	serviceRoot: string;
	token: string;
	addListing(listing: NewListing): MlsProperty;
	/** Adds a photo at the end of a listing; the listing's ModificationTimestamp moves. */
	addPhoto(listingKey: string, category?: string): MlsMedia;
	/** A new picture behind the same MediaKey: new MediaURL and ModificationTimestamp. */
	replacePhoto(mediaKey: string): MlsMedia;
	listings(): MlsProperty[];
	requests(): FeedRequest[];
	/** How often each MediaURL was downloaded. */
	downloads(): Record<string, number>;
	close(): Promise<void>;
}

const DEFAULT_CATEGORIES = ['Photo', 'Photo', 'Photo'];

type StoredMedia = MlsMedia;

interface StoredProperty extends Omit<MlsProperty, 'Media' | 'PhotosCount'> {
	media: StoredMedia[];
}

function odataError(
	response: http.ServerResponse,
	status: number,
	code: string,
	message: string,
): void {
	const body = JSON.stringify({ error: { code, message } });
	response.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'OData-Version': '4.0',
		...(status === 401 ? { 'WWW-Authenticate': 'Bearer realm="mls"' } : {}),
	});
	response.end(body);
}

/** A colour pair from a text, so that every photo revision is a different picture. */
function coloursOf(text: string): [[number, number, number], [number, number, number]] {
	let hash = 2166136261;
	for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
	const channel = (shift: number) => 40 + ((hash >>> shift) & 0xaf);
	return [
		[channel(0), channel(6), channel(12)],
		[channel(18), channel(3), channel(9)],
	];
}

function matches(timestamp: string, conditions: TimestampCondition[]): boolean {
	const value = Date.parse(timestamp);
	return conditions.every(({ operator, time }) => {
		switch (operator) {
			case 'gt':
				return value > time;
			case 'ge':
				return value >= time;
			case 'lt':
				return value < time;
			case 'le':
				return value <= time;
			default:
				return value === time;
		}
	});
}

const KNOWN_OPTIONS = ['$filter', '$expand', '$top', '$skip', '$orderby', '$count'];

export async function startMlsFeed(options: MlsFeedOptions = {}): Promise<RunningMlsFeed> {
	const token = options.token ?? 'local-mls-token';
	const maxPageSize = options.maxPageSize ?? 100;
	const width = options.photoWidth ?? 1024;
	const height = options.photoHeight ?? 768;
	const clock = options.now ?? Date.now;
	const properties = new Map<string, StoredProperty>();
	const mediaByKey = new Map<string, StoredMedia>();
	const revisions = new Map<string, number>();
	const revisionOf = (media: MlsMedia): number => revisions.get(media.MediaKey) ?? 1;
	const requestLog: FeedRequest[] = [];
	const downloadCounts: Record<string, number> = {};
	const pictures = new Map<string, Buffer>();
	let lastTime = 0;
	let baseUrl = '';

	// Every change gets its own, later timestamp, as a feed's replication relies on.
	const stamp = (): string => {
		lastTime = Math.max(clock(), lastTime + 1);
		return new Date(lastTime).toISOString();
	};
	const mediaUrl = (media: { MediaKey: string }, revision: number) =>
		`${baseUrl}/media/${encodeURIComponent(media.MediaKey)}/${revision}.png`;

	const publicProperty = (property: StoredProperty, expand: boolean): Partial<MlsProperty> => {
		const { media, ...fields } = property;
		const record: Partial<MlsProperty> = { ...fields, PhotosCount: media.length };
		if (expand) record.Media = media.map((entry) => ({ ...entry }));
		return record;
	};

	const handleProperty = (url: URL, response: http.ServerResponse, entry: FeedRequest): void => {
		const query: Record<string, string> = {};
		for (const [name, value] of url.searchParams) {
			if (name in query) {
				entry.status = 400;
				return odataError(response, 400, 'BadRequest', `query option ${name} is given twice`);
			}
			query[name] = value;
		}
		entry.query = query;
		const unknown = Object.keys(query).filter(
			(name) => name.startsWith('$') && !KNOWN_OPTIONS.includes(name),
		);
		if (unknown.length > 0) {
			entry.status = 400;
			return odataError(response, 400, 'BadRequest', `unsupported query option ${unknown[0]}`);
		}
		let conditions: TimestampCondition[] = [];
		if (query.$filter !== undefined) {
			const parsed = parseFilter(query.$filter);
			if (typeof parsed === 'string') {
				entry.status = 400;
				return odataError(response, 400, 'BadRequest', parsed);
			}
			conditions = parsed;
		}
		const expand = query.$expand?.split(',').map((part) => part.trim()) ?? [];
		if (expand.some((name) => name !== 'Media')) {
			entry.status = 400;
			return odataError(response, 400, 'BadRequest', `$expand supports Media only`);
		}
		if (
			query.$orderby !== undefined &&
			!/^ModificationTimestamp( asc)?$/.test(query.$orderby.trim())
		) {
			entry.status = 400;
			return odataError(
				response,
				400,
				'BadRequest',
				'$orderby supports ModificationTimestamp asc only',
			);
		}
		const count = (name: '$top' | '$skip', fallback: number): number | string => {
			if (query[name] === undefined) return fallback;
			const value = Number(query[name]);
			return /^\d+$/.test(query[name]) ? value : `${name} must be a whole number`;
		};
		const top = count('$top', maxPageSize);
		const skip = count('$skip', 0);
		if (typeof top === 'string' || typeof skip === 'string') {
			entry.status = 400;
			return odataError(response, 400, 'BadRequest', String(typeof top === 'string' ? top : skip));
		}
		const pageSize = Math.min(top, maxPageSize);
		const selected = [...properties.values()]
			.filter((property) => matches(property.ModificationTimestamp, conditions))
			.sort(
				(a, b) =>
					a.ModificationTimestamp.localeCompare(b.ModificationTimestamp) ||
					a.ListingKey.localeCompare(b.ListingKey),
			);
		const page = selected.slice(skip, skip + pageSize);
		const body: Record<string, unknown> = {
			'@odata.context': `${baseUrl}/reso/odata/$metadata#Property`,
		};
		if (query.$count === 'true') body['@odata.count'] = selected.length;
		body.value = page.map((property) => publicProperty(property, expand.includes('Media')));
		if (skip + pageSize < selected.length) {
			const next = new URLSearchParams({ ...query, $skip: String(skip + pageSize) });
			if (query.$top === undefined) next.delete('$top');
			body['@odata.nextLink'] = `${baseUrl}/reso/odata/Property?${next.toString()}`;
		}
		entry.returned = page.map((property) => property.ListingKey);
		entry.status = 200;
		response.writeHead(200, {
			'Content-Type': 'application/json; odata.metadata=minimal; charset=utf-8',
			'OData-Version': '4.0',
		});
		response.end(JSON.stringify(body));
	};

	const handleMedia = (path: string, response: http.ServerResponse, entry: FeedRequest): void => {
		const match = /^\/media\/([^/]+)\/(\d+)\.png$/.exec(path);
		const media = match ? mediaByKey.get(decodeURIComponent(match[1])) : undefined;
		// Old revisions stay online, as CDN links do after a replacement.
		if (!match || !media || Number(match[2]) > revisionOf(media) || Number(match[2]) < 1) {
			entry.status = 404;
			response.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such media');
			return;
		}
		const name = `${media.MediaKey}/${match[2]}`;
		let bytes = pictures.get(name);
		if (!bytes) {
			const [from, to] = coloursOf(name);
			bytes = gradientPng(width, height, from, to);
			pictures.set(name, bytes);
		}
		const url = mediaUrl(media, Number(match[2]));
		downloadCounts[url] = (downloadCounts[url] ?? 0) + 1;
		entry.status = 200;
		response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': bytes.length });
		response.end(bytes);
	};

	const server = http.createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://feed.invalid');
		const entry: FeedRequest = {
			method: request.method ?? 'GET',
			url: request.url ?? '/',
			status: 0,
		};
		requestLog.push(entry);
		if (request.method !== 'GET') {
			entry.status = 405;
			return odataError(response, 405, 'MethodNotAllowed', 'this feed is read-only');
		}
		if (url.pathname.startsWith('/media/')) return handleMedia(url.pathname, response, entry);
		if (!url.pathname.startsWith('/reso/odata')) {
			entry.status = 404;
			return odataError(response, 404, 'NotFound', `no resource at ${url.pathname}`);
		}
		if (request.headers.authorization !== `Bearer ${token}`) {
			entry.status = 401;
			return odataError(response, 401, 'Unauthorized', 'a valid bearer token is required');
		}
		if (url.pathname === '/reso/odata/Property') return handleProperty(url, response, entry);
		entry.status = 404;
		return odataError(response, 404, 'NotFound', `no resource at ${url.pathname}`);
	});
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
	});
	const address = server.address() as AddressInfo;
	baseUrl = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

	const newMedia = (property: StoredProperty, category: string, time: string): StoredMedia => {
		const order = property.media.length + 1;
		const media: StoredMedia = {
			MediaKey: `${property.ListingKey}-M${order}`,
			ResourceRecordKey: property.ListingKey,
			ResourceName: 'Property',
			MediaURL: '',
			MediaCategory: category,
			MediaType: 'png',
			Order: order,
			ImageWidth: width,
			ImageHeight: height,
			ModificationTimestamp: time,
		};
		revisions.set(media.MediaKey, 1);
		media.MediaURL = mediaUrl(media, 1);
		property.media.push(media);
		mediaByKey.set(media.MediaKey, media);
		return media;
	};
	const copy = <T>(value: T): T => structuredClone(value);

	return {
		baseUrl,
		serviceRoot: `${baseUrl}/reso/odata`,
		token,
		addListing(listing) {
			if (properties.has(listing.listingKey))
				throw new Error(`listing ${listing.listingKey} exists already`);
			const time = stamp();
			const property: StoredProperty = {
				ListingKey: listing.listingKey,
				ListingId: `MLS-${listing.listingKey}`,
				StandardStatus: 'Active',
				UnparsedAddress: listing.address ?? `${properties.size + 1} Sample Street`,
				ListPrice: listing.listPrice ?? 450000,
				ModificationTimestamp: time,
				media: [],
			};
			properties.set(property.ListingKey, property);
			for (const category of listing.photos ?? DEFAULT_CATEGORIES)
				newMedia(property, category, time);
			return copy(publicProperty(property, true) as MlsProperty);
		},
		addPhoto(listingKey, category = 'Photo') {
			const property = properties.get(listingKey);
			if (!property) throw new Error(`no listing ${listingKey}`);
			const time = stamp();
			property.ModificationTimestamp = time;
			return copy(newMedia(property, category, time));
		},
		replacePhoto(mediaKey) {
			const media = mediaByKey.get(mediaKey);
			if (!media) throw new Error(`no media ${mediaKey}`);
			const time = stamp();
			revisions.set(media.MediaKey, revisionOf(media) + 1);
			media.MediaURL = mediaUrl(media, revisionOf(media));
			media.ModificationTimestamp = time;
			properties.get(media.ResourceRecordKey)!.ModificationTimestamp = time;
			return copy(media);
		},
		listings: () =>
			[...properties.values()].map((p) => copy(publicProperty(p, true) as MlsProperty)),
		requests: () => copy(requestLog),
		downloads: () => ({ ...downloadCounts }),
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

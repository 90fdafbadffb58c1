/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
// A local stand-in for the Ideal House API as docs/ideal-house-api.md describes it, for developing
// and testing clients
// without credits, network or waiting: same paths, envelope, error codes, credits and task
// lifecycle, plus counters and fault injection a real server cannot offer.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ApiRoute } from './api-routes.ts';
import type { FaultConfig, FaultKind, FaultStage } from './faults.ts';
import type { ServiceConfig } from './config.ts';
import type { ServiceContext } from './routes.ts';
import type { Random } from './prng.ts';
import type { ProgressModel } from './queue.ts';
import type { ServiceStats } from './stats.ts';
import type { StyleShape } from './style-config.ts';
import type { TaskRecord } from './tasks.ts';
import { Accounts } from './accounts.ts';
import { findRoute } from './api-routes.ts';
import { API_ROWS } from './apis.ts';
import { createCatalogTask } from './catalog-tasks.ts';
import { applyConfigPatch, DEFAULT_CONFIG } from './config.ts';
import { CODE, envelopeText, ServiceError } from './envelope.ts';
import { faultResponse, pickFault, pickLatency } from './faults.ts';
import { inspectImage, MEGABYTE } from './images.ts';
import { mulberry32 } from './prng.ts';
import { RateLimiter } from './rate-limit.ts';
import { namesFile, parseResultPath, ResultFiles } from './result-files.ts';
import {
	createObjectRemoverTask,
	createPhotoEnhancerTask,
	getTaskResult,
	viewTask,
} from './routes.ts';
import { sampleBytes, sampleList } from './samples.ts';
import { Counters } from './stats.ts';
import { previewImage, styleConfigData } from './style-config.ts';
import { TaskQueues } from './task-queues.ts';
import { TaskStore } from './tasks.ts';

export type { FaultConfig, FaultKind, FaultPhase } from './faults.ts';
export type { ServiceStats } from './stats.ts';

export interface ServiceOptions {
	/** 0 = any free port (the default here; the CLI uses 8787). */
	port?: number;
	/** Default '127.0.0.1'. */
	host?: string;
	/** apiKey -> credits; default { 'local-dev-key': 1000 }. */
	accounts?: Record<string, number>;
	/** Tasks processed at the same time, per API; default 4 (AI 3D: always 1 per account). */
	workers?: number;
	/** Default 8000. */
	taskDurationMs?: number;
	/** Each task's duration varies by up to ± this; default 0. */
	taskDurationJitterMs?: number;
	/** Share of tasks that end Failed (and are refunded); default 0. */
	failureRate?: number;
	/** Tasks whose image URL contains this text end Failed; default 'fail', '' disables. */
	failTrigger?: string;
	/** Prompt words that fail text review (9010). */
	bannedWords?: string[];
	/** A prompt (or remover image URL) containing it is answered 9038; default '[reject]'. */
	rejectPhrase?: string;
	/** All rates default to 0. */
	faults?: FaultConfig;
	seed?: number;
	/** Time allowed to download one input image; default 10000. */
	imageFetchTimeoutMs?: number;
	/** Base of the result URLs handed out, when clients reach the service by another name (Docker). */
	publicUrl?: string;
	/** How `percentage` moves while a task runs; default 'linear'. */
	progressModel?: ProgressModel;
	/** Approximate bytes of each result image (noise, so incompressible); default 0: a small gradient. */
	resultBytes?: number;
	/** Nesting of the getStyles answer: 'groupsAsKeys' (default) or 'namedGroupList'. */
	styleShape?: StyleShape;
	/** House Plan result images: 1 (default, 2026-06-12 page) or 3 (2026-03-06 page). */
	housePlanResults?: 1 | 3;
	/** Requests a second per API key; beyond, HTTP 429 with Retry-After. Default 0: no limit. */
	rateLimit?: number;
	now?: () => number;
}

export interface RunningService {
	/** e.g. http://127.0.0.1:43123 (no trailing slash). */
	baseUrl: string;
	/** The first account's key. */
	apiKey: string;
	stats(): ServiceStats;
	balance(apiKey: string): number;
	configure(patch: Partial<ServiceOptions>): void;
	setAccount(apiKey: string, credits: number): void;
	/** Back to the state it started in: options, accounts, no tasks, zero counters. */
	reset(): void;
	/** Closes the server and any open sockets at once. */
	close(): Promise<void>;
}

const DEFAULT_ACCOUNTS: Record<string, number> = { 'local-dev-key': 1000 };
const JSON_TYPE = 'application/json;charset=UTF-8';
/** maskBase64 of a 20 MB image is ~27 MB; the cap only stops runaway uploads. */
const MAX_BODY_BYTES = 100 * MEGABYTE;
/** Options that are not part of the runtime config. */
const NON_CONFIG_OPTIONS = ['port', 'host', 'accounts', 'now', 'publicUrl'];

interface Reply {
	status: number;
	code: number;
	body: string;
	created: boolean;
}

interface RandomStreams {
	ids: Random;
	failures: Random;
	durations: Random;
	faults: Random;
}

// Separate streams, so that e.g. enabling faults does not change the task ids or failures.
function randomStreams(seed: number): RandomStreams {
	return {
		ids: mulberry32(seed),
		failures: mulberry32(seed + 1),
		durations: mulberry32(seed + 2),
		faults: mulberry32(seed + 3),
	};
}

function isLoopback(address: string | undefined): boolean {
	return (
		address !== undefined &&
		(address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
	);
}

function sendText(
	response: http.ServerResponse,
	status: number,
	body: string | Buffer,
	headers: Record<string, string> = { 'content-type': JSON_TYPE },
): void {
	response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
	response.end(body);
}

function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
	sendText(response, status, JSON.stringify(value));
}

async function readBody(request: http.IncomingMessage): Promise<string> {
	const parts: Buffer[] = [];
	let size = 0;
	for await (const part of request as AsyncIterable<Buffer>) {
		size += part.length;
		if (size <= MAX_BODY_BYTES) parts.push(part); // past the cap: keep draining, answer after
	}
	if (size > MAX_BODY_BYTES) {
		throw new ServiceError(
			CODE.PARAM_ERROR,
			`request body is larger than ${MAX_BODY_BYTES / MEGABYTE} MB`,
		);
	}
	return Buffer.concat(parts).toString('utf8');
}

/** JSON.parse without exceptions: the parsed object, or why the text is not a JSON object. */
function parseJsonObject(text: string): Record<string, unknown> | string {
	let parsed: unknown;
	let problem = '';
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		problem = `not valid JSON (${(error as Error).message})`;
	}
	if (problem) return problem;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
		return 'not a JSON object';
	return parsed as Record<string, unknown>;
}

async function readJsonBody(request: http.IncomingMessage): Promise<Record<string, unknown>> {
	const contentType = request.headers['content-type'] ?? '';
	const mediaType = contentType.split(';')[0].trim().toLowerCase();
	if (mediaType !== 'application/json') {
		throw new ServiceError(
			CODE.PARAM_ERROR,
			`Content-Type must be application/json; got ${contentType ? `"${contentType}"` : 'none'}`,
		);
	}
	const text = await readBody(request);
	if (text.trim() === '') {
		throw new ServiceError(CODE.PARAM_ERROR, 'request body is empty: a JSON object is required');
	}
	const parsed = parseJsonObject(text);
	if (typeof parsed === 'string') {
		throw new ServiceError(
			CODE.PARAM_ERROR,
			`the request body is ${parsed}; a JSON object is required`,
		);
	}
	return parsed;
}

function validateAccounts(accounts: unknown): Array<[string, number]> {
	if (typeof accounts !== 'object' || accounts === null || Array.isArray(accounts)) {
		throw new Error('accounts must be an object of apiKey -> credits');
	}
	const probe = new Accounts();
	const entries = Object.entries(accounts as Record<string, unknown>);
	for (const [key, credits] of entries) probe.set(key, credits as number); // throws on bad input
	return entries as Array<[string, number]>;
}

class LocalService implements ServiceContext {
	config!: ServiceConfig;

	readonly accounts = new Accounts();

	readonly counters = new Counters();

	tasks!: TaskStore;

	queues!: TaskQueues;

	random!: RandomStreams;

	publicUrl = '';

	baseUrl = '';

	private clock!: () => number;

	private readonly options: ServiceOptions;

	private readonly server: http.Server;

	private readonly sockets = new Set<Socket>();

	private readonly sleepers = new Set<() => void>();

	private readonly fetches = new Set<http.ClientRequest>();

	private readonly resultFiles = new ResultFiles();

	private readonly rateLimiter = new RateLimiter();

	private pendingFailures: TaskRecord[] = [];

	private closed = false;

	constructor(options: ServiceOptions) {
		this.options = { ...options };
		this.server = http.createServer((request, response) => {
			void this.handle(request, response);
		});
		// An idle connection is closed by its client first, as behind the load balancers real APIs
		// sit behind (60 s and more there): Node's 5 s default let a client that reused a connection
		// just as the server closed it read ECONNRESET on a busy machine.
		this.server.keepAliveTimeout = 65_000;
		this.server.headersTimeout = 66_000;
		this.server.on('connection', (socket: Socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		this.reset();
	}

	now(): number {
		return this.clock();
	}

	readonly trackFetch = (request: http.ClientRequest): (() => void) => {
		if (this.closed) request.destroy(new Error('the service is closing'));
		this.fetches.add(request);
		return () => this.fetches.delete(request);
	};

	reset(): void {
		const options = this.options;
		const patch = Object.fromEntries(
			Object.entries(options).filter(([key]) => !NON_CONFIG_OPTIONS.includes(key)),
		);
		this.config = applyConfigPatch({ ...DEFAULT_CONFIG, faults: {} }, patch);
		this.accounts.clear();
		for (const [key, credits] of validateAccounts(options.accounts ?? DEFAULT_ACCOUNTS)) {
			this.accounts.set(key, credits);
		}
		this.counters.reset();
		this.rateLimiter.reset();
		this.random = randomStreams(this.config.seed);
		this.tasks = new TaskStore(this.random.ids);
		this.queues = new TaskQueues(this.config.workers);
		this.pendingFailures = [];
		this.clock = options.now ?? Date.now;
		if (this.baseUrl) this.publicUrl = (options.publicUrl ?? this.baseUrl).replace(/\/+$/, '');
	}

	configure(patch: Record<string, unknown>): void {
		for (const key of ['port', 'host']) {
			if (patch[key] !== undefined)
				throw new Error(`${key} cannot be changed while the service runs`);
		}
		if (patch.now !== undefined && typeof patch.now !== 'function')
			throw new Error('now must be a function');
		if (patch.publicUrl !== undefined && typeof patch.publicUrl !== 'string') {
			throw new Error('publicUrl must be a string');
		}
		// Validate everything before changing anything, so a bad patch leaves the config as it was.
		const next = applyConfigPatch(this.config, patch, NON_CONFIG_OPTIONS);
		const accounts = patch.accounts === undefined ? [] : validateAccounts(patch.accounts);
		const reseed = next.seed !== this.config.seed;
		this.config = next;
		this.queues.setWorkers(next.workers);
		if (reseed) {
			this.random = randomStreams(next.seed);
			this.tasks.useRandom(this.random.ids);
		}
		for (const [key, credits] of accounts) this.setAccount(key, credits);
		if (typeof patch.now === 'function') this.clock = patch.now as () => number;
		if (typeof patch.publicUrl === 'string') this.publicUrl = patch.publicUrl.replace(/\/+$/, '');
	}

	setAccount(apiKey: string, credits: number): void {
		this.settle();
		this.accounts.set(apiKey, credits);
	}

	// Refunds are settled lazily, whenever money or stats are looked at, because a task's end is
	// a point on the clock rather than an event.
	settle(): void {
		if (this.pendingFailures.length === 0) return;
		const now = this.now();
		this.pendingFailures = this.pendingFailures.filter((task) => {
			if (now < task.slot.endAt) return true;
			this.accounts.refund(task.apiKey, task.cost);
			task.refunded = true;
			return false;
		});
	}

	balance(apiKey: string): number {
		this.settle();
		return this.accounts.balance(apiKey);
	}

	stats(withTasks = true): ServiceStats {
		this.settle();
		const accounts = this.accounts.snapshot();
		return {
			...this.counters.snapshot(),
			credits: { charged: accounts.charged, refunded: accounts.refunded, byKey: accounts.byKey },
			balances: accounts.balances,
			tasks: (withTasks ? this.tasks.all() : []).map((task) => {
				const view = viewTask(this, task);
				return {
					id: task.id.toString(),
					apiKey: task.apiKey,
					kind: task.kind,
					// Lets soak runs tell which item created which task (items use distinct URLs).
					imageUrl: task.input.imageUrl,
					status: view.status,
					waitNumber: view.waitNumber,
					percentage: view.percentage,
					cost: task.cost,
					refunded: task.refunded,
					createdAt: task.createdAt,
					startAt: task.slot.startAt,
					endAt: task.slot.endAt,
					doneSeenAt: task.doneSeenAt ?? null,
					output: view.output ? { width: view.output.width, height: view.output.height } : null,
				};
			}),
		};
	}

	async listen(port: number, host: string): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		const address = this.server.address() as AddressInfo;
		const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
		this.baseUrl = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`;
		this.publicUrl = (this.options.publicUrl ?? this.baseUrl).replace(/\/+$/, '');
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		for (const wake of this.sleepers) wake();
		for (const request of this.fetches) request.destroy(new Error('the service is closing'));
		const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
		for (const socket of this.sockets) socket.destroy();
		await closed;
	}

	private sleep(ms: number): Promise<void> {
		return new Promise<void>((resolve) => {
			const wake = () => {
				clearTimeout(timer);
				this.sleepers.delete(wake);
				resolve();
			};
			const timer = setTimeout(wake, ms);
			this.sleepers.add(wake);
		});
	}

	private async handle(
		request: http.IncomingMessage,
		response: http.ServerResponse,
	): Promise<void> {
		try {
			const url = new URL(request.url ?? '/', 'http://localhost');
			const path = url.pathname;
			if (path.startsWith('/__admin/')) return await this.handleAdmin(request, response, path, url);
			if (path === '/samples' || path.startsWith('/samples/'))
				return this.handleSample(request, response, path);
			if (path.startsWith('/results/')) return this.handleResultFile(request, response, path);
			if (path.startsWith('/styles/')) return this.handleStylePreview(request, response, path);
			const route = findRoute(path);
			if (route) return await this.handleApi(route, request, response, url);
			if (path.startsWith('/api/')) {
				this.counters.requestStarted('unknown', this.clock());
				response.on('finish', () =>
					this.counters.requestFinished('unknown', String(response.statusCode)),
				);
			}
			request.resume();
			sendText(
				response,
				404,
				envelopeText(CODE.FAILED, `no such endpoint: ${request.method} ${path}`),
			);
		} catch (error) {
			request.resume();
			if (response.headersSent) {
				response.destroy();
			} else {
				sendText(
					response,
					500,
					envelopeText(CODE.INTERNAL_ERROR, `internal error: ${(error as Error).message}`),
				);
			}
		}
	}

	private async handleApi(
		route: ApiRoute,
		request: http.IncomingMessage,
		response: http.ServerResponse,
		url: URL,
	): Promise<void> {
		const { endpoint } = route;
		this.counters.requestStarted(endpoint, this.clock());
		response.on('finish', () =>
			this.counters.requestFinished(endpoint, String(response.statusCode)),
		);
		if (this.throttled(request, response)) return;
		if (request.method !== route.method && !(route.method === 'GET' && request.method === 'HEAD')) {
			request.resume();
			sendText(
				response,
				405,
				envelopeText(CODE.FAILED, `use ${route.method} for ${url.pathname}`),
				{
					'content-type': JSON_TYPE,
					allow: route.method,
				},
			);
			return;
		}

		const faults = this.config.faults;
		const stage: FaultStage = route.action === 'generate' ? 'before' : 'request';
		const delay = pickLatency(faults, endpoint, this.random.faults);
		if (delay > 0) {
			this.counters.faultInjected('latency', stage, endpoint);
			await this.sleep(delay);
			if (this.closed) return;
		}

		const early = pickFault(faults, endpoint, stage, this.random.faults);
		// On a result request a spoiled body is the real answer cut or garbled; everything else
		// (and every fault before a create) answers instead of the handler.
		const spoilsRealBody = stage === 'request' && (early === 'truncated' || early === 'malformed');
		if (early && !spoilsRealBody) {
			this.counters.faultInjected(early, stage, endpoint);
			request.resume();
			this.sendFault(early, request, response, endpoint, 200);
			return;
		}

		const reply = await this.dispatch(route, request, url);
		request.resume();
		this.counters.envelopeCode(reply.code);
		if (this.closed) return;
		if (early) {
			this.counters.faultInjected(early, stage, endpoint);
			this.sendFault(early, request, response, endpoint, reply.status, reply.body);
			return;
		}
		if (reply.created) {
			const late = pickFault(faults, endpoint, 'after', this.random.faults);
			if (late) {
				this.counters.faultInjected(late, 'after', endpoint);
				this.sendFault(late, request, response, endpoint, reply.status, reply.body);
				return;
			}
		}
		sendText(response, reply.status, reply.body);
	}

	/**
	 * The rate limit, before anything else of the request is looked at (as a gateway would):
	 * true when the request was refused with HTTP 429. Only known keys are counted; a request
	 * without one goes on to be answered 5002.
	 */
	private throttled(request: http.IncomingMessage, response: http.ServerResponse): boolean {
		const apiKey = request.headers.apikey;
		if (typeof apiKey !== 'string' || !this.accounts.has(apiKey)) return false;
		const refusal = this.rateLimiter.admit(apiKey, this.clock(), this.config.rateLimit);
		if (!refusal) return false;
		request.resume();
		this.counters.rateLimited(apiKey);
		sendText(response, 429, refusal.body, {
			'content-type': JSON_TYPE,
			'retry-after': String(refusal.retryAfterSeconds),
		});
		return true;
	}

	private async dispatch(route: ApiRoute, request: http.IncomingMessage, url: URL): Promise<Reply> {
		try {
			this.settle();
			const apiKey = request.headers.apikey;
			if (typeof apiKey !== 'string' || apiKey === '') {
				throw new ServiceError(CODE.API_KEY_INVALID, 'the APIKEY header is missing');
			}
			if (!this.accounts.has(apiKey))
				throw new ServiceError(CODE.API_KEY_INVALID, 'invalid API key');
			if (route.action === 'getStyles') {
				const data = styleConfigData(route.styleKey, this.config.styleShape, this.publicUrl);
				return {
					status: 200,
					code: CODE.OK,
					body: envelopeText(CODE.OK, 'success', data),
					created: false,
				};
			}
			if (route.action === 'result') {
				const view = getTaskResult(this, route.kind, apiKey, url.searchParams);
				return {
					status: 200,
					code: CODE.OK,
					body: envelopeText(CODE.OK, 'success', view),
					created: false,
				};
			}
			const body = await readJsonBody(request);
			const { kind } = route;
			const task =
				kind === 'photoEnhancer'
					? await createPhotoEnhancerTask(this, apiKey, body)
					: kind === 'objectRemover'
						? await createObjectRemoverTask(this, apiKey, body)
						: await createCatalogTask(this, API_ROWS[kind], apiKey, body);
			if (task.willFail) this.pendingFailures.push(task);
			return {
				status: 200,
				code: CODE.OK,
				body: envelopeText(CODE.OK, 'success', task.id),
				created: true,
			};
		} catch (error) {
			if (error instanceof ServiceError) {
				return {
					status: 200,
					code: error.code,
					body: envelopeText(error.code, error.message),
					created: false,
				};
			}
			// A bug here, not a client error: say so the way the spec's INTERNAL_ERROR does.
			const message = `internal error: ${(error as Error).message}`;
			return {
				status: 500,
				code: CODE.INTERNAL_ERROR,
				body: envelopeText(CODE.INTERNAL_ERROR, message),
				created: false,
			};
		}
	}

	private sendFault(
		kind: FaultKind,
		request: http.IncomingMessage,
		response: http.ServerResponse,
		endpoint: string,
		status: number,
		body = envelopeText(CODE.INTERNAL_ERROR, 'internal error, please retry later'),
	): void {
		const fault = faultResponse(kind, this.config.faults, body, status);
		if (fault === 'reset') {
			this.counters.requestFinished(endpoint, 'reset');
			request.socket.destroy();
			return;
		}
		sendText(response, fault.status, fault.body, fault.headers);
	}

	private handleSample(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		path: string,
	): void {
		request.resume();
		this.counters.download('samples');
		if (path === '/samples' || path === '/samples/') {
			const samples = sampleList(this.publicUrl).map((sample) => {
				const info = inspectImage(sampleBytes(sample.name) as Buffer);
				return typeof info === 'string'
					? { ...sample, image: false }
					: {
							...sample,
							image: true,
							format: info.format,
							width: info.width,
							height: info.height,
							bytes: info.bytes,
						};
			});
			sendJson(response, 200, { samples });
			return;
		}
		const bytes = sampleBytes(decodeURIComponent(path.slice('/samples/'.length)));
		if (!bytes) {
			sendText(response, 404, 'no such sample\n', { 'content-type': 'text/plain' });
			return;
		}
		// Every sample, not-an-image.png included, claims to be a PNG: only the bytes tell.
		sendText(response, 200, bytes, { 'content-type': 'image/png', 'cache-control': 'no-cache' });
	}

	private handleResultFile(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		path: string,
	): void {
		request.resume();
		this.counters.download('results');
		const file = parseResultPath(path);
		const task = file ? this.tasks.get(file.id) : undefined;
		if (!file || !task || !namesFile(task, file) || viewTask(this, task).status !== 'Success') {
			sendText(response, 404, 'no such result\n', { 'content-type': 'text/plain' });
			return;
		}
		const { bytes, contentType } = this.resultFiles.file(
			task,
			file,
			this.config.resultBytes,
			this.config.seed,
		);
		sendText(response, 200, bytes, {
			'content-type': contentType,
			'cache-control': 'public, max-age=86400',
		});
	}

	/** Preview images of the style options; counted with the samples, as images the service ships. */
	private handleStylePreview(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		path: string,
	): void {
		request.resume();
		this.counters.download('samples');
		const match = /^\/styles\/([0-9a-f]{24})\.png$/.exec(path);
		const png = match ? previewImage(match[1]) : undefined;
		if (!png) {
			sendText(response, 404, 'no such style preview\n', { 'content-type': 'text/plain' });
			return;
		}
		sendText(response, 200, png, {
			'content-type': 'image/png',
			'cache-control': 'public, max-age=86400',
		});
	}

	private async handleAdmin(
		request: http.IncomingMessage,
		response: http.ServerResponse,
		path: string,
		url: URL,
	): Promise<void> {
		if (!isLoopback(request.socket.remoteAddress)) {
			request.resume();
			sendJson(response, 403, { error: 'the admin endpoints answer loopback clients only' });
			return;
		}
		const route = `${request.method} ${path}`;
		try {
			switch (route) {
				case 'GET /__admin/stats':
					request.resume();
					// ?tasks=false leaves out the task list, for clients that sample counters often.
					sendJson(response, 200, this.stats(url.searchParams.get('tasks') !== 'false'));
					return;
				case 'GET /__admin/config':
					request.resume();
					sendJson(response, 200, { config: this.config });
					return;
				case 'POST /__admin/config':
					this.configure(await this.readAdminBody(request));
					sendJson(response, 200, { ok: true, config: this.config });
					return;
				case 'POST /__admin/accounts':
					for (const [key, credits] of validateAccounts(await this.readAdminBody(request))) {
						this.setAccount(key, credits);
					}
					sendJson(response, 200, { ok: true, balances: this.accounts.snapshot().balances });
					return;
				case 'POST /__admin/reset':
					request.resume();
					this.reset();
					sendJson(response, 200, { ok: true });
					return;
				default:
					request.resume();
					sendJson(response, 404, {
						error: `no such admin endpoint: ${route}`,
						endpoints: [
							'GET /__admin/stats',
							'GET /__admin/config',
							'POST /__admin/config',
							'POST /__admin/accounts',
							'POST /__admin/reset',
						],
					});
			}
		} catch (error) {
			sendJson(response, 400, { error: (error as Error).message });
		}
	}

	// Admin bodies are JSON whatever the Content-Type says: curl -d sends a form type by default.
	private async readAdminBody(request: http.IncomingMessage): Promise<Record<string, unknown>> {
		const text = await readBody(request);
		if (text.trim() === '') return {};
		const parsed = parseJsonObject(text);
		if (typeof parsed === 'string')
			throw new Error(`the body is ${parsed}; a JSON object is required`);
		return parsed;
	}
}

export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
	const service = new LocalService(options);
	await service.listen(options.port ?? 0, options.host ?? '127.0.0.1');
	const accounts = options.accounts ?? DEFAULT_ACCOUNTS;
	return {
		baseUrl: service.baseUrl,
		apiKey: Object.keys(accounts)[0] ?? '',
		stats: () => service.stats(),
		balance: (apiKey) => service.balance(apiKey),
		configure: (patch) => service.configure(patch as Record<string, unknown>),
		setAccount: (apiKey, credits) => service.setAccount(apiKey, credits),
		reset: () => service.reset(),
		close: () => service.close(),
	};
}

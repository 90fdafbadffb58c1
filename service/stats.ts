// Counters a client's tests read back: how many requests it sent, how many tasks it created and
// paid for, which faults it survived.

export interface EndpointCounters {
	total: number;
	/** HTTP status as a string, or 'reset' when the connection was dropped without a response. */
	byStatus: Record<string, number>;
}

export interface CounterSnapshot {
	requests: {
		/** Requests to the API endpoints (and unknown /api paths); admin, samples and results excluded. */
		total: number;
		byEndpoint: Record<string, EndpointCounters>;
		byStatus: Record<string, number>;
		/** Envelope codes the handlers produced (a fault may then have replaced the response). */
		byCode: Record<string, number>;
		/** The most of those requests that arrived within any one second, by the service's clock. */
		peakPerSecond: number;
	};
	downloads: { samples: number; results: number };
	tasksCreated: {
		total: number;
		byKey: Record<string, number>;
		byEndpoint: Record<string, number>;
	};
	/** Requests refused with HTTP 429 by the rate limit (`rateLimit`), by API key. */
	rateLimited: { total: number; byKey: Record<string, number> };
	faults: {
		total: number;
		byKind: Record<string, number>;
		/** 'before' / 'after' the creation of a task, 'request' on result endpoints. */
		byPhase: Record<string, number>;
		byEndpoint: Record<string, number>;
	};
}

export interface TaskSummary {
	id: string;
	apiKey: string;
	kind: string;
	imageUrl: unknown;
	status: string;
	waitNumber: number;
	percentage: number;
	cost: number;
	refunded: boolean;
	createdAt: number;
	startAt: number;
	endAt: number;
	/** When a result call first answered Success or Failed; null while none has. */
	doneSeenAt: number | null;
	/** width and height are null for a 3D model. */
	output: { width: number | null; height: number | null } | null;
}

export interface ServiceStats extends CounterSnapshot {
	credits: {
		charged: number;
		refunded: number;
		byKey: Record<string, { charged: number; refunded: number }>;
	};
	balances: Record<string, number>;
	tasks: TaskSummary[];
}

function bump(counts: Record<string, number>, key: string): void {
	counts[key] = (counts[key] ?? 0) + 1;
}

function emptySnapshot(): CounterSnapshot {
	return {
		requests: { total: 0, byEndpoint: {}, byStatus: {}, byCode: {}, peakPerSecond: 0 },
		downloads: { samples: 0, results: 0 },
		tasksCreated: { total: 0, byKey: {}, byEndpoint: {} },
		rateLimited: { total: 0, byKey: {} },
		faults: { total: 0, byKind: {}, byPhase: {}, byEndpoint: {} },
	};
}

export class Counters {
	private data: CounterSnapshot = emptySnapshot();
	/** Arrival times of the requests of the last second, oldest first. */
	private lastSecond: number[] = [];

	reset(): void {
		this.data = emptySnapshot();
		this.lastSecond = [];
	}

	/**
	 * Counted where the request arrives: a client's own count of what it sent cannot see how its
	 * requests bunch up on the way, and a client sampling the total cannot time it exactly.
	 */
	requestStarted(endpoint: string, at: number): void {
		this.data.requests.total++;
		this.endpoint(endpoint).total++;
		this.lastSecond.push(at);
		while (this.lastSecond[0] <= at - 1000) this.lastSecond.shift();
		this.data.requests.peakPerSecond = Math.max(
			this.data.requests.peakPerSecond,
			this.lastSecond.length,
		);
	}

	requestFinished(endpoint: string, status: string): void {
		bump(this.endpoint(endpoint).byStatus, status);
		bump(this.data.requests.byStatus, status);
	}

	envelopeCode(code: number): void {
		bump(this.data.requests.byCode, String(code));
	}

	download(kind: 'samples' | 'results'): void {
		this.data.downloads[kind]++;
	}

	taskCreated(apiKey: string, endpoint: string): void {
		this.data.tasksCreated.total++;
		bump(this.data.tasksCreated.byKey, apiKey);
		bump(this.data.tasksCreated.byEndpoint, endpoint);
	}

	rateLimited(apiKey: string): void {
		this.data.rateLimited.total++;
		bump(this.data.rateLimited.byKey, apiKey);
	}

	faultInjected(kind: string, phase: string, endpoint: string): void {
		this.data.faults.total++;
		bump(this.data.faults.byKind, kind);
		bump(this.data.faults.byPhase, phase);
		bump(this.data.faults.byEndpoint, endpoint);
	}

	snapshot(): CounterSnapshot {
		return structuredClone(this.data);
	}

	private endpoint(endpoint: string): EndpointCounters {
		let counters = this.data.requests.byEndpoint[endpoint];
		if (!counters) {
			counters = { total: 0, byStatus: {} };
			this.data.requests.byEndpoint[endpoint] = counters;
		}
		return counters;
	}
}

// Task records and their ids. Ids imitate the real service's 64-bit longs (snowflake-like values
// far above 2^53), so a client that passes them through a JavaScript Number gets a different id
// back and fails visibly here instead of in production.
import type { CatalogApi } from './apis.ts';
import type { Random } from './prng.ts';
import type { Slot } from './queue.ts';

/** The photo enhancer and the object remover, each with its own create handler. */
export type SpecApi = 'photoEnhancer' | 'objectRemover';

export const SPEC_APIS: readonly SpecApi[] = ['photoEnhancer', 'objectRemover'];

export type TaskKind = SpecApi | CatalogApi;

export const TASK_COST: Record<SpecApi, number> = { photoEnhancer: 10, objectRemover: 1 };

export interface TaskRecord {
	id: bigint;
	apiKey: string;
	kind: TaskKind;
	slot: Slot;
	willFail: boolean;
	cost: number;
	refunded: boolean;
	input: Record<string, unknown>;
	/** Size of the image a successful task serves; null for a 3D model. */
	outputWidth: number | null;
	outputHeight: number | null;
	/** Result images listed in output.resultList (House Plan); 1 everywhere else. */
	resultCount: number;
	createdAt: number;
	/** When a result call first answered Success or Failed: how late the client noticed the end. */
	doneSeenAt?: number;
}

export const FIRST_TASK_ID = 1839201938475628544n;

/** Largest value a Java long (the spec's task id type) can hold. */
export const MAX_LONG = 9223372036854775807n;

export class TaskStore {
	private readonly byId = new Map<string, TaskRecord>();

	private lastId = FIRST_TASK_ID;

	private random: Random;

	constructor(random: Random) {
		this.random = random;
	}

	/** A new seed applies to the ids minted from now on. */
	useRandom(random: Random): void {
		this.random = random;
	}

	/** Increasing ids with random gaps, like ids minted by a distributed id generator. */
	nextId(): bigint {
		this.lastId += 1n + BigInt(Math.floor(this.random() * 4096)) * 65536n;
		return this.lastId;
	}

	add(task: TaskRecord): void {
		this.byId.set(task.id.toString(), task);
	}

	get(id: bigint): TaskRecord | undefined {
		return this.byId.get(id.toString());
	}

	all(): TaskRecord[] {
		return [...this.byId.values()];
	}
}

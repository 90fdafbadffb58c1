// Which queue a task waits in. Most APIs share one pool of workers per API (the `workers`
// setting). AI 3D runs one task at a time per account (docs/ideal-house-api.md#limits), so each API key gets its
// own single-worker queue there, untouched by `workers`: one account's backlog never delays
// another's, and waitNumber counts only the account's own tasks.
import { API_ROWS, isCatalogApi } from './apis.ts';
import { TaskQueue } from './queue.ts';
import type { TaskKind } from './tasks.ts';

function isPerAccount(kind: TaskKind): boolean {
	return isCatalogApi(kind) && API_ROWS[kind].queue === 'perAccount';
}

export class TaskQueues {
	private workers: number;

	private readonly shared = new Map<TaskKind, TaskQueue>();

	private readonly perAccount = new Map<string, TaskQueue>();

	constructor(workers: number) {
		this.workers = workers;
	}

	queueFor(kind: TaskKind, apiKey: string): TaskQueue {
		const perAccount = isPerAccount(kind);
		const id = `${kind}\n${apiKey}`;
		let queue = perAccount ? this.perAccount.get(id) : this.shared.get(kind);
		if (!queue) {
			queue = new TaskQueue(perAccount ? 1 : this.workers);
			if (perAccount) this.perAccount.set(id, queue);
			else this.shared.set(kind, queue);
		}
		return queue;
	}

	setWorkers(workers: number): void {
		this.workers = workers;
		for (const queue of this.shared.values()) queue.setWorkers(workers);
	}
}

/**
 * The checks every listing run gets, in queue and in regular mode: each item against its job,
 * and the service's record of the tasks against the ids the nodes emitted.
 */
import type { RunningService } from '../../service/server.ts';
import { type Item, nodeItems, type RunData } from './rest.ts';
import { API_KEY, type Job, KIND, type Kind } from './settings.ts';
import { check, equal } from './summary.ts';

const TWO_POW_53 = BigInt(2) ** BigInt(53);
const PHOTO_SIZES: Record<string, number> = { '512': 512, '1K': 1024, '2K': 2048, '4K': 4096 };
const SOURCES: Record<string, [number, number]> = {
	'living-room.png': [1600, 1200],
	'kitchen.png': [1280, 960],
	'exterior.png': [1920, 1280],
};

// ---------------------------------------------------------------------------------------------
// The items

/** What must be the same in queue and regular mode for one item (the task id itself differs). */
function signature(base: string, node: string, index: number, item: Item): string {
	const { json } = item;
	const input = json.input ?? {};
	return JSON.stringify({
		node,
		index,
		pairedItem: item.pairedItem,
		keys: Object.keys(json).sort(),
		status: json.status,
		creditsCharged: json.creditsCharged,
		imageUrls: input.imageUrls ?? input.imageUrl,
		presetId: input.presetId,
		imageSize: input.imageSize,
		emptyType: input.emptyType,
		size: [json.output?.width, json.output?.height],
		ownResultUrl: json.output?.resultUrl === `${base}/results/${String(json.id)}.png`,
	});
}

function expectedSize(kind: Kind, url: string, imageSize?: string): [number, number] {
	const [w, h] = SOURCES[url.split('/').pop() ?? ''] ?? [0, 0];
	if (kind === 'objectRemover') return [w, h];
	const edge = PHOTO_SIZES[imageSize ?? '4K'];
	return w >= h ? [edge, Math.round((h * edge) / w)] : [Math.round((w * edge) / h), edge];
}

/** Both nodes' items of one listing run: the task ids they emitted, with their kind. */
export function checkListingItems(
	group: string,
	base: string,
	run: RunData | undefined,
	jobs: Job[],
	signatures: string[],
): Array<{ id: string; kind: Kind }> {
	const nodes: Array<[string, Kind]> = [
		['Enhance photos', 'photoEnhancer'],
		['Empty rooms', 'objectRemover'],
	];
	return nodes.flatMap(([node, kind]) =>
		checkNodeItems(group, base, run, node, kind, jobs, signatures).map((id) => ({ id, kind })),
	);
}

/** Checks the items of one node against the jobs; returns the task ids it emitted. */
export function checkNodeItems(
	group: string,
	base: string,
	run: RunData | undefined,
	node: string,
	kind: Kind,
	jobs: Job[],
	signatures: string[],
): string[] {
	const nodeRun = run?.resultData.runData[node]?.[0];
	if (!check(group, `${node}: ran`, !!nodeRun, 'no run data')) return [];
	check(
		group,
		`${node}: succeeded`,
		nodeRun!.executionStatus === 'success' && !nodeRun!.error,
		`${nodeRun!.executionStatus}: ${nodeRun!.error?.message ?? ''}`,
	);
	const items = nodeItems(run, node) ?? [];
	equal(group, `${node}: ${jobs.length} items`, items.length, jobs.length);
	const problems: string[] = [];
	const ids: string[] = [];
	for (const [index, item] of items.entries()) {
		const job = jobs[index];
		const { json } = item;
		const input = json.input ?? {};
		const id = json.id;
		const url = kind === 'photoEnhancer' ? job.photoUrl : job.roomUrl;
		const want: Record<string, unknown> = {
			id: 'digits above 2^53',
			status: 'Success',
			pairedItem: { item: index },
			creditsCharged: KIND[kind].credits,
			sent:
				kind === 'photoEnhancer'
					? [[url], job.presetId, job.imageSize]
					: [url, 'whole_house', undefined],
			size: expectedSize(kind, url, job.imageSize),
			resultUrl: `${base}/results/${String(id)}.png`,
		};
		const got: Record<string, unknown> = {
			id:
				typeof id === 'string' && /^\d+$/.test(id) && BigInt(id) > TWO_POW_53
					? 'digits above 2^53'
					: id,
			status: json.status,
			pairedItem: item.pairedItem,
			creditsCharged: json.creditsCharged,
			sent:
				kind === 'photoEnhancer'
					? [input.imageUrls, input.presetId, input.imageSize]
					: [input.imageUrl, input.emptyType, input.maskUrl],
			size: [json.output?.width, json.output?.height],
			resultUrl: json.output?.resultUrl,
		};
		for (const key of Object.keys(want)) {
			if (JSON.stringify(want[key]) !== JSON.stringify(got[key]))
				problems.push(
					`[${index}] ${key}: expected ${JSON.stringify(want[key])}, got ${JSON.stringify(got[key])}`,
				);
		}
		if (typeof id === 'string') ids.push(id);
		signatures.push(signature(base, node, index, item));
	}
	check(
		group,
		`${node}: every item Success, linked to its input, with the job's image, preset, size, credits and result`,
		problems.length === 0,
		problems.slice(0, 12).join('\n'),
	);
	return ids;
}

// ---------------------------------------------------------------------------------------------
// The service's record

export interface ServiceTask {
	id: string;
	kind: string;
	status: string;
	refunded: boolean;
	createdAt: number;
}

/** The service's tasks and balance at one moment, to tell which tasks a step created. */
export interface ServiceSnapshot {
	ids: Set<string>;
	balance: number;
}

export function serviceTasks(service: RunningService): ServiceTask[] {
	return service.stats().tasks as unknown as ServiceTask[];
}

export function resultPolls(service: RunningService, kind: Kind): number {
	return service.stats().requests.byEndpoint[`${kind}.result`]?.total ?? 0;
}

export function snapshot(service: RunningService): ServiceSnapshot {
	return {
		ids: new Set(serviceTasks(service).map((task) => task.id)),
		balance: service.balance(API_KEY),
	};
}

/** The service created exactly the tasks the nodes reported, each once, and charged for them. */
export function checkServiceRecord(
	group: string,
	service: RunningService,
	before: ServiceSnapshot,
	emitted: Array<{ id: string; kind: Kind }>,
	statuses: string[] = ['Success'],
): ServiceTask[] {
	const created = serviceTasks(service).filter((task) => !before.ids.has(task.id));
	const emittedIds = emitted.map((task) => task.id);
	equal(group, 'no task id emitted twice', emittedIds.length, new Set(emittedIds).size);
	equal(
		group,
		`the ${created.length} tasks the service created = the ${emitted.length} task ids the nodes emitted (none lost, none twice)`,
		created.map((task) => task.id).sort(),
		[...emittedIds].sort(),
	);
	equal(
		group,
		'task kinds match',
		created.map((task) => `${task.id}:${task.kind}`).sort(),
		emitted.map((task) => `${task.id}:${task.kind}`).sort(),
	);
	check(
		group,
		`every task ${statuses.join(' or ')}, none refunded`,
		created.every((task) => statuses.includes(task.status) && !task.refunded),
		JSON.stringify(created.filter((task) => !statuses.includes(task.status) || task.refunded)),
	);
	const credits = emitted.reduce((sum, task) => sum + KIND[task.kind].credits, 0);
	equal(
		group,
		`credits spent = 10 × ${emitted.filter((task) => task.kind === 'photoEnhancer').length} + 1 × ${emitted.filter((task) => task.kind === 'objectRemover').length}`,
		before.balance - service.balance(API_KEY),
		credits,
	);
	return created;
}

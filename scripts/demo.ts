/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console */
/**
 * Demo: the three nodes run in n8n's own workflow engine against the local stand-in service, on the
 * real clock (tasks take 3 s, the nodes poll every 3 s), and the account is checked afterwards.
 *
 *   npm run demo
 *
 * Exits 0 when every item succeeded and the balance moved by exactly what the tasks cost.
 */
import './n8n-env';

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { startService, type RunningService } from '../service/server';
import { runNode, type RunOptions } from '../test/helpers/engine';
import { exampleForLocalSetUp } from '../test/helpers/local-examples';
import { creditsOf } from '../test/helpers/prices';

const TASK_SECONDS = 3;
// What each step's task costs: the Ideal House AI step stages a room (Virtual Staging, 1 credit).
/** One task of each node the demo runs; Ideal House AI runs Virtual Staging. */
const CREDITS = {
	photoEnhancer: creditsOf('photoEnhancer'),
	objectRemover: creditsOf('objectRemover'),
	idealHouse: creditsOf('virtualStaging'),
} as const;
const LABELS = {
	photoEnhancer: 'Photo Enhancer',
	objectRemover: 'Object Remover',
	idealHouse: 'Ideal House AI',
} as const;
type Kind = keyof typeof CREDITS;

interface Step {
	title: string;
	node: Kind;
	parameters: RunOptions['parameters'];
	items?: INodeExecutionData[];
}

interface Row {
	kind: Kind;
	node: string;
	id: string;
	status: string;
	size: string;
	download: string;
	resultUrl: string;
	credits: number;
	seconds: string;
	problem?: string;
}

interface ExampleNode {
	type: string;
	parameters: Record<string, unknown>;
}

/**
 * The README's Quick start as `examples/quick-start.json` ships it, rewritten for the local
 * service as every real-n8n suite rewrites an example: its photo field becomes the item, and its
 * Photo Enhancer's parameters the step's.
 */
function quickStartStep(service: RunningService, wait: { pollInterval: number }): Step {
	const file = join(__dirname, '..', 'examples', 'quick-start.json');
	const { nodes } = JSON.parse(
		exampleForLocalSetUp(readFileSync(file, 'utf8'), { service: service.baseUrl }),
	) as { nodes: ExampleNode[] };
	const photo = nodes.find((node) => node.type === 'n8n-nodes-base.set');
	const enhancer = nodes.find((node) => node.type === 'n8n-nodes-ideal-house.photoEnhancer');
	if (!photo || !enhancer) throw new Error(`${file}: no Set node or no Photo Enhancer`);
	const fields = (
		photo.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }
	).assignments;
	return {
		title: "Quick start (examples/quick-start.json): the README's first photo",
		node: 'photoEnhancer',
		items: [
			{ json: Object.fromEntries(fields.map((field) => [field.name, field.value])) as IDataObject },
		],
		parameters: {
			...enhancer.parameters,
			options: { ...(enhancer.parameters.options as object), ...wait },
		},
	};
}

function steps(service: RunningService, maskPng: Buffer): Step[] {
	const sample = (name: string) => `${service.baseUrl}/samples/${name}`;
	// The API's lowest poll interval, so the demo waits as little as the service allows.
	const wait = { pollInterval: 3 };
	return [
		quickStartStep(service, wait),
		{
			title: 'Photo Enhancer: three listing photos, three presets, one run',
			node: 'photoEnhancer',
			items: [
				{ json: { photo: sample('exterior.png'), preset: 'sky-replacement-sunset-sky' } },
				{
					json: {
						photo: sample('living-room.png'),
						preset: 'image-optimization-mls-photo-enhancement',
					},
				},
				{ json: { photo: sample('kitchen.png'), preset: 'virtual-twilight-luxury-twilight' } },
			],
			parameters: {
				operation: 'enhance',
				imageUrl: '={{ $json.photo }}',
				presetId: '={{ $json.preset }}',
				imageSize: '2K',
				options: { ...wait, downloadResult: true },
			},
		},
		{
			title: 'Photo Enhancer: HDR merge of three exposure brackets',
			node: 'photoEnhancer',
			parameters: {
				operation: 'enhance',
				imageInput: 'urls',
				imageUrls: ['bracket-1.png', 'bracket-2.png', 'bracket-3.png'].map(sample),
				presetId: 'hdr-merge-hdr-merge',
				imageSize: '2K',
				options: wait,
			},
		},
		{
			title: 'Object Remover: whole house',
			node: 'objectRemover',
			parameters: {
				operation: 'remove',
				imageUrl: sample('living-room.png'),
				emptyType: 'whole_house',
				options: wait,
			},
		},
		{
			title: "Object Remover: single furniture, mask from the item's binary data",
			node: 'objectRemover',
			// As a Read File or HTTP Request node would hand the mask over.
			items: [
				{
					json: {},
					binary: {
						mask: { data: maskPng.toString('base64'), mimeType: 'image/png', fileName: 'mask.png' },
					},
				},
			],
			parameters: {
				operation: 'remove',
				imageUrl: sample('living-room.png'),
				emptyType: 'single_furniture',
				maskSource: 'binary',
				maskBinaryProperty: 'mask',
				options: wait,
			},
		},
		{
			title: 'Ideal House AI: virtual staging of an empty living room',
			node: 'idealHouse',
			parameters: {
				resource: 'virtualStaging',
				operation: 'create',
				imageUrl: sample('living-room.png'),
				indoorTypeId: 'Interior Design_Interior Scene_Living Room',
				prompt: 'Scandinavian, light oak, linen sofa',
				options: wait,
			},
		},
	];
}

/** The real size of a downloaded PNG, from its header: proof the file is what the task says. */
function describeDownload(item: INodeExecutionData): string {
	const file = item.binary?.data;
	if (!file) return '-';
	const bytes = Buffer.from(file.data, 'base64');
	const isPng = bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47;
	const size = isPng ? `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}` : 'not a PNG';
	return `${file.mimeType} ${size}, ${(bytes.length / 1024).toFixed(0)} kB`;
}

function toRow(
	service: RunningService,
	kind: Kind,
	item: INodeExecutionData,
	seconds: string,
): Row {
	const json = item.json as {
		id?: string;
		status?: string;
		output?: { resultUrl: string; width: number; height: number } | null;
		creditsCharged?: number;
		error?: string;
		details?: { id?: string; creditsCharged?: number };
	};
	const id = json.id ?? json.details?.id ?? '-';
	// An item error that names a task (e.g. one that ended Failed): ask the service what became of it.
	const serviceStatus = service.stats().tasks.find((task) => task.id === id)?.status;
	const row: Row = {
		kind,
		node: LABELS[kind],
		id,
		status: json.error ? (serviceStatus ?? 'error') : (json.status ?? '?'),
		size: json.output ? `${json.output.width}x${json.output.height}` : '-',
		download: describeDownload(item),
		resultUrl: json.output?.resultUrl ?? '-',
		credits: json.creditsCharged ?? json.details?.creditsCharged ?? 0,
		seconds,
	};
	const expectedCredits = row.status === 'Success' ? CREDITS[kind] : 0;
	if (json.error) row.problem = json.error;
	else if (row.status !== 'Success') row.problem = `ended ${row.status}`;
	else if (row.credits !== expectedCredits)
		row.problem = `charged ${row.credits}, expected ${expectedCredits}`;
	return row;
}

function printTable(rows: Row[]): void {
	const columns: Array<[string, (row: Row) => string]> = [
		['node', (row) => row.node],
		['task id', (row) => row.id],
		['status', (row) => row.status],
		['output', (row) => row.size],
		['downloaded', (row) => row.download],
		['result URL', (row) => row.resultUrl],
		['credits', (row) => String(row.credits)],
		['seconds', (row) => row.seconds],
	];
	const cells = [
		columns.map(([name]) => name),
		...rows.map((row) => columns.map(([, cell]) => cell(row))),
	];
	const widths = columns.map((_, index) => Math.max(...cells.map((line) => line[index].length)));
	const line = (values: string[]) =>
		values
			.map((value, index) => value.padEnd(widths[index]))
			.join('  ')
			.trimEnd();
	console.log(line(cells[0]));
	console.log(line(widths.map((width) => '-'.repeat(width))));
	for (const values of cells.slice(1)) console.log(line(values));
}

async function main(): Promise<number> {
	const service = await startService({
		accounts: { 'demo-key': 1000 },
		workers: 4,
		taskDurationMs: TASK_SECONDS * 1000,
	});
	try {
		const apiKey = service.apiKey;
		console.log(
			`Local service ${service.baseUrl}: tasks take ${TASK_SECONDS} s, 4 workers per interface`,
		);
		const maskResponse = await fetch(`${service.baseUrl}/samples/living-room-mask.png`);
		if (!maskResponse.ok)
			throw new Error(`could not fetch the mask sample: HTTP ${maskResponse.status}`);
		const maskPng = Buffer.from(await maskResponse.arrayBuffer());
		const before = service.balance(apiKey);
		const rows: Row[] = [];
		const started = Date.now();

		for (const step of steps(service, maskPng)) {
			console.log(`- ${step.title}`);
			const runStarted = Date.now();
			const result = await runNode({
				node: step.node,
				parameters: step.parameters,
				items: step.items,
				credentials: { apiKey, baseUrl: service.baseUrl },
				// Every item comes back, failed or not, so the table can show all of them.
				onError: 'continueRegularOutput',
			});
			const seconds = ((Date.now() - runStarted) / 1000).toFixed(1);
			console.log(`  done in ${seconds} s`);
			if (result.error) {
				rows.push({
					kind: step.node,
					node: LABELS[step.node],
					id: '-',
					status: 'error',
					size: '-',
					download: '-',
					resultUrl: '-',
					credits: 0,
					seconds,
					problem: result.error.message,
				});
				continue;
			}
			rows.push(...result.items.map((item) => toRow(service, step.node, item, seconds)));
		}

		const after = service.balance(apiKey);
		// What the account should have paid: a task that did not succeed costs nothing.
		const expected = rows.reduce(
			(sum, row) => sum + (row.status === 'Success' ? CREDITS[row.kind] : 0),
			0,
		);
		console.log('');
		printTable(rows);
		console.log('');
		console.log(
			'(seconds: wall time of the node run the item belongs to; the items of one run are awaited together)',
		);
		console.log(`Balance before: ${before}`);
		console.log(`Balance after:  ${after}`);
		console.log(
			`Difference:     ${before - after} (expected ${expected}: ${CREDITS.photoEnhancer} per Photo Enhancer task, ${CREDITS.objectRemover} per Object Remover task, ${CREDITS.idealHouse} per Virtual Staging task, 0 if Failed)`,
		);
		console.log(`Total time:     ${((Date.now() - started) / 1000).toFixed(1)} s`);

		const problems = rows
			.filter((row) => row.problem)
			.map((row) => `${row.node}${row.id === '-' ? '' : ` task ${row.id}`}: ${row.problem}`);
		if (before - after !== expected) {
			problems.push(`the balance moved by ${before - after} credits, expected ${expected}`);
		}
		if (problems.length > 0) {
			console.error(`\nDEMO FAILED:\n  ${problems.join('\n  ')}`);
			return 1;
		}
		console.log(
			'\nDemo OK: every item succeeded and the account was charged exactly what the tasks cost.',
		);
		return 0;
	} finally {
		await service.close();
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error('DEMO FAILED:', error);
		process.exit(1);
	},
);

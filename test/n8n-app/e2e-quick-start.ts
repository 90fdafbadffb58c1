/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * The README's Quick start, followed in `n8n start` as a new user follows it, so that it cannot
 * rot: the workflow file it names, the nodes, preset and field it names, imported over REST as the
 * editor's *Import from File* saves it; an Ideal House API credential created over REST as the
 * credential dialog does (its Base URL the local service's, where the user leaves the default);
 * the photo field replaced and the credential chosen in the node, as steps 5 asks; then *Execute
 * workflow* over REST, and what step 6 says comes out, read from the execution.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RunningService } from '../../service/server.ts';
import { exampleForLocalSetUp, localSample } from '../helpers/local-examples.ts';
import type { RestSession } from './n8n-process.ts';
import {
	API_KEY,
	check,
	type Context,
	equal,
	REPO,
	runLaterChecks,
	sample,
	taskLines,
} from './e2e-shared.ts';
import { checkTaskItem, nodeItems } from './e2e-items.ts';
import { SOURCES } from './e2e-examples.ts';
import { succeededFormExecution } from './e2e-form-uploads.ts';
import {
	describedWorkflowProblems,
	presetIdOf,
	readQuickStart,
	type Workflow,
} from './quick-start-guide.ts';

const GROUP = "README's Quick start (followed in n8n start)";

export async function checkQuickStart(
	ctx: Context,
	service: RunningService,
	session: RestSession,
): Promise<void> {
	const guide = readQuickStart(readFileSync(join(REPO, 'README.md'), 'utf8'));
	if (
		!check(
			GROUP,
			'the README has a Quick start naming a workflow file, its nodes, a preset, the field to replace and what comes out',
			!!guide,
			'not found, or not in the expected words',
		)
	)
		return;
	const shipped = JSON.parse(readFileSync(join(REPO, guide!.file), 'utf8')) as Workflow;
	const problems = describedWorkflowProblems(guide!, shipped);
	check(
		GROUP,
		`${guide!.file} is the workflow the README describes (${guide!.chain.join(' → ')}, ${guide!.presetLabel}, ${guide!.photoField})`,
		problems.length === 0,
		problems.join('; '),
	);
	const enhancerName = guide!.chain.at(-1)!;
	if (problems.length) return;

	// Step 3: the credential, as the credential dialog creates it.
	const created = await session.rest('/rest/credentials', {
		name: 'Ideal House API account',
		type: 'idealHouseApi',
		data: { apiKey: API_KEY, baseUrl: service.baseUrl },
	});
	const credentialId = String(created.json.data?.id ?? '');
	if (
		!check(
			GROUP,
			'step 3: an Ideal House API credential created (REST, as the credential dialog does)',
			created.status === 200 && !!credentialId,
			`HTTP ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`,
		)
	)
		return;

	// Steps 4 and 5: the file imported, the photo replaced, the credential chosen in the node.
	const photo = localSample(service.baseUrl, 'exterior');
	const workflow = JSON.parse(
		exampleForLocalSetUp(JSON.stringify(shipped), {
			service: service.baseUrl,
			credentials: { idealHouseApi: { id: credentialId, name: 'Ideal House API account' } },
		}),
	) as Workflow;
	const field = (
		workflow.nodes.find((node) => node.name === guide!.chain[1])?.parameters.assignments as {
			assignments: Array<{ name: string; value: unknown }>;
		}
	).assignments.find((entry) => entry.name === guide!.photoField)!;
	field.value = photo;
	const saved = await session.rest('/rest/workflows', {
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		settings: workflow.settings ?? {},
		active: false,
	});
	const workflowId = String(saved.json.data?.id ?? '');
	if (
		!check(
			GROUP,
			`step 4: ${guide!.file} imported (REST, as the editor saves an imported file)`,
			saved.status === 200 && !!workflowId,
			`HTTP ${saved.status} ${JSON.stringify(saved.json).slice(0, 300)}`,
		)
	)
		return;

	// Step 6: Execute workflow, as the editor's button asks for it (n8n 1.x sends the workflow,
	// 2.x runs the saved one; both start from the trigger).
	const stored = (await session.rest(`/rest/workflows/${workflowId}`)).json.data ?? {};
	const tasksBefore = service.stats().tasks.length;
	const run = await session.rest(`/rest/workflows/${workflowId}/run`, {
		workflowData: stored,
		triggerToStartFrom: { name: workflow.nodes[0].name },
	});
	if (
		!check(
			GROUP,
			'step 6: Execute workflow accepted (REST)',
			run.status === 200 && !!run.json.data?.executionId,
			`HTTP ${run.status} ${JSON.stringify(run.json).slice(0, 300)}`,
		)
	)
		return;
	const execution = await succeededFormExecution(GROUP, session, workflowId);
	if (!execution) return;
	const item = nodeItems(GROUP, execution, enhancerName, 1)[0];
	if (!item) return;
	const missing = guide!.outputs.filter(
		(path) => path !== 'Success' && readPath(item.json, path) === undefined,
	);
	check(
		GROUP,
		`step 6: the item holds what the README lists (${guide!.outputs.join(', ')})`,
		missing.length === 0 && guide!.outputs.includes('Success'),
		`missing ${missing.join(', ')}`,
	);
	equal(
		GROUP,
		'step 6: creditsCharged as the README says',
		item.json.creditsCharged,
		guide!.credits,
	);
	await checkTaskItem(ctx, GROUP, enhancerName, 0, item, {
		kind: 'photoEnhancer',
		imageUrls: [sample(ctx, 'exterior.png')],
		presetId: presetIdOf(guide!.presetLabel),
		imageSize: String(
			shipped.nodes.find((node) => node.name === enhancerName)?.parameters.imageSize,
		),
		source: SOURCES['exterior.png'],
	});
	// The service's record: exactly one task, the one the node emitted.
	ctx.stats = service.stats() as unknown as Context['stats'];
	equal(
		GROUP,
		'the service created exactly one task for the run, the id the node emitted',
		ctx.stats!.tasks.slice(tasksBefore).map((task) => task.id),
		[item.json.id],
	);
	await runLaterChecks(ctx);
	taskLines.push(
		`quick start: ${guide!.chain.join(' → ')} executed over REST, ${item.json.status}`,
	);
}

function readPath(value: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>(
			(at, key) =>
				at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined,
			value,
		);
}

/**
 * The README's Quick start as a new user reads it, and whether the workflow file it names is the
 * workflow it describes. Read by the jest check (test/readme-quick-start.test.ts) and by the
 * real-n8n one that follows it (e2e-quick-start.ts), so both hold the README to the same words.
 */

/** What the Quick start says. */
export interface QuickStart {
	/** `examples/quick-start.json` */
	file: string;
	/** The chain it names: **Manual Trigger → Your photo → Enhance the photo**. */
	chain: string[];
	/** The preset by its label: **Sky Replacement: Sunset Sky**. */
	presetLabel: string;
	/** The field to replace with one's photo: `photoUrl`. */
	photoField: string;
	/** What the last step says the node outputs: `status` `Success`, `output.resultUrl`, … */
	outputs: string[];
	/** The credits it says a run costs: `creditsCharged` (10). */
	credits: number;
}

export interface WorkflowNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}

export interface Workflow {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	settings?: Record<string, unknown>;
}

/** The Quick start section of README.md; undefined when it does not say all of the above. */
export function readQuickStart(readme: string): QuickStart | undefined {
	const section = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1];
	if (!section) return undefined;
	const steps = section.split(/^\d+\. /m).slice(1);
	const importStep = steps.find((step) => /Import \[`examples\//.test(step)) ?? '';
	const file = /\[`(examples\/[\w-]+\.json)`\]/.exec(importStep)?.[1];
	const chain = /\*\*([^*]+→[^*]+)\*\*/
		.exec(importStep)?.[1]
		.split('→')
		.map((name) => name.trim());
	const presetLabel = /\*\*([^*:]+: [^*]+)\*\* as Preset/.exec(importStep)?.[1];
	const photoField = /replace `(\w+)` with your photo's public URL/.exec(section)?.[1];
	const lastStep = steps.at(-1) ?? '';
	const outputs = [...lastStep.matchAll(/`([\w.]+)`/g)].map((match) => match[1]);
	const credits = Number(/`creditsCharged` \((\d+)\)/.exec(lastStep)?.[1]);
	if (!file || !chain || !presetLabel || !photoField || Number.isNaN(credits)) return undefined;
	return { file, chain, presetLabel, photoField, outputs, credits };
}

/** A preset's id from its label as the editor lists it (*Category: Name*). */
export function presetIdOf(label: string): string {
	return label
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
}

/** The node names from the manual trigger on, following each node's first connection. */
function chainOf(workflow: Workflow): string[] {
	const names: string[] = [];
	let current = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	while (current && !names.includes(current.name)) {
		names.push(current.name);
		const next = workflow.connections[current.name]?.main?.[0]?.[0]?.node;
		current = workflow.nodes.find((node) => node.name === next);
	}
	return names;
}

/** Where the workflow differs from what the Quick start says of it; empty when it does not. */
export function describedWorkflowProblems(guide: QuickStart, workflow: Workflow): string[] {
	const problems: string[] = [];
	// The README calls the trigger by its node's type; n8n names it "When clicking …".
	const chain = ['Manual Trigger', ...chainOf(workflow).slice(1)];
	if (JSON.stringify(chain) !== JSON.stringify(guide.chain))
		problems.push(`its chain is ${chain.join(' → ')}`);
	const photo = workflow.nodes.find((node) => node.name === guide.chain[1]);
	const enhancer = workflow.nodes.find((node) => node.name === guide.chain.at(-1));
	if (enhancer?.type !== 'n8n-nodes-ideal-house.photoEnhancer')
		problems.push(`${guide.chain.at(-1)} is not an Ideal House Photo Enhancer`);
	if (enhancer?.parameters.presetId !== presetIdOf(guide.presetLabel))
		problems.push(`its preset is ${String(enhancer?.parameters.presetId)}`);
	const fields = (
		(photo?.parameters.assignments as { assignments?: Array<{ name: string }> } | undefined)
			?.assignments ?? []
	).map((field) => field.name);
	if (!fields.includes(guide.photoField))
		problems.push(
			`${guide.chain[1]} has no field ${guide.photoField} (it has ${fields.join(', ')})`,
		);
	if (!String(enhancer?.parameters.imageUrl).includes(`$json.${guide.photoField}`))
		problems.push(`its Image URL is ${String(enhancer?.parameters.imageUrl)}`);
	return problems;
}

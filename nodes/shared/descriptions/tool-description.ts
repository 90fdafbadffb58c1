import type { INodeProperties } from 'n8n-workflow';

import { priceText } from '../catalog/credits';
import type { ApiOfItem } from '../item-life/path';

/**
 * The description the model reads (tool variant only). Declared so n8n adds no generic "Set
 * Automatically" one, which would tell the model next to nothing; the user may still edit it.
 */
export function toolDescriptionField({
	operation,
	text,
	resource,
}: {
	operation: string;
	/** What the model is told, the field's default. */
	text: string;
	/** On a node with several resources: the one the tool runs. */
	resource?: string;
}): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 6 },
		default: text,
		description: 'What the AI model is told about this tool: what it does, its cost and its inputs',
		displayOptions: {
			show: {
				'@tool': [true],
				operation: [operation],
				...(resource ? { resource: [resource] } : {}),
			},
		},
	};
}

/** What a model is told of an API's create: one shape for every API of every node. */
export interface CreateTool {
	/** What the API does, in a sentence. */
	does: string;
	/** Its inputs, as the model passes them. */
	inputs: string;
	/** What else the model needs to call it well. */
	more?: string;
	/** Its price, where it is not the catalog's (an API named by the user has none there). */
	cost?: string;
	/** What the result holds besides id, status and creditsCharged. */
	returns?: string;
}

export function createToolText(api: ApiOfItem, tool: CreateTool): string {
	const returns = tool.returns ?? 'resultUrl, width, height';
	return [
		tool.does,
		`Inputs: ${tool.inputs}.`,
		tool.more,
		`Cost: ${tool.cost ?? (typeof api === 'function' ? 'not known to the node (creditsCharged is null)' : priceText(api))}, refunded if the task fails.`,
		`Waits for the result and returns JSON {id, status, ${returns}, creditsCharged}; give the user the resultUrl exactly as returned.`,
	]
		.filter(Boolean)
		.join(' ');
}

/** What a model is told of Get Result for a task of this kind ("photo enhancement"). */
export function resultToolText(task: string): string {
	return `Reads the current status and result of an Ideal House ${task} task by its ID (the "id" an earlier call returned; keep it as text). Free. Returns JSON {id, status, resultUrl, width, height, creditsCharged}.`;
}

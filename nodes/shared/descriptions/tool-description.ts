import type { INodeProperties } from 'n8n-workflow';

/**
 * The description the model reads, on the tool variant only (n8n shows `@tool` fields there).
 * Declaring it here also stops n8n from adding its generic "Set Automatically" description, which
 * would tell the model no more than "Enhance a photo in Ideal House Photo Enhancer". The user can
 * still edit it in the tool's panel.
 */
export function toolDescriptionField({
	operation,
	text,
	resource,
}: {
	/** The operation the tool runs. */
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

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../shared/api';
import { optionsField, taskIdField, waitForCompletionField } from '../shared/fields';
import { createTaskRouting, taskResultRouting } from '../shared/operations';
import { REQUEST_DEFAULTS } from '../shared/transport';
import { prepareRemoveRequest, removeFields } from './descriptions/remove';

export class ObjectRemover implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ideal House Object Remover',
		name: 'objectRemover',
		icon: { light: 'file:../../icons/idealHouse.svg', dark: 'file:../../icons/idealHouse.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] === "getResult" ? "Get result" : "Remove objects" }}',
		description: 'Remove furniture from interior photos with Ideal House AI (1 credit per task)',
		defaults: { name: 'Ideal House Object Remover' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_NAME, required: true }],
		requestDefaults: REQUEST_DEFAULTS,
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'remove',
				options: [
					{
						name: 'Remove',
						value: 'remove',
						action: 'Remove furniture from a photo',
						description: 'Create a removal task (1 credit, refunded if it fails)',
						routing: createTaskRouting('objectRemover', prepareRemoveRequest),
					},
					{
						name: 'Get Result',
						value: 'getResult',
						action: 'Get the result of a removal task',
						description: 'Read the status and result of a task created earlier',
						routing: taskResultRouting('objectRemover'),
					},
				],
			},
			...removeFields,
			waitForCompletionField('remove'),
			taskIdField,
			optionsField('remove'),
		],
	};
}

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import {
	authenticationField,
	commonDescription,
	operationField,
	optionsField,
	taskIdField,
	waitForCompletionField,
} from '../shared/descriptions/fields';
import { APIS } from '../shared/catalog/catalog';
import { toolDescriptionField } from '../shared/descriptions/tool-description';
import { REMOVE, removeFields, removeOperation } from './descriptions/remove';
import { REMOVAL_RESULT_TOOL_DESCRIPTION, REMOVE_TOOL_DESCRIPTION } from './toolDescriptions';

export class ObjectRemover implements INodeType {
	description: INodeTypeDescription = {
		...commonDescription,
		displayName: 'Ideal House Object Remover',
		name: 'objectRemover',
		icon: {
			light: 'file:../../icons/idealHouse.svg',
			dark: 'file:../../icons/idealHouse.dark.svg',
		},
		subtitle: '={{ $parameter["operation"] === "getResult" ? "Get result" : "Remove objects" }}',
		description: 'Remove furniture from interior photos with Ideal House AI (1 credit per task)',
		defaults: { name: 'Ideal House Object Remover' },
		usableAsTool: true,
		properties: [
			authenticationField,
			operationField(APIS.objectRemover, removeOperation, 'Get the result of a removal task'),
			toolDescriptionField(REMOVE, REMOVE_TOOL_DESCRIPTION),
			toolDescriptionField('getResult', REMOVAL_RESULT_TOOL_DESCRIPTION),
			...removeFields,
			waitForCompletionField(REMOVE),
			taskIdField,
			optionsField(REMOVE),
		],
	};
}

import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

import {
	authenticationField,
	commonDescription,
	operationField,
	optionsField,
	taskIdField,
	waitForCompletionField,
} from '../shared/descriptions/fields';
import { CREDIT_LIMIT_TOOL_NOTE } from '../shared/engine/credit-limit';
import { createTaskRouting } from '../shared/engine/request-cycle';
import { toolDescriptionField } from '../shared/descriptions/tool-description';
import { createBodyCheck } from './create-body';
import { extraBodyField } from './fields';
import { styleLoaders } from './methods/styles';
import { photoFileRule, photoSourceField, withPhotoSource } from './photo-source';
import type { Resource } from './resource';
import { RESOURCES } from './resources';

const CREATE = 'create';
/** The resource a new node starts on: virtual staging, the API real-estate teams use most. */
const FIRST_RESOURCE = 'virtualStaging';

/** A resource's Operation field: Create, routed through the engine with its body check, and Get Result. */
function operationFor(resource: Resource): INodeProperties {
	const bodyFields = resource.fields.filter((field) => field.routing);
	return operationField(
		resource.api,
		{
			name: 'Create',
			value: CREATE,
			action: `Create a ${resource.name.toLowerCase()} task`,
			description: `Create a task: ${resource.description}`,
			routing: createTaskRouting(
				resource.api,
				createBodyCheck(bodyFields, {
					own: resource.own,
					extraLabel: resource.extraBodyLabel,
					api: resource.api,
				}),
				photoFileRule(resource),
			),
		},
		`Get the result of a ${resource.name.toLowerCase()} task`,
		resource.value,
	);
}

const properties: INodeProperties[] = [
	authenticationField,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		default: FIRST_RESOURCE,
		options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
	},
	...RESOURCES.map(operationFor),
	...RESOURCES.map((resource) =>
		toolDescriptionField(
			CREATE,
			`${resource.toolDescription} ${CREDIT_LIMIT_TOOL_NOTE}`,
			resource.value,
		),
	),
	photoSourceField(RESOURCES),
	...RESOURCES.flatMap(withPhotoSource),
	extraBodyField,
	waitForCompletionField(CREATE),
	taskIdField,
	optionsField(CREATE),
];

export class IdealHouse implements INodeType {
	description: INodeTypeDescription = {
		...commonDescription,
		displayName: 'Ideal House AI',
		name: 'idealHouse',
		icon: {
			light: 'file:../../icons/idealHouse.svg',
			dark: 'file:../../icons/idealHouse.dark.svg',
		},
		subtitle: '={{ $parameter["resource"] + ": " + $parameter["operation"] }}',
		description:
			'Virtual staging, exterior and interior redesign, landscaping, decor, edits, floor and house plans and 3D models with Ideal House AI, waiting for the result inside the node',
		defaults: { name: 'Ideal House AI' },
		usableAsTool: true,
		properties,
	};

	/** Every option list the fields load, each by its own method. */
	methods = { loadOptions: styleLoaders(properties) };
}

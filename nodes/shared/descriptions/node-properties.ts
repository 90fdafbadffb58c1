import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { createBodyCheck } from '../item-life/body-check';
import { CREDIT_LIMIT_TOOL_NOTE } from '../item-life/credit-limit';
import { createTaskRouting } from '../item-life/routing';
import {
	operationField,
	optionsField,
	taskIdField,
	waitForCompletionField,
	withArticle,
} from './fields';
import { photoFileRule, photoSourceFields, withPhotoSource } from './photo-fields';
import type { CreateOperation, Resource } from './resource';
import { createToolText, resultToolText, toolDescriptionField } from './tool-description';

// The one way a node is built: its parameters from its resources. What follows their fields
// (Wait for Completion, Task ID, Options) and the item's path behind it are the same on every node.

interface NodeLayout {
	/** With several resources: the one a new node starts on. */
	firstResource?: string;
	/** Fields for every create, after the resources' own (Extra Body Fields). */
	createFields?: INodeProperties[];
}

const CREATE = 'create';

/** A name inside a sentence, acronyms kept: "AI 3D Rendering" becomes "AI 3D rendering". */
function inSentence(name: string): string {
	return name
		.split(' ')
		.map((word) => (/^[A-Z0-9]*[A-Z][A-Z0-9]*$/.test(word) ? word : word.toLowerCase()))
		.join(' ');
}

/** What actions and descriptions call the resource's task. */
const taskOf = (resource: Resource) => resource.task ?? inSentence(resource.name);

function createOperation(resource: Resource): CreateOperation {
	const task = taskOf(resource);
	const does = resource.description.charAt(0).toLowerCase() + resource.description.slice(1);
	return (
		resource.operation ?? {
			name: 'Create',
			value: CREATE,
			action: `Create ${task} task`,
			description: `Create ${withArticle(task)} task: ${does}`,
		}
	);
}

/** The resource's Operation field: its create, routed with its body check, and Get Result. */
function operationFor(resource: Resource, byResource: boolean): INodeProperties {
	const create = createOperation(resource);
	const bodyFields = resource.fields.filter((field) => field.routing);
	const bodyCheck =
		resource.bodyCheck ??
		createBodyCheck(bodyFields, { own: resource.own, extraLabel: resource.extraBodyLabel });
	const option: INodePropertyOptions = {
		...create,
		routing: createTaskRouting({
			api: resource.api,
			bodyCheck,
			photoFiles: photoFileRule(resource),
		}),
	};
	return operationField({
		api: resource.api,
		create: option,
		task: taskOf(resource),
		resource: byResource ? resource.value : undefined,
	});
}

/** The create's value, the same for every resource of a node: its common fields show for it. */
function commonCreateValue(resources: Resource[]): string {
	const values = new Set(resources.map((resource) => createOperation(resource).value));
	if (values.size !== 1) {
		throw new Error(`A node's resources must share one create operation, not ${[...values]}`);
	}
	return [...values][0];
}

function toolDescriptions(resource: Resource, create: string, byResource: boolean) {
	const resourceValue = byResource ? resource.value : undefined;
	const fields = [
		toolDescriptionField({
			operation: create,
			text: `${createToolText(resource.api, resource.tool)} ${CREDIT_LIMIT_TOOL_NOTE}`,
			resource: resourceValue,
		}),
	];
	if (resource.resultTool) {
		fields.push(
			toolDescriptionField({
				operation: 'getResult',
				text: resultToolText(resource.resultTool),
				resource: resourceValue,
			}),
		);
	}
	return fields;
}

function resourceField(resources: Resource[], first: string): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		default: first,
		// In alphabetical order, as n8n lists resources; a new node still starts on `first`.
		options: resources
			.map(({ name, value, description }) => ({ name, value, description }))
			.sort((a, b) => a.name.localeCompare(b.name)),
	};
}

/** The canvas subtitle of a node of several resources, by the panel's names ("Create: Staging"). */
export function resourceSubtitle(resources: Resource[]): string {
	const names = Object.fromEntries(resources.map(({ value, name }) => [value, name]));
	return `={{ ($parameter["operation"] === "getResult" ? "Get Result" : "Create") + ": " + ${JSON.stringify(names)}[$parameter["resource"]] }}`;
}

/** The node's parameters; the rest of its description stays in its class, for n8n's lint. */
export function nodeProperties(resources: Resource[], layout: NodeLayout = {}): INodeProperties[] {
	const byResource = resources.length > 1;
	const create = commonCreateValue(resources);
	const showCreate = (resource: Resource) =>
		byResource ? { resource: [resource.value], operation: [create] } : { operation: [create] };
	return [
		...(byResource ? [resourceField(resources, layout.firstResource ?? resources[0].value)] : []),
		...resources.map((resource) => operationFor(resource, byResource)),
		...resources.flatMap((resource) => toolDescriptions(resource, create, byResource)),
		...photoSourceFields(resources, byResource),
		...resources.flatMap((resource) => withPhotoSource(resource, showCreate(resource))),
		...(layout.createFields ?? []),
		waitForCompletionField(create),
		taskIdField,
		optionsField(create),
	];
}

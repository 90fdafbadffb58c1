/**
 * What n8n shows of each node before its panel opens: the actions of the node list, and the
 * subtitle under the node on the canvas, evaluated by n8n's own expression engine for every
 * resource and operation, as the editor evaluates it.
 */
import { NodeHelpers, Workflow } from 'n8n-workflow';
import type { INode, INodeProperties, INodeType, INodeTypes } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node';

type Choice = { name: string; value: string; action?: string };

const choices = (property?: INodeProperties) => (property?.options ?? []) as Choice[];

/** Each operation a user can pick: its resource (on Ideal House AI) and its option. */
function operations(nodeType: INodeType): Array<{ resource?: Choice; operation: Choice }> {
	const { properties } = nodeType.description;
	const fields = properties.filter((property) => property.name === 'operation');
	const resources = choices(properties.find((property) => property.name === 'resource'));
	if (resources.length === 0) return choices(fields[0]).map((operation) => ({ operation }));
	return resources.flatMap((resource) =>
		choices(
			fields.find((field) => field.displayOptions?.show?.resource?.includes(resource.value)),
		).map((operation) => ({ resource, operation })),
	);
}

function subtitle(nodeType: INodeType, parameters: Record<string, string>): unknown {
	const node: INode = {
		id: 'node-1',
		name: 'Ideal House',
		type: `n8n-nodes-ideal-house.${nodeType.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: (_type: string, version?: number) =>
			NodeHelpers.getVersionedNodeType(nodeType, version),
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(
		node,
		nodeType.description.subtitle,
		'internal',
		{},
	);
}

const nodes = { photoEnhancer: new PhotoEnhancer(), objectRemover: new ObjectRemover() };

test('the Photo Enhancer and the Object Remover: actions and subtitles', () => {
	const shown = Object.values(nodes).flatMap((nodeType) =>
		operations(nodeType).map(({ operation }) => [
			operation.name,
			operation.action,
			subtitle(nodeType, { operation: operation.value }),
		]),
	);
	expect(shown).toEqual([
		['Enhance Photo', 'Enhance photo', 'Enhance Photo'],
		['Get Result', 'Get enhancement result', 'Get Result'],
		['Get Result', 'Get removal result', 'Get Result'],
		['Remove Objects', 'Remove objects from photo', 'Remove Objects'],
	]);
});

test('Ideal House AI: every resource names its task in the actions and on the canvas', () => {
	const idealHouse = new IdealHouse();
	const shown = operations(idealHouse).map(({ resource, operation }) => [
		operation.action,
		subtitle(idealHouse, { resource: resource?.value ?? '', operation: operation.value }),
	]);
	const tasks = [
		['AI 3D', 'AI 3D'],
		['AI 3D rendering', 'AI 3D Rendering'],
		['change furniture', 'Change Furniture'],
		['custom API', 'Custom API'],
		['exterior renovator', 'Exterior Renovator'],
		['floor plan', 'Floor Plan'],
		['furniture try-on', 'Furniture Try-On'],
		['home decor', 'Home Decor'],
		['house plan', 'House Plan'],
		['interior remodel', 'Interior Remodel'],
		['landscaping', 'Landscaping'],
		['magic editor', 'Magic Editor'],
		['plan visualizer', 'Plan Visualizer'],
		['smart replace', 'Smart Replace'],
		['virtual staging', 'Virtual Staging'],
	];
	expect(shown).toEqual(
		tasks.flatMap(([task, name]) => [
			[`Create ${task} task`, `Create: ${name}`],
			[`Get ${task} result`, `Get Result: ${name}`],
		]),
	);
});

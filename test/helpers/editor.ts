/**
 * The editor's option lists: the node's own loader method, called as n8n calls it when a
 * dropdown opens, on n8n-core's LoadOptionsContext with the harness's credentials helper.
 */
import { LoadOptionsContext } from 'n8n-core';
import type {
	IExecuteFunctions,
	INode,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { IdealHouse } from '../../nodes/IdealHouse/IdealHouse.node';
import { commonDescription } from '../../nodes/shared/descriptions/fields';
import { PACKAGE, TEST_CREDENTIALS, runNode } from './engine';

let harnessData: IWorkflowExecuteAdditionalData | undefined;

async function editorData(): Promise<IWorkflowExecuteAdditionalData> {
	if (!harnessData) {
		// The additional data the harness gives a node (with its credentials helper), as it gives it.
		const probe: INodeType = {
			description: {
				...commonDescription,
				displayName: 'Probe',
				name: 'probe',
				description: '',
				defaults: {},
				properties: [],
			},
			async execute(this: IExecuteFunctions) {
				harnessData = (this as unknown as { additionalData: IWorkflowExecuteAdditionalData })
					.additionalData;
				return [[]];
			},
		};
		await runNode({ node: probe, parameters: {} });
	}
	return harnessData!;
}

export async function loadOptions(
	method: string,
	parameters: INodeParameters,
	credentials = TEST_CREDENTIALS,
	nodeType: INodeType = new IdealHouse(),
): Promise<INodePropertyOptions[]> {
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: `${PACKAGE}.${nodeType.description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { idealHouseApi: { id: 'cred-1', name: 'Ideal House account' } },
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const base = await editorData();
	const additionalData = {
		...base,
		// As the editor holds them: with every default, hidden ones included.
		currentNodeParameters: NodeHelpers.getNodeParameters(
			nodeType.description.properties,
			parameters,
			true,
			false,
			node,
			nodeType.description,
		)!,
		// The harness's helper, holding the credential under test.
		credentialsHelper: new (base.credentialsHelper.constructor as new (
			data: typeof credentials,
		) => IWorkflowExecuteAdditionalData['credentialsHelper'])(credentials),
	} as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters.x');
	return await nodeType.methods!.loadOptions![method].call(context);
}

export const SERVICE_DEFAULT = {
	name: 'Service Default',
	value: '',
	description: 'Send no ID: the service chooses',
};

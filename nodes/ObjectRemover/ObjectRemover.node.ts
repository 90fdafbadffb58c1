import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { APIS } from '../shared/catalog/catalog';
import { priceText } from '../shared/catalog/credits';
import { commonDescription } from '../shared/descriptions/fields';
import { nodeProperties } from '../shared/descriptions/node-properties';
import { objectRemover } from './descriptions/remove';

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
		description: `Remove furniture from interior photos with Ideal House AI (${priceText(APIS.objectRemover)})`,
		defaults: { name: 'Ideal House Object Remover' },
		usableAsTool: true,
		properties: nodeProperties([objectRemover]),
	};
}

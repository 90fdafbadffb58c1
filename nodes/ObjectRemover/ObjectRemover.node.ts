import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { APIS } from '../shared/catalog/apis';
import { priceText } from '../shared/catalog/credits';
import { commonDescription } from '../shared/descriptions/fields';
import { nodeProperties } from '../shared/descriptions/node-properties';
import { objectRemover } from './descriptions/remove';

/**
 * Declarative: no `execute`. n8n builds each item's request from the parameters' routing and
 * hands it to `itemHook` (nodes/shared/item-life/routing.ts), the pagination hook that every
 * operation's routing carries; the item's path starts there (CONTRIBUTING, "Where an item enters").
 */
export class ObjectRemover implements INodeType {
	description: INodeTypeDescription = {
		...commonDescription,
		displayName: 'Ideal House Object Remover',
		name: 'objectRemover',
		icon: {
			light: 'file:../../icons/idealHouse.svg',
			dark: 'file:../../icons/idealHouse.dark.svg',
		},
		subtitle: '={{ $parameter["operation"] === "getResult" ? "Get Result" : "Remove Objects" }}',
		description: `Remove furniture from interior photos with Ideal House AI (${priceText(APIS.objectRemover)})`,
		defaults: { name: 'Ideal House Object Remover' },
		usableAsTool: true,
		properties: nodeProperties([objectRemover]),
	};
}

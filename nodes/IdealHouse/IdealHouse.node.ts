import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { commonDescription } from '../shared/descriptions/fields';
import { nodeProperties, resourceSubtitle } from '../shared/descriptions/node-properties';
import { extraBodyField } from './fields';
import { styleLoaders } from './methods/styles';
import { RESOURCES } from './resources';

/**
 * Declarative: no `execute`. n8n builds each item's request from the parameters' routing and
 * hands it to `itemHook` (nodes/shared/item-life/routing.ts), the pagination hook that every
 * operation's routing carries; the item's path starts there (CONTRIBUTING, "Where an item enters").
 */
export class IdealHouse implements INodeType {
	description: INodeTypeDescription = {
		...commonDescription,
		displayName: 'Ideal House AI',
		name: 'idealHouse',
		icon: {
			light: 'file:../../icons/idealHouse.svg',
			dark: 'file:../../icons/idealHouse.dark.svg',
		},
		subtitle: resourceSubtitle(RESOURCES),
		description:
			'Stage, remodel and decorate rooms, redesign exteriors and gardens, edit images, draw floor and house plans and make 3D models with Ideal House AI, waiting for the result inside the node',
		defaults: { name: 'Ideal House AI' },
		usableAsTool: true,
		properties: nodeProperties(RESOURCES, {
			// Virtual staging: the API real-estate teams use most.
			firstResource: 'virtualStaging',
			createFields: [extraBodyField],
		}),
	};

	/** Every option list the fields load, each by its own method. */
	methods = { loadOptions: styleLoaders(this.description.properties) };
}

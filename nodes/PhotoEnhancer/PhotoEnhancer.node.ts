import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { IMAGE_SOURCE } from '../shared/catalog/service';
import { APIS } from '../shared/catalog/apis';
import { priceText } from '../shared/catalog/credits';
import { commonDescription } from '../shared/descriptions/fields';
import { nodeProperties } from '../shared/descriptions/node-properties';
import { ENHANCE, photoEnhancer } from './descriptions/enhance';
import { HDR_MERGE_PRESET_ID } from './presets';

/**
 * Declarative: no `execute`. n8n builds each item's request from the parameters' routing and
 * hands it to `itemHook` (nodes/shared/item-life/routing.ts), the pagination hook that every
 * operation's routing carries; the item's path starts there (CONTRIBUTING, "Where an item enters").
 */
export class PhotoEnhancer implements INodeType {
	description: INodeTypeDescription = {
		...commonDescription,
		displayName: 'Ideal House Photo Enhancer',
		name: 'photoEnhancer',
		icon: {
			light: 'file:../../icons/idealHouse.svg',
			dark: 'file:../../icons/idealHouse.dark.svg',
		},
		subtitle: '={{ $parameter["operation"] === "getResult" ? "Get Result" : "Enhance Photo" }}',
		description: `Enhance real-estate photos with Ideal House AI presets or prompts (${priceText(APIS.photoEnhancer)})`,
		defaults: { name: 'Ideal House Photo Enhancer' },
		usableAsTool: true,
		hints: [
			{
				message:
					'Several images are designed for the HDR Merge preset only; with other presets the service recommends one image per task.',
				type: 'warning',
				location: 'ndv',
				whenToDisplay: 'always',
				displayCondition: `={{ $parameter["operation"] === "${ENHANCE}" && ($parameter["imageSource"] === "${IMAGE_SOURCE.binary}" ? String($parameter["imageBinaryProperty"]).includes(",") : $parameter["imageInput"] === "urls") && $parameter["presetId"] !== "${HDR_MERGE_PRESET_ID}" }}`,
			},
		],
		properties: nodeProperties([photoEnhancer]),
	};
}

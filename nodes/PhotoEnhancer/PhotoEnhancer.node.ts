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
import { ENHANCE, enhanceFields, enhanceOperation } from './descriptions/enhance';
import { HDR_MERGE_PRESET_ID } from './presets';
import { ENHANCE_TOOL_DESCRIPTION, PHOTO_RESULT_TOOL_DESCRIPTION } from './toolDescriptions';

export class PhotoEnhancer implements INodeType {
	description: INodeTypeDescription = {
		...commonDescription,
		displayName: 'Ideal House Photo Enhancer',
		name: 'photoEnhancer',
		icon: {
			light: 'file:../../icons/idealHouse.svg',
			dark: 'file:../../icons/idealHouse.dark.svg',
		},
		subtitle: '={{ $parameter["operation"] === "getResult" ? "Get result" : "Enhance photo" }}',
		description:
			'Enhance real-estate photos with Ideal House AI presets or prompts (10 credits per task)',
		defaults: { name: 'Ideal House Photo Enhancer' },
		usableAsTool: true,
		hints: [
			{
				message:
					'Several images are designed for the HDR Merge preset only; with other presets the service recommends one image per task.',
				type: 'warning',
				location: 'ndv',
				whenToDisplay: 'always',
				displayCondition: `={{ $parameter["operation"] === "${ENHANCE}" && ($parameter["imageSource"] === "binary" ? String($parameter["imageBinaryProperty"]).includes(",") : $parameter["imageInput"] === "urls") && $parameter["presetId"] !== "${HDR_MERGE_PRESET_ID}" }}`,
			},
		],
		properties: [
			authenticationField,
			operationField(APIS.photoEnhancer, enhanceOperation, 'Get the result of an enhancement task'),
			toolDescriptionField(ENHANCE, ENHANCE_TOOL_DESCRIPTION),
			toolDescriptionField('getResult', PHOTO_RESULT_TOOL_DESCRIPTION),
			...enhanceFields,
			waitForCompletionField(ENHANCE),
			taskIdField,
			optionsField(ENHANCE),
		],
	};
}

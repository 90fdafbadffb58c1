import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { commonDescription, operationField, optionsField, taskIdField, waitForCompletionField } from '../shared/fields';
import { toolDescriptionField } from '../shared/tool';
import { enhanceFields, checkEnhanceBody } from './descriptions/enhance';
import { HDR_MERGE_PRESET_ID } from './presets';
import { ENHANCE_TOOL_DESCRIPTION, PHOTO_RESULT_TOOL_DESCRIPTION } from './toolDescriptions';

export class PhotoEnhancer implements INodeType {
	description: INodeTypeDescription = {
		...commonDescription,
		displayName: 'Ideal House Photo Enhancer',
		name: 'photoEnhancer',
		icon: { light: 'file:../../icons/idealHouse.svg', dark: 'file:../../icons/idealHouse.dark.svg' },
		subtitle: '={{ $parameter["operation"] === "getResult" ? "Get result" : "Enhance photo" }}',
		description: 'Enhance real-estate photos with Ideal House AI presets or prompts (10 credits per task)',
		defaults: { name: 'Ideal House Photo Enhancer' },
		usableAsTool: true,
		hints: [
			{
				message:
					'Several images are designed for the HDR Merge preset only; with other presets the service recommends one image per task.',
				type: 'warning',
				location: 'ndv',
				whenToDisplay: 'always',
				displayCondition: `={{ $parameter["operation"] === "enhance" && $parameter["imageInput"] === "urls" && $parameter["presetId"] !== "${HDR_MERGE_PRESET_ID}" }}`,
			},
		],
		properties: [
			operationField(
				'photoEnhancer',
				{
					name: 'Enhance',
					value: 'enhance',
					action: 'Enhance a photo',
					description: 'Create an enhancement task (10 credits, refunded if it fails)',
					validate: checkEnhanceBody,
				},
				'Get the result of an enhancement task',
			),
			toolDescriptionField('enhance', ENHANCE_TOOL_DESCRIPTION),
			toolDescriptionField('getResult', PHOTO_RESULT_TOOL_DESCRIPTION),
			...enhanceFields,
			waitForCompletionField('enhance'),
			taskIdField,
			optionsField('enhance'),
		],
	};
}

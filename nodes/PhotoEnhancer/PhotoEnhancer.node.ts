import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../shared/api';
import { optionsField, taskIdField, waitForCompletionField } from '../shared/fields';
import { createTaskRouting, taskResultRouting } from '../shared/operations';
import { REQUEST_DEFAULTS } from '../shared/transport';
import { enhanceFields, prepareEnhanceRequest } from './descriptions/enhance';
import { HDR_MERGE_PRESET_ID } from './presets';

export class PhotoEnhancer implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Ideal House Photo Enhancer',
		name: 'photoEnhancer',
		icon: { light: 'file:../../icons/idealHouse.svg', dark: 'file:../../icons/idealHouse.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] === "getResult" ? "Get result" : "Enhance photo" }}',
		description: 'Enhance real-estate photos with Ideal House AI presets or prompts (10 credits per task)',
		defaults: { name: 'Ideal House Photo Enhancer' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_NAME, required: true }],
		requestDefaults: REQUEST_DEFAULTS,
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
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'enhance',
				options: [
					{
						name: 'Enhance',
						value: 'enhance',
						action: 'Enhance a photo',
						description: 'Create an enhancement task (10 credits, refunded if it fails)',
						routing: createTaskRouting('photoEnhancer', prepareEnhanceRequest),
					},
					{
						name: 'Get Result',
						value: 'getResult',
						action: 'Get the result of an enhancement task',
						description: 'Read the status and result of a task created earlier',
						routing: taskResultRouting('photoEnhancer'),
					},
				],
			},
			...enhanceFields,
			waitForCompletionField('enhance'),
			taskIdField,
			optionsField('enhance'),
		],
	};
}

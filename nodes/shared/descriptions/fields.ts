import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../catalog/service';
import { pollLimits, rateLimits } from '../core/limits';
import type { ApiOfItem } from '../item-life/path';
import { taskResultRouting } from '../item-life/routing';
import { REQUEST_DEFAULTS } from '../transport/send';

// n8n's lint reads a parameter's default only from a name or a literal.
const DEFAULT_RATE = rateLimits.defaultPerSecond;
const DEFAULT_POLL_SECONDS = pollLimits.intervalSeconds.default;
const DEFAULT_TIMEOUT_SECONDS = pollLimits.defaultTimeoutSeconds;

/** What every node's description shares, the one credential and the request defaults among it. */
export const commonDescription = {
	group: ['transform'],
	version: 1,
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: CREDENTIAL_NAME, required: true }],
	requestDefaults: REQUEST_DEFAULTS,
} satisfies Partial<INodeTypeDescription>;

/** Operation: an API's create, with its routing, and Get Result; one field per resource. */
export function operationField({
	api,
	create,
	task,
	resource,
}: {
	api: ApiOfItem;
	create: INodePropertyOptions;
	/** What the API's task is called inside a sentence, in sentence case ("virtual staging"). */
	task: string;
	/** On a node with several resources: the one this field is shown for. */
	resource?: string;
}): INodeProperties {
	// Named: n8n's lint reads a default as a literal or a name, not as `create.value`.
	const createValue = create.value;
	// Written out field by field: n8n's lint reads each option as an object literal.
	const options: INodePropertyOptions[] = [
		{
			name: create.name,
			value: create.value,
			action: create.action,
			description: create.description,
			routing: create.routing,
		},
		{
			name: 'Get Result',
			value: 'getResult',
			action: `Get ${task} result`,
			description: `Get the status and result of ${withArticle(task)} task created earlier`,
			routing: taskResultRouting(api),
		},
	];
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: createValue,
		...(resource ? { displayOptions: { show: { resource: [resource] } } } : {}),
		// In alphabetical order, as n8n lists operations.
		options: options.sort((a, b) => a.name.localeCompare(b.name)),
	};
}

/** "a" or "an" before a word, by its first letter ("an enhancement", "an AI 3D"). */
export function withArticle(word: string): string {
	return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** Shown the same way on every node; `createOperation` is 'enhance', 'remove' or 'create'. */
export function waitForCompletionField(createOperation: string): INodeProperties {
	return {
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			"Whether to wait inside this node until the task finishes and output its result. Off: output the task ID at once and get the result later with the 'Get Result' operation.",
		displayOptions: { show: { operation: [createOperation] } },
	};
}

export const taskIdField: INodeProperties = {
	displayName: 'Task ID',
	name: 'taskId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 1839201938475628544',
	description:
		'ID of a task created earlier, as an earlier output gives it. Keep it as text: the IDs are 64-bit numbers and lose digits if converted to a number.',
	displayOptions: { show: { operation: ['getResult'] } },
	routing: {
		request: {
			qs: {
				// A long id typed or mapped as a number would already be rounded; strings pass untouched.
				taskId: '={{ String($value).trim() }}',
			},
		},
	},
};

export function optionsField(createOperation: string): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { operation: [createOperation, 'getResult'] } },
		options: [
			{
				displayName: 'Credit Limit',
				name: 'creditLimit',
				type: 'number',
				default: 0,
				typeOptions: { minValue: 0 },
				description:
					"Most credits this node may spend in one execution, counted at each task's creation by the same prices as 'creditsCharged'; 0 means no limit. An item that would pass it fails before anything is sent (the node's 'On Error' setting applies); a task that ends Failed is refunded and counts no more. Holds for the node's tool calls too. With a limit, an API whose price is not known (Custom API) is refused.",
				displayOptions: { show: { '/operation': [createOperation] } },
			},
			{
				displayName: 'Download Result',
				name: 'downloadResult',
				type: 'boolean',
				default: false,
				description: 'Whether to also attach the result image to the item as a file',
			},
			{
				displayName: 'Max Requests per Second',
				name: 'maxRequestsPerSecond',
				type: 'number',
				default: DEFAULT_RATE,
				typeOptions: { minValue: 0.1, numberPrecision: 1 },
				description:
					'The most requests sent to the Ideal House account in any one second, creates and status checks together, shared by all items and by every execution and node of this n8n process that uses the same account (the lowest rate any of them sets holds). A ceiling: when the service answers 429 (too many requests, as when several queue-mode workers share the account), this process sends slower at once, waits as long as the service asks, and speeds up again while it is not throttled. The default sends the creates of 50 items within a second and keeps up to 200 tasks checked every 4 s; with more, status checks are spaced further apart than the poll interval.',
			},
			{
				displayName: 'On Timeout',
				name: 'onTimeout',
				type: 'options',
				default: 'fail',
				options: [
					{
						name: 'Fail the Item',
						value: 'fail',
						description: 'The item fails, and its error names the task ID',
					},
					{
						name: 'Output the Last Status',
						value: 'returnLastStatus',
						description:
							"Output the task as last seen (e.g. Processing), to finish it later with the 'Get Result' operation",
					},
				],
				displayOptions: { show: { '/operation': [createOperation] } },
			},
			{
				displayName: 'Poll Interval (Seconds)',
				name: 'pollInterval',
				type: 'number',
				default: DEFAULT_POLL_SECONDS,
				typeOptions: {
					minValue: pollLimits.intervalSeconds.min,
					maxValue: pollLimits.intervalSeconds.max,
					numberPrecision: 1,
				},
				description: 'Seconds between status checks while waiting (the service asks for 3 to 5)',
				displayOptions: { show: { '/operation': [createOperation] } },
			},
			{
				displayName: 'Preview (Send Nothing)',
				name: 'preview',
				type: 'boolean',
				default: false,
				description:
					"Whether to check every item as a real run would and output the request it would send and its cost in the 'preview' field (method, path, body, credits), instead of sending it. Nothing is created, downloaded or charged.",
			},
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				hint: 'The name of the output binary field to put the result image in',
				description: "Name of the item's binary field that receives the downloaded result image",
				displayOptions: { show: { downloadResult: [true] } },
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				default: DEFAULT_TIMEOUT_SECONDS,
				typeOptions: { minValue: 1 },
				description:
					"How long to wait for the task to finish. On timeout the item fails with the task ID, and the paid task's result can still be fetched with the 'Get Result' operation.",
				displayOptions: { show: { '/operation': [createOperation] } },
			},
		],
	};
}

/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * Runs one of the package's nodes inside n8n-core's real workflow engine (WorkflowExecute →
 * RoutingNode), the way n8n runs it for users: parameters resolved by n8n, the credential's
 * own `authenticate`, n8n's HTTP helpers on the wire (so nock or a local service answers).
 */
import { dirname } from 'node:path';

import { DirectoryLoader, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	Workflow as WorkflowType,
} from 'n8n-workflow';
import { ICredentialsHelper, LoggerProxy, NodeHelpers, Workflow } from 'n8n-workflow';

import { IdealHouseApi } from '../../credentials/IdealHouseApi.credentials';
import { errorCopyProblems, type ErrorCopy } from '../../scripts/review-rules/error-copy';
import { quotedField } from '../../nodes/shared/core/validation';
import { IdealHouse } from '../../nodes/IdealHouse/IdealHouse.node.ts';
import { ObjectRemover } from '../../nodes/ObjectRemover/ObjectRemover.node.ts';
import { PhotoEnhancer } from '../../nodes/PhotoEnhancer/PhotoEnhancer.node.ts';

export const PACKAGE = 'n8n-nodes-ideal-house';
export type NodeName = 'photoEnhancer' | 'objectRemover' | 'idealHouse';

const NODE_TYPES: Record<NodeName, () => INodeType> = {
	photoEnhancer: () => new PhotoEnhancer(),
	objectRemover: () => new ObjectRemover(),
	idealHouse: () => new IdealHouse(),
};

const credentialType = new IdealHouseApi();
const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	[credentialType.name]: credentialType,
};

function credentialTypeNamed(typeName: string): ICredentialType {
	if (!Object.hasOwn(CREDENTIAL_TYPES, typeName)) {
		throw new Error(`Unknown credential type ${typeName}`);
	}
	return CREDENTIAL_TYPES[typeName];
}

/** Everything n8n's engine and the nodes log (tests check that no secret is ever in it). */
export const logLines: string[] = [];
const record =
	(level: string) =>
	(message: string, meta?: object): void => {
		logLines.push(`${level} ${message} ${meta ? JSON.stringify(meta) : ''}`);
	};
const recordingLogger = {
	error: record('error'),
	warn: record('warn'),
	info: record('info'),
	debug: record('debug'),
	scoped: () => recordingLogger,
};
LoggerProxy.init(recordingLogger as never);
/**
 * A node's `this.logger` is n8n's DI Logger, whose first construction would also take over
 * LoggerProxy: the recorder stands in for it, taken from the copy of the DI container n8n-core uses.
 */
function fromN8nCore(name: string): Record<string, unknown> {
	const coreDir = dirname(require.resolve('n8n-core/package.json'));
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(require.resolve(name, { paths: [coreDir] })) as Record<string, unknown>;
}
const { Container } = fromN8nCore('@n8n/di') as {
	Container: { set(type: unknown, value: unknown): void };
};
Container.set(fromN8nCore('@n8n/backend-common').Logger, recordingLogger);

function loadNodeType(name: NodeName): INodeType {
	const nodeType = NODE_TYPES[name]();
	// The real loader adds the declarative "requestOptions" settings (batching, proxy, timeout).
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	return nodeType;
}

const nodeTypeCache = new Map<NodeName, INodeType>();
function nodeTypeFor(name: NodeName): INodeType {
	if (!nodeTypeCache.has(name)) nodeTypeCache.set(name, loadNodeType(name));
	return nodeTypeCache.get(name)!;
}

class TestCredentialsHelper extends ICredentialsHelper {
	/** The Ideal House credential's data. */
	constructor(private readonly apiData: ICredentialDataDecryptedObject) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialTypeNamed(typeName).authenticate;
		if (typeof authenticate !== 'function')
			throw new Error('The credential must authenticate with a function');
		return await authenticate(credentials, requestOptions);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by the nodes');
	}

	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: unknown,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject> {
		credentialTypeNamed(typeName);
		return { ...this.apiData };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(typeName: string): INodeProperties[] {
		return credentialTypeNamed(typeName).properties;
	}
}

export interface RunOptions {
	node: NodeName | INodeType;
	parameters: INodeParameters | Record<string, unknown>;
	/** Input items; default one empty item. */
	items?: INodeExecutionData[];
	credentials?: ICredentialDataDecryptedObject;
	/** n8n's "On Error" setting. */
	onError?: INode['onError'];
	/** Cancels the execution after this many milliseconds (as the Stop button does). */
	cancelAfterMs?: number;
	/** The node's version as a saved workflow holds it; default 1. */
	typeVersion?: number;
	/** n8n's REST address, as its signed links to files carry it; default this machine's. */
	restApiUrl?: string;
	/** The workflow's Settings (which executions n8n saves …); default none set. */
	workflowSettings?: IWorkflowSettings;
}

export interface RunResult {
	/** Items of the first output. */
	items: INodeExecutionData[];
	/** Items of the error output, with On Error = continueErrorOutput. */
	errorItems: INodeExecutionData[];
	/** The node's error when the node failed as a whole. */
	error?: IDataObject & { message: string; description?: string };
	run: IRun;
	executionId: string;
}

export const TEST_CREDENTIALS: ICredentialDataDecryptedObject = {
	// A made-up key: tests assert it never leaks into items, errors or logs.
	// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets
	apiKey: 'test-key-3f9c1a7e',
	baseUrl: 'https://api.ideal.house',
};

let executions = 0;

export async function runNode(options: RunOptions): Promise<RunResult> {
	const executionId = `exec-${++executions}`;
	const nodeType = typeof options.node === 'string' ? nodeTypeFor(options.node) : options.node;
	const node: INode = {
		id: 'node-1',
		name: 'Ideal House',
		type: `${PACKAGE}.${nodeType.description.name}`,
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: options.parameters as INodeParameters,
		credentials: { idealHouseApi: { id: 'cred-1', name: 'Ideal House account' } },
		...(options.onError ? { onError: options.onError } : {}),
	};
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: (_type: string, version?: number) =>
			NodeHelpers.getVersionedNodeType(nodeType, version),
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const workflow: WorkflowType = new Workflow({
		id: 'wf-1',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: options.workflowSettings ?? {},
	});
	const hooks = new ExecutionLifecycleHooks('manual', executionId, {
		id: 'wf-1',
		name: 'test',
		nodes: [node],
		connections: {},
		active: false,
		settings: options.workflowSettings ?? {},
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const additionalData = {
		hooks,
		executionId,
		variables: {},
		restApiUrl: options.restApiUrl ?? 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		credentialsHelper: new TestCredentialsHelper(options.credentials ?? TEST_CREDENTIALS),
	} as unknown as IWorkflowExecuteAdditionalData;
	const items = options.items ?? [{ json: {} }];
	const runExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
		},
	} as unknown as IRunExecutionData;

	const execution = new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	let timer: NodeJS.Timeout | undefined;
	if (options.cancelAfterMs !== undefined) {
		timer = setTimeout(() => execution.cancel(), options.cancelAfterMs);
	}
	let run: IRun;
	try {
		run = await execution;
	} finally {
		if (timer) clearTimeout(timer);
	}
	const task = run.data.resultData.runData[node.name]?.[0];
	const result: RunResult = {
		items: task?.data?.main?.[0] ?? [],
		errorItems: task?.data?.main?.[1] ?? [],
		error: (task?.error ?? run.data.resultData.error) as RunResult['error'],
		run,
		executionId,
	};
	holdErrorsToCopyRules(result, nodeType);
	return result;
}

/** Every label of a node's panel: its parameters, and the options inside its collections. */
function displayNames(
	properties: Array<{ displayName?: string; options?: unknown[]; values?: unknown[] }>,
): string[] {
	const names: string[] = [];
	for (const property of properties) {
		if (property.displayName) names.push(property.displayName);
		for (const nested of [...(property.options ?? []), ...(property.values ?? [])]) {
			if (typeof nested === 'object' && nested !== null && 'displayName' in nested)
				names.push(...displayNames([nested as { displayName?: string }]));
		}
	}
	return names;
}

/**
 * Every error of the package's a run shows, as the node's error or as an item of Continue on Fail,
 * follows n8n's rules for error copy (`errorCopyProblems`); a run that breaks one fails its test.
 */
function holdErrorsToCopyRules(result: RunResult, nodeType: INodeType): void {
	const found: string[] = [];
	const judge = (copy: ErrorCopy, where: string) => {
		for (const problem of errorCopyProblems(copy))
			found.push(`${where}: ${problem}: ${copy.message}`);
	};
	type Shown = RunResult['error'] & { outcome?: unknown; context?: IDataObject; cause?: unknown };
	const error = result.error as Shown | undefined;
	// n8n's routing wraps an operation error of the node's in an API error with the same words.
	const own = [error, error?.cause].find(
		(candidate): candidate is Shown & { field?: string } =>
			typeof candidate === 'object' && candidate !== null && 'outcome' in candidate,
	);
	if (error && own) {
		const itemIndex = error.context?.itemIndex;
		judge(
			{
				message: error.message,
				description: error.description,
				itemIndex: typeof itemIndex === 'number' ? itemIndex : undefined,
			},
			'the node',
		);
		// A refused value names its field as the panel labels it (a file's or an entry's name may follow).
		const field = own.field;
		const labels = displayNames(nodeType.description.properties);
		if (field && !labels.some((label) => field === label || field.startsWith(`${label} `)))
			found.push(`the node: the field "${field}" is no label of the node's panel`);
		if (field && !error.message.includes(quotedField(field)))
			found.push(
				`the node: the message does not name its field in single quotes, ${quotedField(field)}`,
			);
	}
	for (const item of [...result.items, ...result.errorItems]) {
		const { error: message, details } = item.json as { error?: unknown; details?: IDataObject };
		if (typeof message !== 'string' || typeof details !== 'object' || details === null) continue;
		const paired = item.pairedItem as { item?: number } | undefined;
		judge(
			{ message, description: details.description as string | undefined, itemIndex: paired?.item },
			`item ${paired?.item}`,
		);
	}
	if (found.length > 0) throw new Error(`Error copy that breaks n8n's rules:\n${found.join('\n')}`);
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * A credential's own test, run as n8n's credential tester runs a declarative test: its request
 * on a bare node (no defaults of ours); on an HTTP error, its responseCode rules in order, else
 * the status; on success, its responseSuccessBody rules in order.
 */
export async function runCredentialTest(
	credentials: ICredentialDataDecryptedObject,
	typeName = credentialType.name,
): Promise<CredentialTestResult> {
	const type = credentialTypeNamed(typeName);
	const test = type.test!;
	const bareNode: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: test.request },
				},
			],
		},
	} as INodeType;
	const { items, error } = await runNode({ node: bareNode, parameters: {}, credentials });
	if (error) {
		const status = Number(error.httpCode);
		for (const rule of test.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		return { status: 'Error', message: error.message };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const { key, value, message } = rule.properties as {
			key: string;
			value: unknown;
			message: string;
		};
		if ((items[0]?.json as IDataObject)[key] === value) return { status: 'Error', message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

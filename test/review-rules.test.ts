/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
/**
 * The review rules of `npm run review:rules` (scripts/review-rules.ts), each shown failing on a
 * small description made by hand and passing on its mended twin; then the package's own nodes,
 * read from the source as the built files are, which pass every rule but the one-credential
 * finding the upload storage credential brings while it is still in the package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	ICredentialType,
	INodeCredentialDescription,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';

import { IdealHouseApi } from '../credentials/IdealHouseApi.credentials';
import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node';
import * as copyRules from '../scripts/review-rules/copy-rules';
import { singleCredentialPerNode } from '../scripts/review-rules/credential-rules';
import * as operationRules from '../scripts/review-rules/operation-rules';
import * as packageRules from '../scripts/review-rules/package-rules';
import { errorCopyProblems } from '../scripts/review-rules/error-copy';
import { errorsOf, judge } from '../scripts/review-rules/review';
import type {
	Finding,
	NodeUnderReview,
	PackageUnderReview,
} from '../scripts/review-rules/subjects';
import * as warningRules from '../scripts/review-rules/warning-rules';

const rules = (findings: Finding[]) => findings.map((finding) => finding.rule);

function node(
	description: Partial<INodeTypeDescription> = {},
	extra: Partial<NodeUnderReview> = {},
): NodeUnderReview {
	return {
		file: 'dist/nodes/Sketch/Sketch.node.js',
		description: {
			displayName: 'Sketch',
			name: 'sketch',
			group: ['transform'],
			version: 1,
			description: 'Draw a sketch',
			defaults: { name: 'Sketch' },
			inputs: ['main'],
			outputs: ['main'],
			subtitle: '={{ $parameter["operation"] === "get" ? "Get Sketch" : "Draw Sketch" }}',
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					default: 'draw',
					options: [
						{ name: 'Draw Sketch', value: 'draw', action: 'Draw sketch', description: 'Draw one' },
						{ name: 'Get Sketch', value: 'get', action: 'Get sketch', description: 'Get one' },
					],
				},
			],
			...description,
		} as INodeTypeDescription,
		...extra,
	};
}

const field = (property: Partial<INodeProperties>): INodeProperties =>
	({
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		default: '',
		...property,
	}) as INodeProperties;

const withFields = (...fields: Array<Partial<INodeProperties>>) =>
	node({ properties: [...node().description.properties, ...fields.map(field)] });

describe('single-credential-per-node', () => {
	const key = (show?: Record<string, string[]>): INodeCredentialDescription => ({
		name: 'sketchApi',
		required: true,
		...(show ? { displayOptions: { show } } : {}),
	});
	const oauth = (show?: Record<string, string[]>): INodeCredentialDescription => ({
		...key(show),
		name: 'sketchOAuth2Api',
	});

	test('fails two credentials a user can have in use at once', () => {
		const findings = singleCredentialPerNode(node({ credentials: [key(), oauth()] }));
		expect(rules(findings)).toEqual(['single-credential-per-node']);
		expect(findings[0].credentials).toEqual(['sketchApi', 'sketchOAuth2Api']);
	});

	test('fails conditions on different parameters, which can hold at once', () => {
		const credentials = [key({ authentication: ['apiKey'] }), oauth({ source: ['file'] })];
		expect(rules(singleCredentialPerNode(node({ credentials })))).toEqual([
			'single-credential-per-node',
		]);
	});

	test('fails values shared by both conditions', () => {
		const credentials = [
			key({ authentication: ['apiKey', 'both'] }),
			oauth({ authentication: ['oAuth2', 'both'] }),
		];
		expect(rules(singleCredentialPerNode(node({ credentials })))).toEqual([
			'single-credential-per-node',
		]);
	});

	test('fails a multiOptions parameter, which can hold both values', () => {
		const credentials = [key({ modes: ['a'] }), oauth({ modes: ['b'] })];
		const properties = [field({ name: 'modes', type: 'multiOptions', default: [], options: [] })];
		expect(rules(singleCredentialPerNode(node({ credentials, properties })))).toEqual([
			'single-credential-per-node',
		]);
	});

	test('passes one credential, and alternatives shown for disjoint values of one parameter', () => {
		expect(singleCredentialPerNode(node({ credentials: [key()] }))).toEqual([]);
		const credentials = [
			key({ authentication: ['apiKey'] }),
			oauth({ authentication: ['oAuth2'] }),
		];
		expect(singleCredentialPerNode(node({ credentials }))).toEqual([]);
	});
});

describe('codex rules', () => {
	test("valid-node-categories: fails a category off n8n's list, passes one on it", () => {
		const bad = packageRules.validNodeCategories(
			node({}, { codex: { categories: ['Marketing', 'Bananas'] } }),
		);
		expect(rules(bad)).toEqual(['valid-node-categories', 'valid-node-categories']);
		expect(bad[0].message).toContain('Marketing & Content');
		expect(packageRules.validNodeCategories(node({}, { codex: { categories: [] } }))).toHaveLength(
			1,
		);
		const good = node({}, { codex: { categories: ['Marketing & Content', 'Miscellaneous'] } });
		expect(packageRules.validNodeCategories(good)).toEqual([]);
		expect(packageRules.validNodeCategories(node({}, { codex: {} }))).toEqual([]);
	});

	test('no-ai-codex-category: fails AI on a node without the AI node SDK', () => {
		expect(
			rules(packageRules.validNodeCategories(node({}, { codex: { categories: ['AI'] } }))),
		).toEqual(['no-ai-codex-category']);
	});

	test('no-codex-subcategories and no-logic-or-flow-nodes', () => {
		const sub = node({}, { codex: { categories: ['Utility'], subcategories: { Utility: ['x'] } } });
		expect(rules(packageRules.noCodexSubcategories(sub))).toEqual(['no-codex-subcategories']);
		expect(
			packageRules.noCodexSubcategories(node({}, { codex: { categories: ['Utility'] } })),
		).toEqual([]);
		const flow = node({}, { codex: { categories: ['Flow'] } });
		expect(rules(packageRules.noLogicOrFlowNodes(flow))).toEqual(['no-logic-or-flow-nodes']);
		expect(
			packageRules.noLogicOrFlowNodes(node({}, { codex: { categories: ['Utility'] } })),
		).toEqual([]);
	});
});

describe('names of nodes, credentials and files; the manifest; the sources', () => {
	test('node-class-description-name-camelcase', () => {
		expect(rules(packageRules.nodeNameCamelCase(node({ name: 'Sketch Node' })))).toEqual([
			'node-class-description-name-camelcase',
		]);
		expect(packageRules.nodeNameCamelCase(node())).toEqual([]);
	});

	test('node-filename-against-convention, a version suffix allowed', () => {
		expect(
			packageRules.nodeFilenameAgainstConvention(
				node({}, { file: 'dist/nodes/X/Drawing.node.js' }),
			),
		).toHaveLength(1);
		expect(
			packageRules.nodeFilenameAgainstConvention(node({}, { file: 'dist/nodes/X/sketch.node.js' })),
		).toHaveLength(1);
		expect(packageRules.nodeFilenameAgainstConvention(node())).toEqual([]);
		expect(
			packageRules.nodeFilenameAgainstConvention(
				node({}, { file: 'dist/nodes/X/SketchV2.node.js' }),
			),
		).toEqual([]);
	});

	test('the credential naming rules', () => {
		const credential = {
			name: 'Sketch',
			displayName: 'Sketch API',
			properties: [],
		} as ICredentialType;
		expect(
			rules(
				packageRules.credentialNaming({
					file: 'dist/credentials/Sketch.credentials.js',
					className: 'SketchCred',
					credential,
				}),
			),
		).toEqual([
			'cred-class-name-field-conventions',
			'cred-class-name-suffix',
			'cred-filename-against-convention',
		]);
		const good = { ...credential, name: 'sketchApi' } as ICredentialType;
		expect(
			packageRules.credentialNaming({
				file: 'dist/credentials/SketchApi.credentials.js',
				className: 'SketchApi',
				credential: good,
			}),
		).toEqual([]);
	});

	const pkg = (manifest: Record<string, unknown>, nodeSources: Record<string, string> = {}) =>
		({ manifest, nodes: [], credentials: [], nodeSources }) as PackageUnderReview;

	test('require-mit-license and no-monorepo', () => {
		const bad = pkg({
			license: 'ISC',
			repository: { url: 'git+https://x', directory: 'packages/x' },
		});
		expect(rules(packageRules.manifestRules(bad))).toEqual(['require-mit-license', 'no-monorepo']);
		expect(
			packageRules.manifestRules(pkg({ license: 'MIT', repository: { url: 'git+https://x' } })),
		).toEqual([]);
	});

	test('no-hardcoded-ids', () => {
		const bad = pkg(
			{},
			{ 'nodes/X/X.node.ts': 'const qs = { partner_id: \'fixed\' };\nconst accountId = "42";' },
		);
		expect(rules(packageRules.noHardcodedIds(bad))).toEqual([
			'no-hardcoded-ids',
			'no-hardcoded-ids',
		]);
		const good = pkg(
			{},
			{ 'nodes/X/X.node.ts': "const qs = { partner_id: this.getNodeParameter('partnerId', 0) };" },
		);
		expect(packageRules.noHardcodedIds(good)).toEqual([]);
	});

	test('require-community-node-keyword (a warning)', () => {
		expect(rules(warningRules.communityNodeKeyword(pkg({ keywords: ['n8n'] })))).toEqual([
			'require-community-node-keyword',
		]);
		expect(
			warningRules.communityNodeKeyword(pkg({ keywords: ['n8n-community-node-package'] })),
		).toEqual([]);
	});
});

describe('operations and subtitles', () => {
	const operations = (...options: Array<{ name: string } & Record<string, string>>) =>
		node({
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					default: 'draw',
					options: options.map((option) => ({ value: 'draw', ...option })),
				},
			],
		});

	test('operation-copy: fails articles, miscased acronyms, a name without its object, no action', () => {
		const messages = operationRules
			.operationCopy(
				operations(
					{ name: 'Draw', action: 'Draw a sketch', description: 'Draw one' },
					{ name: 'get result', value: 'get', action: 'Get the ai 3d Result', description: 'x' },
					{ name: 'List Sketches', value: 'list', description: 'List them' },
				),
			)
			.map((finding) => finding.message);
		expect(messages).toEqual([
			'name "Draw" does not name its object (the node has no Resource field)',
			'action "Draw a sketch": has the article "a"',
			'name: "get" is not capitalized',
			'name: "result" is not capitalized',
			'action "Get the ai 3d Result": has the article "the"',
			'action "Get the ai 3d Result": "ai" should read "AI"',
			'action "Get the ai 3d Result": "3d" should read "3D"',
			'action "Get the ai 3d Result": "Result" is capitalized mid-sentence',
			'has no action',
		]);
		expect(operationRules.operationCopy(node())).toEqual([]);
	});

	test('operation-copy: with a Resource field, every operation description names its resource', () => {
		const resource: INodeProperties = {
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			default: 'ai3d',
			options: [{ name: 'AI 3D (Beta)', value: 'ai3d' }],
		};
		const withDescription = (description: string) =>
			node({
				properties: [
					resource,
					{
						displayName: 'Operation',
						name: 'operation',
						type: 'options',
						default: 'create',
						displayOptions: { show: { resource: ['ai3d'] } },
						options: [
							{ name: 'Create', value: 'create', action: 'Create AI 3D task', description },
						],
					},
				],
			});
		expect(operationRules.operationCopy(withDescription('Create a task'))).toHaveLength(1);
		expect(
			operationRules.operationCopy(withDescription('Create an AI 3D task: make a model')),
		).toEqual([]);
	});

	test('subtitle-words: fails raw values and a missing subtitle, passes words', () => {
		const raw = operationRules.subtitleWords(
			node({ subtitle: '={{ $parameter["operation"] + ": sketch" }}' }),
		);
		expect(raw.map((finding) => finding.message)).toEqual([
			'subtitle "draw: sketch": "draw" is not capitalized',
			'subtitle "draw: sketch": "sketch" is not capitalized',
			'subtitle "get: sketch": "get" is not capitalized',
			'subtitle "get: sketch": "sketch" is not capitalized',
		]);
		const value = operationRules.subtitleWords(node({ subtitle: '={{ "virtualStaging" }}' }));
		expect(value.map((finding) => finding.message)).toEqual([
			'subtitle "virtualStaging": "virtualStaging" is a raw value, not a word',
			'subtitle "virtualStaging": "virtualStaging" is a raw value, not a word',
		]);
		expect(rules(operationRules.subtitleWords(node({ subtitle: undefined })))).toEqual([
			'subtitle-words',
		]);
		expect(operationRules.subtitleWords(node())).toEqual([]);
	});
});

describe('copy', () => {
	test('require-param-default, nested fields included', () => {
		const collection = field({
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			default: {},
			options: [{ displayName: 'Limit', name: 'limit', type: 'number' } as INodeProperties],
		});
		const bad = node({ properties: [collection] });
		expect(copyRules.requireParamDefault(bad).map((finding) => finding.where)).toEqual([
			'sketch (dist/nodes/Sketch/Sketch.node.js) options.limit',
		]);
		expect(
			copyRules.requireParamDefault(withFields({ name: 'limit', type: 'number', default: 5 })),
		).toEqual([]);
	});

	test('label-title-case: labels and option names', () => {
		const bad = withFields(
			{ displayName: 'Image url' },
			{ displayName: 'Room', type: 'options', options: [{ name: 'living room', value: 'l' }] },
		);
		expect(copyRules.labelTitleCase(bad).map((finding) => finding.message)).toEqual([
			'"Image url": "url" should read "URL"',
			'"living room": "living" is not capitalized',
			'"living room": "room" is not capitalized',
		]);
		expect(
			copyRules.labelTitleCase(
				withFields(
					{ displayName: 'Put Output File in Field' },
					{ displayName: 'This n8n Instance' },
				),
			),
		).toEqual([]);
	});

	test('placeholder-example: an example starts with "e.g.", a collection\'s button text is left alone', () => {
		expect(
			rules(
				copyRules.placeholderExamples(withFields({ placeholder: 'https://example.com/a.png' })),
			),
		).toEqual(['placeholder-example']);
		const good = withFields(
			{ placeholder: 'e.g. https://example.com/a.png' },
			{ name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [] },
		);
		expect(copyRules.placeholderExamples(good)).toEqual([]);
	});

	test('boolean-whether', () => {
		expect(
			rules(
				copyRules.booleanWhether(
					withFields({ type: 'boolean', default: false, description: 'Waits' }),
				),
			),
		).toEqual(['boolean-whether']);
		expect(
			copyRules.booleanWhether(
				withFields({ type: 'boolean', default: false, description: 'Whether to wait' }),
			),
		).toEqual([]);
	});

	test('binary-field-wording: n8n\'s "binary field", in labels, options and descriptions', () => {
		const bad = withFields(
			{
				displayName: 'Image Binary Property',
				name: 'imageBinaryProperty',
				description: 'Name of the binary property',
			},
			{
				displayName: 'Source',
				name: 'source',
				type: 'options',
				options: [{ name: 'Binary Property', value: 'b' }],
			},
		);
		expect(rules(copyRules.binaryFieldWording(bad))).toEqual([
			'binary-field-wording',
			'binary-field-wording',
			'binary-field-wording',
			'binary-field-wording',
		]);
		const good = withFields(
			{
				displayName: 'Input Binary Field',
				name: 'imageBinaryProperty',
				description: 'Name of the binary field',
			},
			{ displayName: 'Put Output File in Field', name: 'binaryPropertyName' },
		);
		expect(copyRules.binaryFieldWording(good)).toEqual([]);
	});

	test('color-spelling', () => {
		expect(rules(copyRules.colorSpelling(withFields({ displayName: 'Colours' })))).toEqual([
			'color-spelling',
		]);
		expect(copyRules.colorSpelling(withFields({ displayName: 'Colors' }))).toEqual([]);
	});

	test('quoted-parameter-names: a parameter named in copy stands in single quotes', () => {
		const colors = { displayName: 'Colors', name: 'colors' };
		const image = (description: string) =>
			withFields(colors, { displayName: 'Color Image URL', name: 'image', description });
		expect(rules(copyRules.quotedParameterNames(image('Used when Colors is empty')))).toEqual([
			'quoted-parameter-names',
		]);
		expect(
			rules(copyRules.quotedParameterNames(image("Read 'Draw Sketch'? No: see Color Image URL"))),
		).toEqual(['quoted-parameter-names']);
		expect(copyRules.quotedParameterNames(image("Used when 'Colors' is empty"))).toEqual([]);
		// A one-word name opening a sentence or inside another thing's name is a plain word.
		expect(
			copyRules.quotedParameterNames(image('Colors come from the image. Colors Of The Year list')),
		).toEqual([]);
	});
});

describe('warning rules', () => {
	const choices = (...names: string[]) =>
		field({
			displayName: 'Room',
			name: 'room',
			type: 'options',
			options: names.map((name, value) => ({ name, value })),
		});

	test('options-sorted-alphabetically: top-level lists, case-insensitively', () => {
		expect(
			rules(
				warningRules.optionsSortedAlphabetically(
					node({ properties: [choices('Living Room', 'bedroom')] }),
				),
			),
		).toEqual(['options-sorted-alphabetically']);
		expect(
			warningRules.optionsSortedAlphabetically(
				node({ properties: [choices('bedroom', 'Living Room')] }),
			),
		).toEqual([]);
	});

	test('non-required-fields-in-collection and open-ended-node-fields', () => {
		const optional = node({
			properties: [field({}), field({ name: 'body', type: 'json', default: '{}' })],
		});
		expect(rules(warningRules.nonRequiredFieldsInCollection(optional))).toEqual([
			'non-required-fields-in-collection',
			'non-required-fields-in-collection',
		]);
		expect(rules(warningRules.openEndedNodeFields(optional))).toEqual(['open-ended-node-fields']);
		const required = node({
			properties: [
				field({ required: true }),
				field({ name: 'body', type: 'json', default: '{}', required: true }),
				field({ name: 'options', type: 'collection', default: {}, options: [field({})] }),
			],
		});
		expect(warningRules.nonRequiredFieldsInCollection(required)).toEqual([]);
		expect(warningRules.openEndedNodeFields(required)).toEqual([]);
	});

	test('hint-max-length, no-duplicate-param-options, no-asterisk-in-option-names, non-core color', () => {
		expect(rules(warningRules.hintMaxLength(withFields({ hint: 'x'.repeat(121) })))).toEqual([
			'hint-max-length',
		]);
		expect(warningRules.hintMaxLength(withFields({ hint: 'x'.repeat(120) }))).toEqual([]);
		expect(
			rules(warningRules.noDuplicateParamOptions(node({ properties: [choices('A', 'A')] }))),
		).toEqual(['no-duplicate-param-options']);
		expect(warningRules.noDuplicateParamOptions(node({ properties: [choices('A', 'B')] }))).toEqual(
			[],
		);
		expect(
			rules(warningRules.noAsteriskInOptionNames(node({ properties: [choices('* All')] }))),
		).toEqual(['no-asterisk-in-option-names']);
		expect(warningRules.noAsteriskInOptionNames(node({ properties: [choices('[All]')] }))).toEqual(
			[],
		);
		const core = node({ defaults: { name: 'Sketch', color: '#FF6D5A' } });
		expect(rules(warningRules.nonCoreColor(core))).toEqual([
			'node-class-description-non-core-color',
		]);
		expect(
			warningRules.nonCoreColor(node({ defaults: { name: 'Sketch', color: '#1A82E2' } })),
		).toEqual([]);
	});
});

describe('the verdict', () => {
	const pkg = (nodes: NodeUnderReview[]) =>
		({
			manifest: { license: 'MIT', keywords: ['n8n-community-node-package'] },
			nodes,
			credentials: [],
			nodeSources: {},
		}) as PackageUnderReview;

	test('a warning not followed must be named in docs/verification.md', () => {
		const optional = pkg([withFields({})]);
		expect(judge(optional, '').errors.map((error) => error.message)).toEqual([
			'the warning non-required-fields-in-collection is not followed, and docs/verification.md does not say why',
		]);
		expect(judge(optional, '- `non-required-fields-in-collection`: why').errors).toEqual([]);
	});
});

describe("the package's own nodes", () => {
	const root = join(__dirname, '..');
	const codex = (name: string) =>
		JSON.parse(readFileSync(join(root, 'nodes', name, `${name}.node.json`), 'utf8')) as unknown;
	const ours: PackageUnderReview = {
		manifest: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
		nodes: [
			['PhotoEnhancer', new PhotoEnhancer().description],
			['ObjectRemover', new ObjectRemover().description],
			['IdealHouse', new IdealHouse().description],
		].map(([name, description]) => ({
			file: `dist/nodes/${name as string}/${name as string}.node.js`,
			description: description as INodeTypeDescription,
			codex: codex(name as string),
		})),
		credentials: [
			{
				file: 'dist/credentials/IdealHouseApi.credentials.js',
				className: 'IdealHouseApi',
				credential: new IdealHouseApi(),
			},
		],
		nodeSources: {},
	};

	test('pass every error rule', () => {
		expect(errorsOf(ours)).toEqual([]);
	});

	test('follow every warning but those docs/verification.md explains', () => {
		const page = readFileSync(join(root, 'docs', 'verification.md'), 'utf8');
		const { errors } = judge(ours, page);
		expect(errors.filter((error) => error.where === 'docs/verification.md')).toEqual([]);
	});
});

describe('error copy (n8n UX guidelines, "Errors")', () => {
	test.each([
		[
			'a message that says what happened, ends with its item, and a description of what to do',
			{
				message: '\'Image URL\' must be an absolute http(s) URL (got "not a url") [item 2]',
				description: 'Give the full public address of the image.',
				itemIndex: 2,
			},
		],
		[
			'the words of the service, quoted, are its own',
			{
				message: 'Ideal House answered code 1001: "image download failed" [item 0]',
				description: 'The service said: "internal error".',
				itemIndex: 0,
			},
		],
	])('copy that follows the rules: %s', (_case, copy) => {
		expect(errorCopyProblems(copy)).toEqual([]);
	});

	test('a message without its item, or with the wrong one', () => {
		const description = 'Fix the field.';
		expect(errorCopyProblems({ message: "'Prompt' is empty", description, itemIndex: 0 })).toEqual([
			'the message does not end with [item 0]',
		]);
		expect(
			errorCopyProblems({ message: "'Prompt' is empty [item 1]", description, itemIndex: 0 }),
		).toEqual(['the message does not end with [item 0]']);
		// Outside an item (an option list the editor loads) there is none to name.
		expect(errorCopyProblems({ message: 'The list did not load', description })).toEqual([]);
	});

	test.each([
		['Ideal House error 1011 [item 0]', 'the message says "error"'],
		['The request failed [item 0]', 'the message says "failed"'],
		['A problem with the mask [item 0]', 'the message says "problem"'],
		['Network failure [item 0]', 'the message says "failure"'],
	])('the words n8n asks nodes to avoid: %s', (message, problem) => {
		expect(errorCopyProblems({ message, description: 'Fix it.', itemIndex: 0 })).toEqual([problem]);
	});

	test('no description, or one that says "error"', () => {
		expect(errorCopyProblems({ message: "'Prompt' is empty [item 0]", itemIndex: 0 })).toEqual([
			'there is no description of what to do',
		]);
		expect(
			errorCopyProblems({
				message: "'Prompt' is empty [item 0]",
				description: 'Correct the error.',
				itemIndex: 0,
			}),
		).toEqual(['the description says "error"']);
	});
});

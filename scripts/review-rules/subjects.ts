/**
 * What the review rules read: the built nodes and credentials as n8n loads them (from `dist/`),
 * their codex files, and the package manifest. n8n's own rules read the source; these read the
 * descriptions the source builds, so a field made by a helper function is seen like one written
 * out.
 */
import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

export interface Finding {
	rule: string;
	/** File, node or parameter, as a reader finds it. */
	where: string;
	message: string;
	/** The credentials a one-credential finding is about. */
	credentials?: string[];
}

export interface NodeUnderReview {
	/** The built file's path inside the package, e.g. dist/nodes/X/X.node.js. */
	file: string;
	description: INodeTypeDescription;
	/** The codex file beside it (X.node.json), parsed; undefined when there is none. */
	codex?: unknown;
}

export interface CredentialUnderReview {
	file: string;
	className: string;
	credential: ICredentialType;
}

export interface PackageUnderReview {
	manifest: Record<string, unknown>;
	nodes: NodeUnderReview[];
	credentials: CredentialUnderReview[];
	/** The nodes' TypeScript sources (`nodes/**\/*.node.ts`), by path. */
	nodeSources: Record<string, string>;
}

/** One parameter of a node, top level or inside a collection, with where it sits. */
export interface Parameter {
	where: string;
	property: INodeProperties;
	topLevel: boolean;
}

function isPropertyCollection(value: unknown): value is INodePropertyCollection {
	return typeof value === 'object' && value !== null && 'values' in value;
}

/** Every parameter of a node: the top level, then what collections and fixed collections hold. */
export function parametersOf(
	properties: INodeProperties[],
	within = '',
	topLevel = true,
): Parameter[] {
	return properties.flatMap((property) => {
		const where = `${within}${property.name}`;
		const own: Parameter = { where, property, topLevel };
		const options = property.options ?? [];
		if (property.type === 'collection') {
			return [own, ...parametersOf(options as INodeProperties[], `${where}.`, false)];
		}
		if (property.type === 'fixedCollection') {
			const groups = options.filter(isPropertyCollection);
			return [
				own,
				...groups.flatMap((group) => parametersOf(group.values, `${where}.${group.name}.`, false)),
			];
		}
		return [own];
	});
}

/** The choices of an options or multiOptions parameter (empty for one that loads them). */
export function choicesOf(property: INodeProperties): INodePropertyOptions[] {
	if (property.type !== 'options' && property.type !== 'multiOptions') return [];
	return (property.options ?? []).filter(
		(option): option is INodePropertyOptions => 'value' in option && !('values' in option),
	);
}

export function nodeWhere(node: NodeUnderReview): string {
	return `${node.description.name} (${node.file})`;
}

/** A text a user reads in the panel, with where it is shown. */
export interface Copy {
	where: string;
	kind: 'label' | 'description' | 'hint' | 'placeholder' | 'option' | 'node';
	text: string;
}

/** Every text of a node that its panel, its canvas box or its node list shows. */
export function copyOf(node: NodeUnderReview): Copy[] {
	const { description } = node;
	const at = nodeWhere(node);
	const texts: Copy[] = [
		{ where: `${at} description`, kind: 'node', text: description.description ?? '' },
		...(description.hints ?? []).map((hint, index) => ({
			where: `${at} hints[${index}]`,
			kind: 'hint' as const,
			text: hint.message,
		})),
	];
	for (const { where, property } of parametersOf(description.properties)) {
		const place = `${at} ${where}`;
		texts.push({ where: place, kind: 'label', text: property.displayName });
		if (property.description)
			texts.push({ where: place, kind: 'description', text: property.description });
		if (property.hint) texts.push({ where: place, kind: 'hint', text: property.hint });
		if (typeof property.placeholder === 'string')
			texts.push({ where: place, kind: 'placeholder', text: property.placeholder });
		for (const choice of choicesOf(property)) {
			const option = `${place} option "${String(choice.value)}"`;
			texts.push({ where: option, kind: 'option', text: choice.name });
			if (choice.description)
				texts.push({ where: option, kind: 'description', text: choice.description });
			if (choice.action) texts.push({ where: option, kind: 'description', text: choice.action });
		}
	}
	return texts;
}

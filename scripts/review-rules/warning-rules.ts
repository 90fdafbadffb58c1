/**
 * The warning-level rules of n8n's community-nodes plugin, read from the built descriptions.
 * A warning is followed where it makes the panel better for a user; where it is not, the rule
 * is named in docs/verification.md with the reason, and the check holds it there.
 */
import {
	choicesOf,
	nodeWhere,
	parametersOf,
	type Finding,
	type NodeUnderReview,
	type PackageUnderReview,
} from './subjects';

const topLevel = (node: NodeUnderReview) =>
	parametersOf(node.description.properties).filter((parameter) => parameter.topLevel);
const at = (node: NodeUnderReview, where: string) => `${nodeWhere(node)} ${where}`;

/** Static top-level option lists sorted by name, case-insensitively, as n8n's rule compares. */
export function optionsSortedAlphabetically(node: NodeUnderReview): Finding[] {
	return topLevel(node)
		.filter(({ property }) => property.type === 'options')
		.flatMap(({ where, property }) => {
			const names = choicesOf(property).map((choice) => choice.name);
			const sorted = [...names].sort((a, b) =>
				a.localeCompare(b, undefined, { sensitivity: 'base' }),
			);
			return names.every((name, index) => name === sorted[index])
				? []
				: [
						{
							rule: 'options-sorted-alphabetically',
							where: at(node, where),
							message: `"${property.displayName}" lists ${names.length} options out of alphabetical order`,
						},
					];
		});
}

const SELECTORS = ['resource', 'operation', 'authentication'];
const NOT_INPUT = ['collection', 'fixedCollection', 'notice', 'callout', 'hidden', 'curlImport'];

export function nonRequiredFieldsInCollection(node: NodeUnderReview): Finding[] {
	return topLevel(node)
		.filter(
			({ property }) => !SELECTORS.includes(property.name) && !NOT_INPUT.includes(property.type),
		)
		.filter(({ property }) => property.required !== true)
		.map(({ where, property }) => ({
			rule: 'non-required-fields-in-collection',
			where: at(node, where),
			message: `"${property.displayName}" is optional and at the top level`,
		}));
}

export function openEndedNodeFields(node: NodeUnderReview): Finding[] {
	return topLevel(node)
		.filter(({ property }) => property.type === 'json' && property.required !== true)
		.map(({ where, property }) => ({
			rule: 'open-ended-node-fields',
			where: at(node, where),
			message: `"${property.displayName}" is an optional JSON field at the top level`,
		}));
}

export function hintMaxLength(node: NodeUnderReview): Finding[] {
	return parametersOf(node.description.properties)
		.filter(({ property }) => (property.hint ?? '').length > 120)
		.map(({ where, property }) => ({
			rule: 'hint-max-length',
			where: at(node, where),
			message: `hint of ${(property.hint ?? '').length} characters (at most 120)`,
		}));
}

export function noDuplicateParamOptions(node: NodeUnderReview): Finding[] {
	return parametersOf(node.description.properties).flatMap(({ where, property }) => {
		const choices = choicesOf(property);
		const names = choices.map((choice) => choice.name);
		const values = choices.map((choice) => JSON.stringify(choice.value));
		const twice = (list: string[]) => list.filter((entry, index) => list.indexOf(entry) !== index);
		return [...twice(names), ...twice(values)].map((entry) => ({
			rule: 'no-duplicate-param-options',
			where: at(node, where),
			message: `${entry} is listed twice`,
		}));
	});
}

export function noAsteriskInOptionNames(node: NodeUnderReview): Finding[] {
	return parametersOf(node.description.properties).flatMap(({ where, property }) =>
		choicesOf(property)
			.filter((choice) => choice.name.includes('*'))
			.map((choice) => ({
				rule: 'no-asterisk-in-option-names',
				where: at(node, where),
				message: `option "${choice.name}" has an asterisk`,
			})),
	);
}

export function nonCoreColor(node: NodeUnderReview): Finding[] {
	const { defaults } = node.description;
	const color = (defaults as { color?: string }).color;
	return color?.toLowerCase() === '#ff6d5a'
		? [
				{
					rule: 'node-class-description-non-core-color',
					where: nodeWhere(node),
					message: "uses n8n's own color",
				},
			]
		: [];
}

export function communityNodeKeyword({ manifest }: PackageUnderReview): Finding[] {
	const keywords = Array.isArray(manifest.keywords) ? manifest.keywords : [];
	return keywords.includes('n8n-community-node-package')
		? []
		: [
				{
					rule: 'require-community-node-keyword',
					where: 'package.json',
					message: 'keyword n8n-community-node-package is missing',
				},
			];
}

/**
 * `single-credential-per-node` (an error in n8n's `recommended` config), read from the built
 * description as n8n's rule reads the source: two credentials may be listed together only when a
 * `displayOptions.show` condition of both names the same single-value parameter (not a
 * `multiOptions` one, which can hold both values at once) and no value of one equals a value of
 * the other, so that a user can only ever have one of them in use. Any other pair is reported,
 * a credential without `displayOptions` included.
 */
import type { INodeCredentialDescription } from 'n8n-workflow';

import { nodeWhere, parametersOf, type Finding, type NodeUnderReview } from './subjects';

export const SINGLE_CREDENTIAL = 'single-credential-per-node';

type ShowValue = NonNullable<
	NonNullable<INodeCredentialDescription['displayOptions']>['show']
>[string];

/** The literal values of a `show` condition; undefined when one is not a plain value. */
function literalValues(values: ShowValue): string[] | undefined {
	if (!Array.isArray(values)) return undefined;
	const literals: string[] = [];
	for (const value of values) {
		if (!['string', 'number', 'boolean'].includes(typeof value)) return undefined;
		literals.push(`${typeof value}:${String(value)}`);
	}
	return literals.length > 0 ? literals : undefined;
}

function showConditions(credential: INodeCredentialDescription): Map<string, string[]> {
	const conditions = new Map<string, string[]>();
	for (const [name, values] of Object.entries(credential.displayOptions?.show ?? {})) {
		const literals = literalValues(values);
		if (literals) conditions.set(name, literals);
	}
	return conditions;
}

export function mutuallyExclusive(
	left: INodeCredentialDescription,
	right: INodeCredentialDescription,
	multiValueParameters: Set<string>,
): boolean {
	const rightConditions = showConditions(right);
	for (const [name, leftValues] of showConditions(left)) {
		if (multiValueParameters.has(name)) continue;
		const rightValues = rightConditions.get(name);
		if (rightValues && leftValues.every((value) => !rightValues.includes(value))) return true;
	}
	return false;
}

/** The credential pairs a user could have in use at once; each pair once, in listed order. */
export function concurrentCredentials(node: NodeUnderReview): Array<[string, string]> {
	const credentials = node.description.credentials ?? [];
	const multiValue = new Set(
		parametersOf(node.description.properties)
			.filter(({ topLevel, property }) => topLevel && property.type === 'multiOptions')
			.map(({ property }) => property.name),
	);
	const pairs: Array<[string, string]> = [];
	credentials.forEach((left, index) => {
		for (const right of credentials.slice(index + 1)) {
			if (!mutuallyExclusive(left, right, multiValue)) pairs.push([left.name, right.name]);
		}
	});
	return pairs;
}

export function singleCredentialPerNode(node: NodeUnderReview): Finding[] {
	return concurrentCredentials(node).map(([left, right]) => ({
		rule: SINGLE_CREDENTIAL,
		where: nodeWhere(node),
		message: `lists ${left} and ${right}, and no single-value parameter shows them for disjoint values: a node can use only one credential at a time`,
		credentials: [left, right],
	}));
}

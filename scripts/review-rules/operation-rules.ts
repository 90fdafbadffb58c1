/* eslint-disable @n8n/community-nodes/no-dangerous-functions */
/**
 * How a node names what it does, by n8n's UX guidelines ("Operations name, action, and
 * description"): an operation's name in Title Case, naming its object where no Resource field
 * stands above it; its action in sentence case without articles, naming the object; its
 * description naming the resource; and a subtitle under the node on the canvas that reads as
 * words for every resource and operation.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { choicesOf, nodeWhere, type Finding, type NodeUnderReview } from './subjects';
import { sentenceCaseProblems, titleCaseProblems } from './words';

interface Operation {
	/** The resource it is shown for, on a node with a Resource field. */
	resource?: INodePropertyOptions;
	option: INodePropertyOptions;
}

function topLevel(node: NodeUnderReview, name: string): INodeProperties[] {
	return node.description.properties.filter((property) => property.name === name);
}

/** Every operation a user can pick, with the resource whose Operation field offers it. */
export function operationsOf(node: NodeUnderReview): Operation[] {
	const resources = topLevel(node, 'resource').flatMap(choicesOf);
	const fields = topLevel(node, 'operation');
	if (resources.length === 0) {
		return fields.flatMap((field) => choicesOf(field).map((option) => ({ option })));
	}
	return resources.flatMap((resource) =>
		fields
			.filter((field) => {
				const shown = field.displayOptions?.show?.resource;
				return !shown || shown.includes(resource.value as string);
			})
			.flatMap((field) => choicesOf(field).map((option) => ({ resource, option }))),
	);
}

const OPERATION_COPY = 'operation-copy';
const SUBTITLE = 'subtitle-words';

function operationWhere(node: NodeUnderReview, { resource, option }: Operation): string {
	const on = resource ? `resource "${String(resource.value)}" ` : '';
	return `${nodeWhere(node)} ${on}operation "${String(option.value)}"`;
}

/** The name of a resource as a description names it: without its parenthesis, any case. */
const resourceNoun = (resource: INodePropertyOptions) =>
	resource.name
		.replace(/\s*\(.*\)\s*/g, ' ')
		.trim()
		.toLowerCase();

export function operationCopy(node: NodeUnderReview): Finding[] {
	const hasResource = topLevel(node, 'resource').length > 0;
	const seen = new Set<string>();
	return operationsOf(node).flatMap((operation) => {
		const { option, resource } = operation;
		const where = operationWhere(node, operation);
		const problems: string[] = [];
		const nameKey = `${String(resource?.value)}:${option.name}`;
		if (!seen.has(nameKey)) {
			seen.add(nameKey);
			problems.push(...titleCaseProblems(option.name).map((problem) => `name: ${problem}`));
			if (!hasResource && option.name.trim().split(/\s+/).length < 2) {
				problems.push(
					`name "${option.name}" does not name its object (the node has no Resource field)`,
				);
			}
		}
		if (!option.action) problems.push('has no action');
		else
			problems.push(
				...sentenceCaseProblems(option.action).map(
					(problem) => `action "${option.action}": ${problem}`,
				),
			);
		if (resource && !(option.description ?? '').toLowerCase().includes(resourceNoun(resource))) {
			problems.push(
				`description "${option.description ?? ''}" does not name the resource "${resource.name}"`,
			);
		}
		return problems.map((message) => ({ rule: OPERATION_COPY, where, message }));
	});
}

/** The subtitle n8n shows for these parameters, evaluated as its expression would be. */
export function evaluateSubtitle(subtitle: string, parameters: Record<string, unknown>): string {
	const body = /^=\{\{([\s\S]*)\}\}$/.exec(subtitle.trim())?.[1];
	if (body === undefined) return subtitle;
	return String(new Function('$parameter', `return (${body});`)(parameters));
}

export function subtitleWords(node: NodeUnderReview): Finding[] {
	const { subtitle } = node.description;
	if (!subtitle) return [{ rule: SUBTITLE, where: nodeWhere(node), message: 'has no subtitle' }];
	return operationsOf(node).flatMap((operation) => {
		const parameters = { resource: operation.resource?.value, operation: operation.option.value };
		let shown: string;
		try {
			shown = evaluateSubtitle(subtitle, parameters);
		} catch (error) {
			return [
				{
					rule: SUBTITLE,
					where: operationWhere(node, operation),
					message: `subtitle does not evaluate: ${String(error)}`,
				},
			];
		}
		return titleCaseProblems(shown).map((problem) => ({
			rule: SUBTITLE,
			where: operationWhere(node, operation),
			message: `subtitle "${shown}": ${problem}`,
		}));
	});
}

/**
 * The panel's copy, by n8n's UX guidelines for community nodes ("Copy") and the words n8n's own
 * nodes use: Title Case labels and option names, placeholders that start with "e.g.", booleans
 * described with "Whether", parameter names in single quotes, one word per thing (n8n's "binary
 * field", US "color"). Also `require-param-default` (an error in n8n's plugin): every parameter,
 * nested ones included, declares a default.
 */
import {
	copyOf,
	nodeWhere,
	parametersOf,
	type Copy,
	type Finding,
	type NodeUnderReview,
} from './subjects';
import { titleCaseProblems } from './words';

const each = (node: NodeUnderReview) => parametersOf(node.description.properties);
const at = (node: NodeUnderReview, where: string) => `${nodeWhere(node)} ${where}`;

export function requireParamDefault(node: NodeUnderReview): Finding[] {
	return each(node)
		.filter(({ property }) => !('default' in property))
		.map(({ where }) => ({
			rule: 'require-param-default',
			where: at(node, where),
			message: 'declares no default',
		}));
}

/** Labels and option names in Title Case (n8n's UX guidelines, "Text Case"). */
export function labelTitleCase(node: NodeUnderReview): Finding[] {
	return copyOf(node)
		.filter(({ kind }) => kind === 'label' || kind === 'option')
		.flatMap(({ where, text }) =>
			titleCaseProblems(text).map((problem) => ({
				rule: 'label-title-case',
				where,
				message: `"${text}": ${problem}`,
			})),
		);
}

/** A collection's placeholder is its button's text ("Add Option"), not an example. */
export function placeholderExamples(node: NodeUnderReview): Finding[] {
	return each(node)
		.filter(({ property }) => typeof property.placeholder === 'string')
		.filter(({ property }) => !['collection', 'fixedCollection'].includes(property.type))
		.filter(({ property }) => !/^e\.g\. \S/.test(String(property.placeholder)))
		.map(({ where, property }) => ({
			rule: 'placeholder-example',
			where: at(node, where),
			message: `placeholder "${String(property.placeholder)}" should start with "e.g. "`,
		}));
}

export function booleanWhether(node: NodeUnderReview): Finding[] {
	return each(node)
		.filter(({ property }) => property.type === 'boolean')
		.filter(({ property }) => !/^Whether /.test(property.description ?? ''))
		.map(({ where, property }) => ({
			rule: 'boolean-whether',
			where: at(node, where),
			message: `description "${property.description ?? ''}" should start with "Whether"`,
		}));
}

/**
 * The field that names an item's file: n8n's nodes call it a binary field ("Input Binary Field",
 * "Put Output File in Field"), never a binary property, in labels, options and descriptions alike.
 */
export function binaryFieldWording(node: NodeUnderReview): Finding[] {
	const property = copyOf(node)
		.filter(({ text }) => /binary propert/i.test(text))
		.map(({ where, text }) => ({
			rule: 'binary-field-wording',
			where,
			message: `says "binary property" where n8n says "binary field": "${text}"`,
		}));
	const labels = each(node)
		.filter(({ property: field }) => field.type === 'string' && /binaryProperty/i.test(field.name))
		.filter(
			({ property: field }) =>
				!/Input Binary Field|Put Output File in Field/.test(field.displayName),
		)
		.map(({ where, property: field }) => ({
			rule: 'binary-field-wording',
			where: at(node, where),
			message: `label "${field.displayName}" should be n8n's "Input Binary Field" (or "Put Output File in Field" for a result)`,
		}));
	return [...property, ...labels];
}

/** One spelling: n8n's nodes write "color". */
export function colorSpelling(node: NodeUnderReview): Finding[] {
	return copyOf(node)
		.filter(({ text }) => /colour/i.test(text))
		.map(({ where, text }) => ({
			rule: 'color-spelling',
			where,
			message: `says "colour" where n8n's nodes say "color": "${text}"`,
		}));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a parameter's name appears in a text without the single quotes around it. */
function unquoted(copy: Copy, label: string): boolean {
	const pattern = new RegExp(`(^|[^'\\w])${escape(label)}(?=$|[^'\\w])`, 'g');
	for (const match of copy.text.matchAll(pattern)) {
		if (label.includes(' ')) return true;
		// A one-word name is taken for a word of the sentence where it opens one ("Prompt text …")
		// or stands in a capitalized phrase, another thing's name ("Indoor Style Options").
		const start = match.index + match[1].length;
		const before = copy.text.slice(0, start);
		const after = copy.text.slice(start + label.length);
		const opensSentence = /(^|[.!?]\s+)$/.test(before);
		const inName = /[A-Z][\w-]*["']?\s+$/.test(before) || /^\s+["']?[A-Z]/.test(after);
		if (!opensSentence && !inName) return true;
	}
	return false;
}

/** n8n's UX guidelines: a parameter named in copy is wrapped in single quotes ('Task ID'). */
export function quotedParameterNames(node: NodeUnderReview): Finding[] {
	const labels = [...new Set(each(node).map(({ property }) => property.displayName))].filter(
		(label) => label.length > 2,
	);
	return copyOf(node)
		.filter(({ kind }) => kind === 'description' || kind === 'hint' || kind === 'node')
		.flatMap((copy) =>
			labels
				.filter((label) => unquoted(copy, label))
				.map((label) => ({
					rule: 'quoted-parameter-names',
					where: copy.where,
					message: `names the parameter ${label} without single quotes ('${label}'): "${copy.text}"`,
				})),
		);
}

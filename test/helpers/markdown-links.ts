/* eslint-disable @n8n/community-nodes/no-restricted-imports */
/**
 * Every link of a Markdown file, checked as GitHub renders it: a relative file or folder must
 * exist, a `#anchor` must be a heading of the target page (GitHub's slugs), and an external link
 * must be a well-formed http(s) URL (never fetched). Code blocks and code spans are not links.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function slugOf(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/`/g, '')
		.replace(/\*/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The text outside fenced code blocks, line by line (fenced lines left empty, so lines count). */
function proseLines(markdown: string): string[] {
	let fence: string | undefined;
	return markdown.split('\n').map((line) => {
		const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
		if (marker && (!fence || marker.startsWith(fence))) {
			fence = fence ? undefined : marker.slice(0, 3);
			return '';
		}
		return fence ? '' : line;
	});
}

/** The anchors of a page's headings, duplicates numbered as GitHub does (`-1`, `-2`). */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of proseLines(markdown)) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
		if (heading === undefined) continue;
		const slug = slugOf(heading);
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

export interface Link {
	line: number;
	target: string;
}

/** The links of a page: inline links and images, and reference definitions. */
export function linksOf(markdown: string): Link[] {
	const links: Link[] = [];
	proseLines(markdown).forEach((raw, index) => {
		const line = raw.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
		for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
			links.push({ line: index + 1, target: match[1] });
		const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
		if (definition) links.push({ line: index + 1, target: definition[1] });
	});
	return links;
}

function externalProblem(target: string): string | undefined {
	let url: URL;
	try {
		url = new URL(target);
	} catch {
		return 'is not a well-formed URL';
	}
	if (url.protocol === 'mailto:') return undefined;
	if (!['http:', 'https:'].includes(url.protocol)) return `has the scheme ${url.protocol}`;
	if (!url.hostname.includes('.')) return 'names no public host';
	return undefined;
}

/** Every broken link of one page, as `file:line: target: why`. */
export function brokenLinks(root: string, file: string): string[] {
	const path = join(root, file);
	const markdown = readFileSync(path, 'utf8');
	const problems: string[] = [];
	for (const { line, target } of linksOf(markdown)) {
		const at = `${file}:${line}: ${target}`;
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
			const problem = externalProblem(target);
			if (problem) problems.push(`${at}: ${problem}`);
			continue;
		}
		const [pathPart, anchor] = target.split('#', 2);
		const targetPath = pathPart ? join(dirname(path), decodeURI(pathPart)) : path;
		if (!existsSync(targetPath)) {
			problems.push(`${at}: ${relative(root, targetPath)} does not exist`);
			continue;
		}
		if (anchor === undefined) continue;
		if (statSync(targetPath).isDirectory() || !targetPath.endsWith('.md')) {
			problems.push(`${at}: an anchor into a file that is not Markdown`);
			continue;
		}
		if (!anchorsOf(readFileSync(targetPath, 'utf8')).has(anchor))
			problems.push(`${at}: ${relative(root, targetPath)} has no heading #${anchor}`);
	}
	return problems;
}

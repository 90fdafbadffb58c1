import type { IDataObject, INode } from 'n8n-workflow';

import { resultUrls, type Task } from '../catalog/task';

// The nodes as tools (n8n's `<node>Tool` variants): a model reads only the tool's description
// and the JSON it returns, so both are shaped for it here.

/** Whether the node runs as the tool variant n8n generated (type `…photoEnhancerTool`). */
export function isToolCall(ctx: { getNode(): INode }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/** What a model needs from a task: the full task, with its echoed input, would only cost tokens. */
export function compactTask(task: Task, creditsCharged: number | null): IDataObject {
	const compact: IDataObject = {
		id: task.id,
		status: task.status,
		resultUrl: task.output?.resultUrl ?? null,
		width: task.output?.width ?? null,
		height: task.output?.height ?? null,
		creditsCharged,
	};
	// Only where the service lists several files, so the two photo tools answer as before.
	const list = task.output?.resultList;
	if (list !== undefined && list !== null) compact.resultList = resultUrls(task);
	return compact;
}

const TOOL_SKIPPED_SHOWN = 10;

/** The files not attached, for a model: the first few with their reasons, and how many more. */
export function compactSkipped(skipped: Array<{ url: string; reason: string }>): IDataObject {
	const compact: IDataObject = { resultFilesSkipped: skipped.slice(0, TOOL_SKIPPED_SHOWN) };
	if (skipped.length > TOOL_SKIPPED_SHOWN)
		compact.resultFilesSkippedMore = skipped.length - TOOL_SKIPPED_SHOWN;
	return compact;
}

/** A model sees only an error's message: the description (what to do) is added to it. */
export function withAdviceInMessage<E extends { message: string; description?: string | null }>(
	error: E,
): E {
	const advice = error.description?.trim();
	if (!advice || error.message.includes(advice)) return error;
	// The item stays last, as n8n's rule for a message has it.
	const [, said, item] = /^(.*?)( \[item \d+\])?$/s.exec(error.message) ?? [];
	error.message = `${said}. ${advice}${item ?? ''}`;
	return error;
}

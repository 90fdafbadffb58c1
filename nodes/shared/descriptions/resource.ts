import type { INodeProperties } from 'n8n-workflow';

import type { OwnCheck } from '../item-life/body-check';
import type { ApiOfItem, BodyCheck } from '../item-life/path';
import type { CreateTool } from './tool-description';

/** One API as a node serves it, from its description file; every node is built from these. */
export interface Resource {
	/** The API's name in its path; on a node of several APIs, what saved workflows hold as the resource. */
	value: string;
	name: string;
	/** What the API does, in a line. */
	description: string;
	api: ApiOfItem;
	/** The create, where it is not "Create"; saved workflows hold its value. */
	operation?: CreateOperation;
	/** The task inside a sentence ("enhancement"), where it is not the resource's name. */
	task?: string;
	fields: INodeProperties[];
	/** The API's own rule, run after the checks its fields imply. */
	own?: OwnCheck;
	/** A whole body check of its own, for inputs its fields cannot say (URL lists, presets, masks). */
	bodyCheck?: BodyCheck;
	/** How the item's `extraBody` field is labelled, where it is not "Extra Body Fields (JSON)". */
	extraBodyLabel?: string;
	/** The fields a photo file stands in for, and whether several make one task (else `imageUrl`). */
	photo?: { fields: string[]; several: boolean };
	/** What a model using the node as a tool is told of the create (`createToolText`). */
	tool: CreateTool;
	/** Where the node offers Get Result as a tool: its task, in words ("photo enhancement"). */
	resultTool?: string;
}

export interface CreateOperation {
	name: string;
	value: string;
	action: string;
	description: string;
}

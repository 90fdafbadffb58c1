import type { INodeProperties } from 'n8n-workflow';

import type { OwnCheck } from '../item-life/body-check';
import type { ApiOfItem, BodyCheck } from '../item-life/path';
import type { CreateTool } from './tool-description';

/**
 * One API as a node serves it, given by its description file: the API's catalog row, what it
 * does, its fields (named as the API's, each with its routing beside it), a rule of its own where
 * it has one, and what an AI model is told about it. Every node is built from these
 * (`nodeProperties`): the Ideal House AI node from many, the Photo Enhancer and the Object
 * Remover from one each.
 */
export interface Resource {
	/** The API's name in its path; on a node of several APIs, what saved workflows hold as the resource. */
	value: string;
	name: string;
	/** What the API does, in a line. */
	description: string;
	api: ApiOfItem;
	/**
	 * The create operation, where it is not "Create" (a node of one API names it by what it
	 * does). Saved workflows hold its value.
	 */
	operation?: CreateOperation;
	/**
	 * What the API's task is called inside a sentence ("enhancement"), where it is not the
	 * resource's name: actions and descriptions name it ("Get enhancement result").
	 */
	task?: string;
	fields: INodeProperties[];
	/** The API's own rule, run after the checks its fields imply. */
	own?: OwnCheck;
	/**
	 * A whole body check of the API's own, in place of the one its fields imply, for inputs that
	 * are not of those kinds (URL lists, preset names, masks from files).
	 */
	bodyCheck?: BodyCheck;
	/** How the item's `extraBody` field is labelled, where it is not "Extra Body Fields (JSON)". */
	extraBodyLabel?: string;
	/**
	 * The fields a photo file stands in for when Image Source is Binary File, and whether several
	 * files make one task. Without it, an API with an `imageUrl` field takes one file for it.
	 */
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

import type { INodeProperties } from 'n8n-workflow';

import type { ApiOfItem } from '../shared/engine/request-cycle';
import type { OwnCheck } from './create-body';

/**
 * One API of the Ideal House AI node, as its description file gives it: the API's row, what it
 * does, its fields (named as the API's, each with its routing), a rule of its own where it has
 * one, and what an AI model is told about it.
 */
export interface Resource {
	/** The API's name in its path, which saved workflows hold as the resource. */
	value: string;
	name: string;
	/** What the API does, in a line. */
	description: string;
	api: ApiOfItem;
	fields: INodeProperties[];
	own?: OwnCheck;
	/** How the item's `extraBody` field is labelled, where it is not "Extra Body Fields (JSON)". */
	extraBodyLabel?: string;
	/** What the API does, its inputs and its price, for a model using the node as a tool. */
	toolDescription: string;
}

/**
 * The Ideal House AI node's tests share these: the photo and the APIs they run, each API's paths,
 * the create parameters, the service's answers to a task and the requests a test expects.
 */
import type { INodeType } from 'n8n-workflow';

import { API_KEY, pathsOf, recorded, serveTask } from './api';

export const PHOTO = 'https://photos.example.com/listing/room.jpg';
export const REFERENCE = 'https://photos.example.com/inspiration/ref.jpg';
export const ROOM = 'Interior Design_Interior Scene_';
export const CDN = 'https://cdn.ideal.house';

/** The APIs the node lists with fields of their own, each checked here. */
export const LISTED = [
	'virtualStaging',
	'exteriorRenovator',
	'landscaping',
	'interiorRemodel',
	'changeFurniture',
	'homeDecor',
	'magicEditor',
	'planVisualizer',
];
/** An API the node does not list, called through `custom`: its price is not known. */
export const UNLISTED = 'imageToVideo';

export const paths = pathsOf;

export const create = (resource: string, parameters: Record<string, unknown> = {}) => ({
	resource,
	operation: 'create',
	imageUrl: PHOTO,
	...parameters,
});

/** Other API (Custom): a create of the API named, with the body given as its JSON text. */
export const custom = (
	apiName: string,
	extraBody: string,
	parameters: Record<string, unknown> = {},
) => ({ resource: 'custom', operation: 'create', apiName, extraBody, ...parameters });

/** The create answered with `id`, one Processing poll, then the final state. */
export function answerTask(
	name: string,
	id: string,
	final: { status?: string; output?: object | null; input?: object } = {},
): void {
	const status = final.status ?? 'Success';
	serveTask(
		pathsOf(name),
		id,
		{ status: 'Processing', percentage: 40 },
		{
			status,
			input: final.input ?? {},
			output:
				final.output !== undefined
					? final.output
					: status === 'Success'
						? { resultUrl: `${CDN}/r/${id}.png`, width: 1600, height: 1200 }
						: null,
		},
	);
}

/** A create answered with `id` and nothing more (Wait for Completion off). */
export function answerCreate(name: string, id: string): void {
	serveTask(pathsOf(name), id);
}

/** The one create a test expects, and the polls of its task. */
export function expectCreateThenPolls(name: string, id: string, polls = 2): void {
	const { create: createPath, result } = paths(name);
	expect(recorded.map(({ method, path }) => `${method} ${path}`)).toEqual([
		`POST ${createPath}`,
		...Array<string>(polls).fill(`GET ${result}`),
	]);
	expect(recorded[0].headers.apikey).toBe(API_KEY);
	expect(recorded[0].headers['content-type']).toBe('application/json');
	expect(recorded.slice(1).map((request) => request.query)).toEqual(
		Array(polls).fill({ taskId: id }),
	);
}

/** What n8n's tool generation does to the name; the rest of the description is the node's own. */
export function asTool(nodeType: INodeType): INodeType {
	const description = { ...nodeType.description, name: `${nodeType.description.name}Tool` };
	return { ...nodeType, description } as INodeType;
}

/**
 * Photos that are files, checked before anything leaves n8n, in n8n's engine: n8n-core's binary
 * data service in filesystem mode holds the files, n8n is at a public address, Ideal House is
 * answered by nock (every request recorded). How the link itself behaves is in
 * photos-through-n8n.test.ts.
 */
import type { INodeExecutionData, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node';

import { runNode, type RunOptions } from './helpers/engine';
import { fileLimits } from '../nodes/shared/core/limits';
import { API_KEY, OR, recorded, serveTask } from './helpers/api';
import { filesForThisFile } from './helpers/binary-store';
import { jpegImage } from './helpers/images';
import { eachTestOnAFreshWire } from './helpers/journey';
import { REST, SIGNED, linksIn, opened, storedItem } from './helpers/n8n-links';
import { fromFile } from './helpers/params';

const files = filesForThisFile();
eachTestOnAFreshWire();

const JPEG = jpegImage(640, 480);

const fileItem = (named: Record<string, Buffer>) => storedItem(files, named);

/** The Object Remover (Whole House) on these items, n8n at a public address. */
async function remove(items: INodeExecutionData[], more: Partial<RunOptions> = {}) {
	return await runNode({
		node: 'objectRemover',
		restApiUrl: REST,
		parameters: fromFile('objectRemover'),
		items,
		...more,
	});
}

const creates = () => recorded.filter((request) => request.method === 'POST');

describe('a bad file is an item error naming the item and the property, with no request at all', () => {
	test.each([
		[
			'a property the item does not have',
			{ other: JPEG },
			'photo',
			/'Input Binary Field' "photo" is not on the item \(it has: other\) \[item 0\]/,
		],
		[
			'a file that is not an image',
			{ photo: Buffer.from('<html>not a photo</html>') },
			'photo',
			/'Input Binary Field' "photo" is not a JPEG, PNG or WebP image \[item 0\]/,
		],
		[
			'an empty file',
			{ photo: Buffer.alloc(0) },
			'photo',
			/'Input Binary Field' "photo" is empty \[item 0\]/,
		],
		[
			'several names for an API that takes one photo',
			{ photo: JPEG, more: JPEG },
			'photo,more',
			/'Input Binary Field' names 2 properties, but this API takes one photo per task \[item 0\]/,
		],
	])('%s', async (_case, named, property, message) => {
		const { error } = await remove([await fileItem(named)], {
			parameters: fromFile('objectRemover', property),
		});

		expect(error?.message).toMatch(message);
		expect(recorded).toEqual([]);
	});

	test('a file over 20 MB', async () => {
		const limit = fileLimits.imageMaxBytes;
		fileLimits.imageMaxBytes = 1000;
		try {
			const { error } = await remove([await fileItem({ photo: JPEG })]);
			expect(error?.message).toMatch(
				/^'Input Binary Field' "photo" is larger than 20 MB \[item 0\]/,
			);
		} finally {
			fileLimits.imageMaxBytes = limit;
		}
		expect(recorded).toEqual([]);
	});

	test('with Continue on Fail, the second item is refused and the first goes through', async () => {
		serveTask(OR, '46', { status: 'Success' });
		const first = await fileItem({ photo: JPEG });

		const { items } = await remove([first, await fileItem({ photo: Buffer.from('GIF89a...') })], {
			onError: 'continueRegularOutput',
		});

		expect(items[0].json).toMatchObject({ id: '46', status: 'Success' });
		expect(items[1].json.error).toMatch(/"photo" is not a JPEG, PNG or WebP image \[item 1\]/);
		expect(creates()).toHaveLength(1);
		expect((await opened(files, linksIn(creates()[0].body)[0])).id).toBe(first.binary!.photo.id);
	});

	test('a bad field elsewhere in the item makes no link and sends nothing', async () => {
		const { error } = await runNode({
			node: 'photoEnhancer',
			restApiUrl: REST,
			parameters: { operation: 'enhance', imageSource: 'binary', imageSize: '4K', presetId: '' },
			items: [await fileItem({ data: JPEG })],
		});

		expect(error?.message).toMatch(/'Preset Name or ID' and 'Prompt' are both empty/);
		expect(recorded).toEqual([]);
	});
});

describe('Preview with a photo that is a file', () => {
	const stage = (options: Record<string, unknown>) => ({
		...fromFile('idealHouse'),
		options,
	});

	test('checks the file, shows the link the service would get without its key, and sends nothing', async () => {
		const { items, error } = await runNode({
			node: 'idealHouse',
			restApiUrl: REST,
			parameters: stage({ preview: true }),
			items: [await fileItem({ photo: JPEG })],
		});

		expect(error).toBeUndefined();
		expect(recorded).toEqual([]);
		expect(items[0].json.preview).toEqual({
			method: 'POST',
			path: '/api/v1/virtualStaging/generate',
			body: { imageUrl: `${SIGNED}?token=[made-when-sent]` },
			credits: 1,
		});
		expect(JSON.stringify(items)).not.toContain(API_KEY);
	});

	test('a file that is not a photo is refused in a preview too, with nothing sent', async () => {
		const { error } = await runNode({
			node: 'idealHouse',
			restApiUrl: REST,
			parameters: stage({ preview: true }),
			items: [await fileItem({ photo: Buffer.from('<html>not a photo</html>') })],
		});

		expect(error?.message).toBe(
			'\'Input Binary Field\' "photo" is not a JPEG, PNG or WebP image [item 0]',
		);
		expect(recorded).toEqual([]);
	});
});

describe('the panel: one credential, and Image Source on every create that takes a photo', () => {
	const nodes: Array<[string, INodeTypeDescription]> = [
		['Photo Enhancer', new PhotoEnhancer().description],
		['Object Remover', new ObjectRemover().description],
		['Ideal House AI', new IdealHouse().description],
	];

	test.each(nodes)(
		'%s: the Ideal House key is its one credential, whatever the parameters say',
		(_node, node) => {
			expect(node.credentials).toEqual([{ name: 'idealHouseApi', required: true }]);
			expect(node.version).toBe(1);
		},
	);

	function shownIn(node: INodeTypeDescription, name: string, parameters: INodeParameters) {
		return node.properties
			.filter((property) => property.name === name)
			.some((property) =>
				NodeHelpers.displayParameter(parameters, property, { typeVersion: 1 } as never, node),
			);
	}

	test("'Image Source' is on every Create that takes imageUrl, and on nothing else", () => {
		const node = new IdealHouse().description;
		const at = (resource: string, operation: string) =>
			shownIn(node, 'imageSource', { resource, operation });

		expect(at('virtualStaging', 'create')).toBe(true);
		expect(at('magicEditor', 'create')).toBe(true);
		expect(at('floorPlan', 'create')).toBe(false);
		expect(at('housePlan', 'create')).toBe(false);
		expect(at('custom', 'create')).toBe(false);
		expect(at('virtualStaging', 'getResult')).toBe(false);
		const enhancer = new PhotoEnhancer().description;
		expect(shownIn(enhancer, 'imageSource', { operation: 'enhance' })).toBe(true);
		expect(shownIn(enhancer, 'imageSource', { operation: 'getResult' })).toBe(false);
	});
});

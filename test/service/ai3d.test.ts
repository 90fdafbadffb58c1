// AI 3D Generation: one running task per account with the rest queued in order (docs/ideal-house-api.md#limits),
// and its result, a binary glTF model.
import { idOf } from './helpers.ts';
import { useService } from './local-service.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Reads a GLB container: header, then the JSON and BIN chunks, checking every length. */
function readGlb(bytes: Buffer): { json: Json; bin: Buffer } {
	expect(bytes.toString('latin1', 0, 4)).toBe('glTF');
	expect(bytes.readUInt32LE(4)).toBe(2);
	expect(bytes.readUInt32LE(8)).toBe(bytes.length);
	const jsonLength = bytes.readUInt32LE(12);
	expect(bytes.toString('latin1', 16, 20)).toBe('JSON');
	expect(jsonLength % 4).toBe(0);
	const json = JSON.parse(bytes.toString('utf8', 20, 20 + jsonLength));
	const binAt = 20 + jsonLength;
	const binLength = bytes.readUInt32LE(binAt);
	expect(bytes.toString('latin1', binAt + 4, binAt + 8)).toBe('BIN\0');
	expect(binAt + 8 + binLength).toBe(bytes.length);
	return { json, bin: bytes.subarray(binAt + 8, binAt + 8 + binLength) };
}

describe('AI 3D generation', () => {
	const service = useService({ accounts: { a: 200, b: 200 }, taskDurationMs: 1000, workers: 4 });

	const create = async (apiKey = 'a', prompt = 'a modern barn house') =>
		idOf(await service.generate('ai3d', { prompt }, { apiKey }));
	const state = async (id: string, apiKey = 'a') => {
		const { status, waitNumber, percentage } = (await service.result('ai3d', id, { apiKey })).json
			.data;
		return { status, waitNumber, percentage };
	};

	it('runs one task per account at a time; the others wait in order, waitNumber falling', async () => {
		const ids = [await create(), await create(), await create()];
		expect(await Promise.all(ids.map((id) => state(id)))).toEqual([
			{ status: 'Processing', waitNumber: 0, percentage: 0 },
			{ status: 'Unprocessed', waitNumber: 1, percentage: 0 },
			{ status: 'Unprocessed', waitNumber: 2, percentage: 0 },
		]);
		service.clock.advance(1000);
		expect(await Promise.all(ids.map((id) => state(id)))).toEqual([
			{ status: 'Success', waitNumber: 0, percentage: 100 },
			{ status: 'Processing', waitNumber: 0, percentage: 0 },
			{ status: 'Unprocessed', waitNumber: 1, percentage: 0 },
		]);
		service.clock.advance(500);
		expect(await state(ids[1])).toMatchObject({ status: 'Processing', percentage: 50 });
		expect(await state(ids[2])).toMatchObject({ status: 'Unprocessed', waitNumber: 1 });
		service.clock.advance(500);
		expect(await state(ids[2])).toEqual({ status: 'Processing', waitNumber: 0, percentage: 0 });
		service.clock.advance(1000);
		expect((await state(ids[2])).status).toBe('Success');
		// All three were charged at creation, whatever their place in the queue.
		expect(service.balance('a')).toBe(140);
	});

	it("does not make one account wait for another's tasks", async () => {
		const [first, second] = [await create('a'), await create('a')];
		const other = await create('b');
		expect(await state(other, 'b')).toEqual({ status: 'Processing', waitNumber: 0, percentage: 0 });
		expect(await state(second)).toMatchObject({ status: 'Unprocessed', waitNumber: 1 });
		expect(await state(first)).toMatchObject({ status: 'Processing' });
	});

	it('keeps to one at a time whatever the workers setting; other APIs use the workers', async () => {
		service.configure({ workers: 10 });
		const ids = [await create(), await create()];
		expect((await state(ids[1])).status).toBe('Unprocessed');
		const room = service.sample('living-room.png');
		const staging = [];
		for (let i = 0; i < 3; i++) {
			staging.push(
				idOf(await service.generate('virtualStaging', { imageUrl: room }, { apiKey: 'a' })),
			);
		}
		for (const id of staging) {
			expect((await service.result('virtualStaging', id, { apiKey: 'a' })).json.data.status).toBe(
				'Processing',
			);
		}
	});

	it('moves the queue on when a task fails, and refunds it', async () => {
		const failing = idOf(
			await service.generate(
				'ai3d',
				{ imageUrl: `${service.sample('exterior.png')}?fail` },
				{ apiKey: 'a' },
			),
		);
		const next = await create();
		expect(await state(next)).toMatchObject({ status: 'Unprocessed', waitNumber: 1 });
		service.clock.advance(1000);
		expect((await state(failing)).status).toBe('Failed');
		expect(await state(next)).toMatchObject({ status: 'Processing' });
		expect(service.balance('a')).toBe(180);
	});

	it('serves the model as a valid binary glTF (.glb) once the task succeeded', async () => {
		const id = await create();
		const pending = `${service.baseUrl}/results/${id}.glb`;
		expect((await fetch(pending)).status).toBe(404);
		service.clock.advance(1000);
		const task = (await service.result('ai3d', id, { apiKey: 'a' })).json.data;
		expect(task.output).toEqual({ resultUrl: pending, width: null, height: null });
		const response = await fetch(task.output.resultUrl);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('model/gltf-binary');
		const { json, bin } = readGlb(Buffer.from(await response.arrayBuffer()));
		expect(json.asset.version).toBe('2.0');
		expect(json.scenes[json.scene].nodes).toEqual([0]);
		expect(json.nodes[0].mesh).toBe(0);
		const primitive = json.meshes[0].primitives[0];
		expect(json.buffers).toEqual([{ byteLength: bin.length }]);
		// Every accessor fits inside its buffer view, and the indices name existing vertices.
		for (const accessor of json.accessors) {
			const view = json.bufferViews[accessor.bufferView];
			const size = accessor.type === 'VEC3' ? 12 : 2;
			expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(bin.length);
			expect(accessor.count * size).toBeLessThanOrEqual(view.byteLength);
		}
		const positions = json.accessors[primitive.attributes.POSITION];
		const indices = json.accessors[primitive.indices];
		const indexView = json.bufferViews[indices.bufferView];
		expect(indices.count % 3).toBe(0);
		for (let i = 0; i < indices.count; i++) {
			expect(bin.readUInt16LE(indexView.byteOffset + i * 2)).toBeLessThan(positions.count);
		}
		// The .png of a model task is not one of its files.
		expect((await fetch(`${service.baseUrl}/results/${id}.png`)).status).toBe(404);
		const summary = service.stats().tasks.find((entry) => entry.id === id);
		expect(summary?.output).toEqual({ width: null, height: null });
	});
});

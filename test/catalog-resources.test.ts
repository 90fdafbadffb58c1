/**
 * Every API row of the catalog is served by exactly one resource, and every resource is its row:
 * an API added as a row without a description file, or the other way round, fails here. The
 * Photo Enhancer and the Object Remover are nodes of one resource each; Ideal House AI serves the
 * rest.
 */
import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { RESOURCES } from '../nodes/IdealHouse/resources';
import { objectRemover } from '../nodes/ObjectRemover/descriptions/remove';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node';
import { photoEnhancer } from '../nodes/PhotoEnhancer/descriptions/enhance';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node';
import { APIS, type IdealHouseApi } from '../nodes/shared/catalog/apis';

const listed = RESOURCES.filter((resource) => resource.value !== 'custom');
const served = [photoEnhancer, objectRemover, ...listed];

test('every catalog row is served by exactly one resource of one node', () => {
	const servedBy = (name: string) => served.filter((resource) => resource.value === name);
	expect(Object.keys(APIS).filter((name) => servedBy(name).length !== 1)).toEqual([]);
	expect(served).toHaveLength(Object.keys(APIS).length);
});

test.each(served.map((resource) => [resource.value, resource] as const))(
	'the %s resource is its catalog row, under the same name',
	(value, resource) => {
		expect(Object.hasOwn(APIS, value)).toBe(true);
		expect(resource.api).toBe((APIS as Record<string, IdealHouseApi>)[value]);
		expect(resource.api).toMatchObject({ name: value });
	},
);

test('the nodes of one API have no Resource field; their create keeps the name saved workflows hold', () => {
	for (const [node, create] of [
		[new PhotoEnhancer(), 'enhance'],
		[new ObjectRemover(), 'remove'],
	] as const) {
		const names = node.description.properties.map((property) => property.name);
		expect(names).not.toContain('resource');
		const operation = node.description.properties.find((property) => property.name === 'operation');
		expect(operation?.default).toBe(create);
		const values = (operation?.options as Array<{ value: string }>).map((option) => option.value);
		expect(values.sort()).toEqual([create, 'getResult'].sort());
	}
});

test('the node lists each resource once, by name, and starts on Virtual Staging', () => {
	const field = new IdealHouse().description.properties.find(
		(property) => property.name === 'resource',
	);
	const options = field?.options as Array<{ name: string; value: string }>;
	const values = options.map((option) => option.value);
	expect(new Set(values).size).toBe(values.length);
	expect([...values].sort()).toEqual(RESOURCES.map((resource) => resource.value).sort());
	const names = options.map((option) => option.name);
	expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	expect(field?.default).toBe('virtualStaging');
});

/**
 * Every API row of the catalog is served by a node, and every resource of the Ideal House AI node
 * by a row: an API added as a row without a description file, or the other way round, fails here.
 */
import { IdealHouse } from '../nodes/IdealHouse/IdealHouse.node';
import { RESOURCES } from '../nodes/IdealHouse/resources';
import { ObjectRemover } from '../nodes/ObjectRemover/ObjectRemover.node';
import { PhotoEnhancer } from '../nodes/PhotoEnhancer/PhotoEnhancer.node';
import { APIS, type IdealHouseApi } from '../nodes/shared/catalog/catalog';

/** The two APIs with a node of their own, by the node's type name. */
const OWN_NODES: Record<string, string> = {
	photoEnhancer: new PhotoEnhancer().description.name,
	objectRemover: new ObjectRemover().description.name,
};

const listed = RESOURCES.filter((resource) => resource.value !== 'custom');

test('every catalog row is served: by a node of its own or a resource of Ideal House AI', () => {
	const served = Object.keys(APIS).filter(
		(name) => Object.hasOwn(OWN_NODES, name) || listed.some((resource) => resource.value === name),
	);
	expect(served).toEqual(Object.keys(APIS));
	expect(OWN_NODES).toEqual({ photoEnhancer: 'photoEnhancer', objectRemover: 'objectRemover' });
});

test.each(listed.map((resource) => [resource.value, resource] as const))(
	'the %s resource is its catalog row, under the same name',
	(value, resource) => {
		expect(Object.hasOwn(APIS, value)).toBe(true);
		expect(resource.api).toBe((APIS as Record<string, IdealHouseApi>)[value]);
		expect(resource.api).toMatchObject({ name: value });
	},
);

test('the node lists each resource once, Other API last', () => {
	const options = new IdealHouse().description.properties.find(
		(property) => property.name === 'resource',
	)?.options as Array<{ value: string }>;
	const values = options.map((option) => option.value);
	expect(new Set(values).size).toBe(values.length);
	expect(values).toEqual(RESOURCES.map((resource) => resource.value));
	expect(values[values.length - 1]).toBe('custom');
});

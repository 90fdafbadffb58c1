import type { Resource } from '../resource';
import { changeFurniture } from './changeFurniture';
import { custom } from './custom';
import { exteriorRenovator } from './exteriorRenovator';
import { homeDecor } from './homeDecor';
import { interiorRemodel } from './interiorRemodel';
import { landscaping } from './landscaping';
import { magicEditor } from './magicEditor';
import { planVisualizer } from './planVisualizer';
import { virtualStaging } from './virtualStaging';

/** The resources in the order the node lists them; `custom` last. */
export const RESOURCES: Resource[] = [
	virtualStaging,
	exteriorRenovator,
	landscaping,
	interiorRemodel,
	changeFurniture,
	homeDecor,
	magicEditor,
	planVisualizer,
	custom,
];

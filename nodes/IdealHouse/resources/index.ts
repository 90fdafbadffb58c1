import type { Resource } from '../../shared/descriptions/resource';
import { ai3d } from './ai3d';
import { ai3dRendering } from './ai3dRendering';
import { changeFurniture } from './changeFurniture';
import { custom } from './custom';
import { exteriorRenovator } from './exteriorRenovator';
import { floorPlan } from './floorPlan';
import { furnitureTryOn } from './furnitureTryOn';
import { homeDecor } from './homeDecor';
import { housePlan } from './housePlan';
import { interiorRemodel } from './interiorRemodel';
import { landscaping } from './landscaping';
import { magicEditor } from './magicEditor';
import { planVisualizer } from './planVisualizer';
import { smartReplace } from './smartReplace';
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
	floorPlan,
	housePlan,
	ai3d,
	ai3dRendering,
	furnitureTryOn,
	smartReplace,
	custom,
];

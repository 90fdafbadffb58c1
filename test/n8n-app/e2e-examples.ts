/**
 * The workflows this test runs: the examples of `examples/` with what each must output, the
 * form example (run in `n8n start`), and the test workflow of the Stop check.
 */
import { type Context, equal, check, sample, taskLines } from './e2e-shared.ts';
import {
	checkTaskItem,
	CREDITS,
	isExact64BitId,
	type Item,
	nodeItems,
	type RunOutput,
} from './e2e-items.ts';
import { FORM_UPLOAD_EXAMPLE, type FormUpload } from './form-upload.ts';

export { FORM_UPLOAD_EXAMPLE };

export interface Example {
	file: string;
	id: string;
	/** Checks what the example's nodes output in one `n8n execute`. */
	verify: (ctx: Context, group: string, run: RunOutput) => Promise<void>;
}

/** Run with `n8n execute`, one after the other. */
export const EXAMPLES: Example[] = [
	{ file: 'enhance-listing-photos.json', id: 'ihEnhanceListing', verify: verifyEnhanceListing },
	{ file: 'hdr-merge.json', id: 'ihHdrMerge', verify: verifyHdrMerge },
	{ file: 'empty-room.json', id: 'ihEmptyRoom', verify: verifyEmptyRoom },
	{ file: 'create-then-get-result.json', id: 'ihCreateThenGet', verify: verifyCreateThenGet },
	{
		file: 'stage-and-twilight-listing.json',
		id: 'ihStageAndTwilight',
		verify: verifyStageAndTwilight,
	},
	{ file: 'floor-plan-to-3d.json', id: 'ihFloorPlanTo3d', verify: verifyFloorPlanTo3d },
];

/** Runs in `n8n start`, published, through its form's production URL with a file upload. */
export const FORM_EXAMPLE = {
	file: 'empty-room-form.json',
	id: 'ihEmptyRoomForm',
	formPath: 'empty-a-room',
	trigger: 'Room photo and mask',
	node: 'Remove the masked furniture',
};

/** The examples that start with a Form Trigger. */
export const FORM_EXAMPLES = [FORM_EXAMPLE, FORM_UPLOAD_EXAMPLE];

/** The README's Quick start: imported, given a credential and executed over REST in `n8n start`. */
export const QUICK_START = { file: 'quick-start.json', id: 'ihQuickStart' };

/**
 * Examples that need more than this test starts, run by the other real-n8n tests: a chat model and
 * an MCP client (test/n8n-agent), or an MLS feed, a CRM and PostgreSQL (test/n8n-automation).
 */
export const RUN_ELSEWHERE = [
	'ai-agent-photo-assistant.json',
	'mcp-photo-tools.json',
	'scheduled-mls-enhance.json',
	'crm-webhook-enhance.json',
];

/** A test workflow (not an example): a long task waited on, then stopped. */
export const STOP_WORKFLOW = { id: 'ihStopWhileWaiting', file: 'stop.json' };

/**
 * A test workflow: the form example's photo on n8n's link with Wait for Completion off, so that
 * the task may outlive the execution (and n8n's move of the form's file when the execution ends).
 */
export const FORM_UPLOAD_LATER: FormUpload = {
	...FORM_UPLOAD_EXAMPLE,
	file: 'form-upload-later.json',
	folder: 'workflows',
	id: 'ihFormUploadLater',
	formPath: 'stage-a-room-later',
	ending: undefined,
	resultProperty: undefined,
};

/**
 * A test workflow: the form example's photo on n8n's link, with an Ideal House credential whose
 * base URL is public while n8n's own address (WEBHOOK_URL) is on loopback: refused before
 * anything is sent.
 */
export const PHOTO_LINK_PUBLIC_API = {
	...FORM_UPLOAD_LATER,
	file: 'photo-link-public-api.json',
	id: 'ihPhotoLinkPublicApi',
	formPath: 'stage-a-room-public',
	credential: {
		id: 'IdealHousePublic1',
		name: 'Ideal House (a public address)',
		type: 'idealHouseApi',
	},
	/** A public address that resolves nowhere (`.invalid`): a request sent anyway fails otherwise. */
	baseUrl: 'https://api.ideal-house.invalid',
};

/**
 * A test workflow for `n8n execute` in n8n's in-memory binary data mode: a photo downloaded as a
 * file, then staged on n8n's link, which that mode cannot give: refused before anything is sent.
 * The node continues on fail, so the item carries the message.
 */
export const PHOTO_LINK_IN_MEMORY = {
	file: 'photo-link-in-memory.json',
	id: 'ihPhotoLinkInMemory',
	node: 'Stage the room',
	download: 'Download the photo',
};

/** A test workflow: the recipe of examples/photo-file-through-s3.json with n8n's S3 node (e2e-recipe.ts). */
export const RECIPE_S3_NODE_WORKFLOW = {
	id: 'ihPhotoThroughS3Node',
	file: 'photo-file-through-s3-node.json',
};

/** The test workflows of test/n8n-app/workflows/, imported with the examples. */
export const TEST_WORKFLOWS = [
	STOP_WORKFLOW,
	FORM_UPLOAD_LATER,
	PHOTO_LINK_PUBLIC_API,
	PHOTO_LINK_IN_MEMORY,
	RECIPE_S3_NODE_WORKFLOW,
];

/** The service's sample images, by their size. */
export const SOURCES: Record<string, [number, number]> = {
	'living-room.png': [1600, 1200],
	'kitchen.png': [1280, 960],
	'exterior.png': [1920, 1280],
	'bracket-1.png': [1200, 800],
};

async function verifyEnhanceListing(ctx: Context, group: string, run: RunOutput): Promise<void> {
	// The example's two public photos, as the local service's samples (test/helpers/local-examples.ts).
	const photos: Array<[string, string]> = [
		['living-room.png', 'interior-enhancement-interior-photo'],
		['exterior.png', 'sky-replacement-sunset-sky'],
	];
	const items = nodeItems(group, run, 'Enhance photos', photos.length);
	for (const [index, item] of items.entries()) {
		const [name, presetId] = photos[index] ?? photos[0];
		await checkTaskItem(ctx, group, 'Enhance photos', index, item, {
			kind: 'photoEnhancer',
			imageUrls: [sample(ctx, name)],
			presetId,
			imageSize: '1K',
			source: SOURCES[name],
			binary: 'data',
		});
	}
}

async function verifyHdrMerge(ctx: Context, group: string, run: RunOutput): Promise<void> {
	// The example's three brackets are one public photo, the living room here.
	const brackets = [1, 2, 3].map(() => sample(ctx, 'living-room.png'));
	for (const [node, binary] of [
		['HDR merge (URLs typed in)', undefined],
		['HDR merge (URL list from an expression)', 'hdr'],
	] as const) {
		const items = nodeItems(group, run, node, 1);
		if (items[0]) {
			await checkTaskItem(ctx, group, node, 0, items[0], {
				kind: 'photoEnhancer',
				imageUrls: brackets,
				presetId: 'hdr-merge-hdr-merge',
				imageSize: '2K',
				source: SOURCES['living-room.png'],
				binary,
			});
		}
	}
}

async function verifyEmptyRoom(ctx: Context, group: string, run: RunOutput): Promise<void> {
	const room = sample(ctx, 'living-room.png');
	const whole = nodeItems(group, run, 'Empty the whole room', 1);
	if (whole[0]) {
		await checkTaskItem(ctx, group, 'Empty the whole room', 0, whole[0], {
			kind: 'objectRemover',
			imageUrls: [room],
			emptyType: 'whole_house',
			source: SOURCES['living-room.png'],
			binary: 'emptied',
		});
	}
}

async function verifyCreateThenGet(ctx: Context, group: string, run: RunOutput): Promise<void> {
	const created = nodeItems(group, run, 'Create the task', 1)[0];
	const id = created?.json.id;
	if (created) {
		check(
			group,
			'Create the task: id is a string of digits above 2^53',
			isExact64BitId(id),
			`id ${JSON.stringify(id)}`,
		);
		equal(
			group,
			'Create the task: status Unprocessed, 10 credits, linked to item 0',
			[created.json.status, created.json.creditsCharged, created.pairedItem],
			['Unprocessed', 10, { item: 0 }],
		);
		taskLines.push(
			`${'Create the task[0]'.padEnd(46)} ${String(id).padEnd(20)} ${String(created.json.status)}`,
		);
	}
	const result = nodeItems(group, run, 'Get the result', 1)[0];
	if (result) {
		equal(group, 'Get the result: the same task id as created, exactly', result.json.id, id);
		// Get Result reads the task once: it may still be waiting or running.
		await checkTaskItem(ctx, group, 'Get the result', 0, result, {
			kind: 'photoEnhancer',
			imageUrls: [sample(ctx, 'exterior.png')],
			presetId: 'virtual-twilight-luxury-twilight',
			imageSize: '512',
			source: SOURCES['exterior.png'],
			binary: result.json.status === 'Success' ? 'data' : undefined,
			statuses: ['Unprocessed', 'Processing', 'Success'],
		});
	}
}

/** The listing of stage-and-twilight-listing.json, as its "Listing photos" node sets it. */
const LISTING = {
	address: '14 Harbour View Road',
	rooms: [{ room: 'Living room', roomType: 'Living Room', image: 'living-room.png' }],
	exterior: { room: 'Front of the house', image: 'exterior.png' },
	prompt: 'Warm contemporary furniture, light oak and neutral linen, styled for a listing photo',
	twilight: 'virtual-twilight-warm-sunset-twilight',
};

async function verifyStageAndTwilight(ctx: Context, group: string, run: RunOutput): Promise<void> {
	const lines: Array<Record<string, unknown>> = [];
	const line = (room: string, tag: string, image: string, item: Item | undefined) =>
		lines.push({
			room,
			tag,
			original: sample(ctx, image),
			result: item?.json.output?.resultUrl,
			taskId: item?.json.id,
			credits: item?.json.creditsCharged,
		});

	const staged = nodeItems(group, run, 'Stage the empty rooms', LISTING.rooms.length);
	for (const [index, { room, roomType, image }] of LISTING.rooms.entries()) {
		const item = staged[index];
		line(room, 'empty room', image, item);
		if (!item) continue;
		// The catalog APIs keep the body as sent: the node must send these fields and no others.
		await checkTaskItem(ctx, group, 'Stage the empty rooms', index, item, {
			kind: 'virtualStaging',
			imageUrls: [sample(ctx, image)],
			input: {
				imageUrl: sample(ctx, image),
				prompt: LISTING.prompt,
				indoorTypeId: `Interior Design_Interior Scene_${roomType}`,
			},
			source: SOURCES[image],
		});
	}

	const twilight = nodeItems(group, run, 'Twilight the exterior', 1)[0];
	line(LISTING.exterior.room, 'exterior', LISTING.exterior.image, twilight);
	if (twilight) {
		await checkTaskItem(ctx, group, 'Twilight the exterior', 0, twilight, {
			kind: 'photoEnhancer',
			imageUrls: [sample(ctx, LISTING.exterior.image)],
			presetId: LISTING.twilight,
			imageSize: '2K',
			// The photo enhancer's service writes its defaults into the input it records.
			input: {
				imageUrl: sample(ctx, LISTING.exterior.image),
				imageUrls: [sample(ctx, LISTING.exterior.image)],
				prompt: '',
				presetId: LISTING.twilight,
				imageSize: '2K',
				isApiCall: true,
				modelType: 'SINGLE_IMAGE',
				model: 'ideal-house-enhancer-local',
			},
			source: SOURCES[LISTING.exterior.image],
		});
	}

	const summary = nodeItems(group, run, 'Listing summary', 1)[0];
	equal(
		group,
		'Listing summary: the address, one line per photo (original, result, task id, credits) and the credits in total',
		summary?.json,
		{
			address: LISTING.address,
			photos: lines,
			creditsCharged: LISTING.rooms.length * CREDITS.virtualStaging + CREDITS.photoEnhancer,
		},
	);
}

/** The home of floor-plan-to-3d.json, as its "Home brief" node sets it. */
const HOME = {
	project: 'Plot 7, Willow Lane',
	/**
	 * Floor Plan's pages name no default model type, so the node always sends one (its first,
	 * Base), and the price is known.
	 */
	floorPlan: { bedrooms: 3, bathrooms: 2, kitchenType: 'open', modelType: 'Base' },
	prompt: 'Furnished top view, light oak floors, warm daylight',
	/** Floor Plan draws at this size; the Plan Visualizer keeps the size of the plan it renders. */
	planSize: [1536, 1024] as [number, number],
};

async function verifyFloorPlanTo3d(ctx: Context, group: string, run: RunOutput): Promise<void> {
	const plan = nodeItems(group, run, 'Draw the floor plan', 1)[0];
	if (plan) {
		// No image in: the service draws the plan from the rooms and the kitchen type alone.
		await checkTaskItem(ctx, group, 'Draw the floor plan', 0, plan, {
			kind: 'floorPlan',
			imageUrls: [],
			input: HOME.floorPlan,
			source: HOME.planSize,
		});
	}
	const planUrl = plan?.json.output?.resultUrl;

	const visual = nodeItems(group, run, 'Visualize the plan', 1)[0];
	if (visual) {
		await checkTaskItem(ctx, group, 'Visualize the plan', 0, visual, {
			kind: 'planVisualizer',
			imageUrls: [String(planUrl)],
			// Plan Type, Style, View and Model Type left at the service's defaults: not sent.
			input: { imageUrl: planUrl, prompt: HOME.prompt },
			source: HOME.planSize,
			binary: 'visualization',
		});
	}
	const visualUrl = visual?.json.output?.resultUrl;

	const model = nodeItems(group, run, 'Model it in 3D', 1)[0];
	if (model) {
		await checkTaskItem(ctx, group, 'Model it in 3D', 0, model, {
			kind: 'ai3d',
			imageUrls: [String(visualUrl)],
			input: { imageUrl: visualUrl },
			binary: 'model',
		});
	}

	const deliverables = nodeItems(group, run, 'Deliverables', 1)[0];
	equal(
		group,
		'Deliverables: the project, the three result URLs, the exact task ids and the credits in total',
		deliverables?.json,
		{
			project: HOME.project,
			floorPlan: planUrl,
			visualization: visualUrl,
			model: model?.json.output?.resultUrl,
			taskIds: { floorPlan: plan?.json.id, visualization: visual?.json.id, model: model?.json.id },
			creditsCharged: CREDITS.floorPlan + CREDITS.planVisualizer + CREDITS.ai3d,
		},
	);
	// Merge and Set pass the files on as they are: the same binaries the two nodes attached.
	equal(
		group,
		'Deliverables: both files attached, the visualization and the model as their nodes stored them',
		deliverables?.binary,
		{ visualization: visual?.binary?.visualization, model: model?.binary?.model },
	);
}

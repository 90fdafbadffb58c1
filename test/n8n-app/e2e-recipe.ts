/**
 * The recipe for an n8n that Ideal House cannot reach (`examples/photo-file-through-s3.json`,
 * docs/photos-without-public-n8n.md), in `n8n start`: a form's photo file goes to the user's
 * private bucket through n8n's own AWS S3 node, under the prefix the bucket's policy opens for
 * reading, with a random name; Ideal House AI gets the object's URL (Image Source = URL); the
 * AWS S3 node deletes the object once the task has ended. The same with n8n's S3 node, which the
 * docs advise for an S3-compatible store (`workflows/photo-file-through-s3-node.json`). The
 * bucket is the stand-in of private-bucket.ts, which records every request; the local service
 * fetches the photo from it as Ideal House does.
 *
 * The bucket sits at a custom endpoint on loopback. n8n 1.x's AWS S3 node signs requests to such
 * an endpoint without `x-amz-content-sha256`, which S3 and the stand-in require: on 1.x the
 * example is checked to be refused so, as the docs say, and the S3 node's variant runs.
 */
import type { RunningService } from '../../service/server.ts';
import type { RestSession } from './n8n-process.ts';
import {
	type Context,
	check,
	equal,
	report,
	runLaterChecks,
	taskLines,
	tasksSince,
} from './e2e-shared.ts';
import { checkTaskItem, nodeItems } from './e2e-items.ts';
import { RECIPE_S3_NODE_WORKFLOW, SOURCES } from './e2e-examples.ts';
import {
	errorAt,
	finishedFormExecution,
	samplePhoto,
	succeededFormExecution,
} from './e2e-form-uploads.ts';
import { publishPhotoForm, sha256, submitPhoto } from './form-upload.ts';
import { type FrontProxy, SERVICE_USER_AGENT } from './n8n-link.ts';
import {
	BUCKET_KEY_ID,
	BUCKET_REGION,
	BUCKET_SECRET,
	type BucketRequest,
	type PrivateBucket,
} from './private-bucket.ts';

export interface Recipe {
	/** Under `examples/`, or `test/n8n-app/workflows/` for a test workflow. */
	file: string;
	id: string;
	formPath: string;
	/** n8n's node that puts the photo in the bucket and deletes it, as the summary names it. */
	via: string;
}

/** The example, with n8n's AWS S3 node. */
export const RECIPE: Recipe = {
	file: 'photo-file-through-s3.json',
	id: 'ihPhotoThroughS3',
	formPath: 'stage-a-room-through-s3',
	via: "n8n's AWS S3 node",
};

/** The example with n8n's S3 node instead, a test workflow. */
export const RECIPE_S3_NODE: Recipe = {
	...RECIPE_S3_NODE_WORKFLOW,
	formPath: 'stage-a-room-through-s3-node',
	via: "n8n's S3 node",
};

/** The nodes of both, by name, and what they send. */
const STEPS = {
	where: 'Where the photo goes',
	upload: 'Upload to your bucket',
	node: 'Stage the room',
	remove: 'Delete the upload',
	prompt: 'Warm contemporary furniture, light oak and neutral linen, styled for a listing photo',
};

/** The keys the recipe writes, and the bucket's policy opens for reading. */
export const RECIPE_PREFIX = 'ideal-house-uploads/';

/** The example's AWS credential, imported with the stand-in's address and s3rver's keys. */
export const RECIPE_AWS_CREDENTIAL = {
	id: 'AwsYourBucket1',
	name: 'AWS (your bucket)',
	type: 'aws',
};
/** The S3 node's credential in the variant. */
export const RECIPE_S3_CREDENTIAL = { id: 'S3YourStore1', name: 'S3 (your store)', type: 's3' };

/** With a dot: see startPrivateBucket. */
export const RECIPE_BUCKET_NAME = 'ideal.house.photos';

/** The credentials' data as a user types them for an S3-compatible store at a custom endpoint. */
export function recipeCredentials(bucket: PrivateBucket) {
	const keys = {
		region: BUCKET_REGION,
		accessKeyId: BUCKET_KEY_ID,
		secretAccessKey: BUCKET_SECRET,
	};
	return [
		{
			credential: RECIPE_AWS_CREDENTIAL,
			data: {
				...keys,
				temporaryCredentials: false,
				customEndpoints: true,
				s3Endpoint: bucket.endpoint,
			},
		},
		{
			credential: RECIPE_S3_CREDENTIAL,
			data: { ...keys, endpoint: bucket.endpoint, forcePathStyle: true },
		},
	];
}

/** Both recipes on the line (`n8nLine()`): see the top of this file for 1.x. */
export async function checkRecipes(
	ctx: Context,
	line: string,
	run: Omit<Parameters<typeof checkRecipe>[0], 'recipe'>,
): Promise<void> {
	if (line.startsWith('1.')) await checkAwsNodeRefusedOn1x(run);
	else await checkRecipe({ ...run, recipe: RECIPE }, ctx);
	await checkRecipe({ ...run, recipe: RECIPE_S3_NODE }, ctx);
}

interface RecipeRun {
	recipe: Recipe;
	service: RunningService;
	proxy: FrontProxy;
	bucket: PrivateBucket;
	base: string;
	session: RestSession;
}

/**
 * n8n 1.x's AWS S3 node at a custom endpoint: the upload is refused for want of
 * `x-amz-content-sha256`, before anything reaches Ideal House.
 */
async function checkAwsNodeRefusedOn1x(run: Omit<RecipeRun, 'recipe'>): Promise<void> {
	const { service, bucket, base, session } = run;
	const group = `workflow ${RECIPE.id} (the recipe with ${RECIPE.via} on n8n 1.x: its upload to a custom endpoint refused)`;
	const formUrl = await publishPhotoForm(report, group, base, session, RECIPE);
	if (!formUrl) return;
	const tasksBefore = service.stats().tasks.length;
	if (!(await submitPhoto(report, group, formUrl, await samplePhoto(service), false))) return;
	const ended = await finishedFormExecution(group, session, RECIPE.id);
	if (!ended) return;
	const said = errorAt(ended, STEPS.upload);
	check(
		group,
		`the execution ended in error at ${STEPS.upload}, the store asking for x-amz-content-sha256`,
		ended.status === 'error' && /x-amz-content-sha256/.test(said),
		`status ${ended.status}: ${said.slice(0, 300)}`,
	);
	equal(group, 'nothing reached the service', service.stats().tasks.length - tasksBefore, 0);
	equal(group, 'nothing is left in the bucket', await bucket.keys(), []);
	taskLines.push(`recipe ${RECIPE.id} on 1.x: ${said.replace(/\s+/g, ' ').trim().slice(0, 200)}`);
}

/**
 * The form published, the room photo submitted, the execution finished; then what the bucket saw,
 * in order: the node's signed upload of the photo's bytes, the service's read of the object by its
 * URL alone (the bytes it got), the node's signed delete after the task; nothing left; and n8n's
 * own link never used.
 */
async function checkRecipe(
	{ recipe, service, proxy, bucket, base, session }: RecipeRun,
	ctx: Context,
): Promise<void> {
	const group = `workflow ${recipe.id} (the recipe: a photo file through a private bucket with ${recipe.via}, in n8n start)`;
	const formUrl = await publishPhotoForm(report, group, base, session, recipe);
	if (!formUrl) return;
	const tasksBefore = service.stats().tasks.length;
	const linkFetchesBefore = proxy.fetches.length;
	bucket.requests.length = 0;
	const photo = await samplePhoto(service);
	if (!(await submitPhoto(report, group, formUrl, photo, false))) return;
	const run = await succeededFormExecution(group, session, recipe.id);
	if (!run) return;

	const key = String(nodeItems(group, run, STEPS.where, 1)[0]?.json.key ?? '');
	check(
		group,
		`${STEPS.where}: the object's key is under ${RECIPE_PREFIX}, with a random name`,
		key.startsWith(RECIPE_PREFIX) && /-[a-z0-9]{12,}$/.test(key),
		key,
	);
	const objectUrl = `${bucket.endpoint}/${bucket.bucket}/${key}`;
	const newTasks = tasksSince(ctx, service, tasksBefore);
	const item = nodeItems(group, run, STEPS.node, 1)[0];
	equal(
		group,
		"the service created exactly one task, the id the node emitted, its imageUrl the object's URL",
		newTasks.map((task) => [task.id, task.imageUrl]),
		[[item?.json.id, objectUrl]],
	);
	if (item) {
		await checkTaskItem(ctx, group, STEPS.node, 0, item, {
			kind: 'virtualStaging',
			imageUrls: [objectUrl],
			input: { imageUrl: objectUrl, prompt: STEPS.prompt },
			source: SOURCES['living-room.png'],
		});
	}
	checkBucketRequests(group, bucket.requests, `/${bucket.bucket}/${key}`, photo);
	equal(
		group,
		`${STEPS.remove}: the node says it deleted the object`,
		nodeItems(group, run, STEPS.remove, 1)[0]?.json,
		{ success: true },
	);
	const left = await bucket.keys();
	check(
		group,
		'the object is gone from the bucket afterwards',
		!left.includes(key),
		left.join(', '),
	);
	const after = await fetch(objectUrl);
	equal(group, "the object's URL opens nothing afterwards (HTTP 404)", after.status, 404);
	equal(group, "nobody fetched n8n's own link", proxy.fetches.length - linkFetchesBefore, 0);
	taskLines.push(
		`recipe ${recipe.id}: photo ${photo.length} B up to ${key} with ${recipe.via}, read by the service by its URL, deleted after task ${String(item?.json.id)}`,
	);
	await runLaterChecks(ctx);
}

/** What the bucket saw of the object, in order: the upload, the service's read, the delete. */
function checkBucketRequests(
	group: string,
	requests: BucketRequest[],
	path: string,
	photo: Buffer,
): void {
	const ofObject = requests.filter((request) => request.path === path);
	const writes = ofObject.filter((request) => ['PUT', 'POST'].includes(request.method));
	check(
		group,
		"the upload's requests (a PUT, or a multipart upload's) were signed and accepted",
		writes.length > 0 &&
			writes.every((request) => request.signed === 'header' && request.status === 200),
		JSON.stringify(writes.map(({ method, signed, status }) => ({ method, signed, status }))),
	);
	const sent = Buffer.concat(
		writes
			.filter((request) => request.method === 'PUT')
			.map((request) => request.body ?? Buffer.alloc(0)),
	);
	equal(group, 'the bytes that went up are the submitted photo', sha256(sent), sha256(photo));
	const reads = ofObject.filter(
		(request) => request.method === 'GET' && request.userAgent.includes(SERVICE_USER_AGENT),
	);
	equal(
		group,
		"the service read the object once, by its URL alone (no signature: the bucket's policy opens the prefix), and got the photo's exact bytes",
		reads.map((request) => [request.signed, request.status, request.sha256]),
		[['none', 200, sha256(photo)]],
	);
	const deletes = ofObject.filter((request) => request.method === 'DELETE');
	equal(
		group,
		'the node deleted the object once, signed (HTTP 204)',
		deletes.map((request) => [request.signed, request.status]),
		[['header', 204]],
	);
	check(
		group,
		"the delete came after the service's read",
		deletes.length === 1 &&
			reads.length === 1 &&
			ofObject.indexOf(deletes[0]) > ofObject.indexOf(reads[0]),
		ofObject.map((request) => request.method).join(' → '),
	);
}

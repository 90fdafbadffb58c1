/**
 * The scheduled example in a live n8n: activated with a seconds interval while the MLS feed
 * changes between runs (new listings, a new photo, replaced photos, nothing), with a Credit Limit
 * below the first run's photos, then checked against the feed's, the service's and the listings
 * table's own records: the photos held back by the limit are taken by the next run, none is
 * paid twice and none is skipped.
 */
import { creditsOf } from '../helpers/prices.ts';
import { activateWorkflow } from '../n8n-app/n8n-process.ts';
import {
	LOCAL_ACCOUNT,
	type Context,
	execution,
	type ExecutionRecord,
	executionsOf,
	FEED_PAGE_SIZE,
	type Item,
	nodeOutput,
	queryBrokerage,
	deactivateWorkflow,
	TERMINAL,
	TEST_CREDIT_LIMIT,
	until,
	WORKFLOWS,
} from './setup.ts';

const GROUP = 'scheduled MLS feed (Schedule Trigger, live n8n)';
const DEDUPE_NODE = 'Only new or replaced photos';
const PHOTOS_NODE = 'Photos only';
const ENHANCE_NODE = 'Enhance for the MLS';
/** What one enhanced photo costs, from the catalog. */
const PHOTO_CREDITS = creditsOf('photoEnhancer');
const PHOTOS_PER_RUN = TEST_CREDIT_LIMIT / PHOTO_CREDITS;
const HELD_BACK = `'Credit Limit' of ${TEST_CREDIT_LIMIT} credits reached: this node has already spent ${TEST_CREDIT_LIMIT} credits in this execution, and this item would cost ${PHOTO_CREDITS} credits`;

interface Phase {
	what: string;
	/** Changes the feed; returns nothing, the expected photos are read from the feed. */
	change: (ctx: Context) => void;
}

/** The feed's history as the runs see it: the first run, then one change before each later run. */
const PHASES: Phase[] = [
	{
		what: '3 listings, 7 photos and a floor plan',
		change: ({ feed }) => {
			feed.addListing({ listingKey: 'A100', photos: ['Photo', 'Photo', 'Photo', 'Floor Plan'] });
			feed.addListing({ listingKey: 'B200', photos: ['Photo', 'Photo'] });
			feed.addListing({ listingKey: 'C300', photos: ['Photo', 'Photo'] });
		},
	},
	{
		what: 'a new listing with 2 photos, one photo of B200 replaced',
		change: ({ feed }) => {
			feed.addListing({ listingKey: 'D400', photos: ['Photo', 'Photo'] });
			feed.replacePhoto('B200-M1');
		},
	},
	{
		what: 'a photo added to C300, one photo of A100 replaced',
		change: ({ feed }) => {
			feed.addPhoto('C300', 'Photo');
			feed.replacePhoto('A100-M2');
		},
	},
	{ what: 'no change', change: () => undefined },
];

/** `MediaKey@ModificationTimestamp`, the key the example deduplicates on. */
const keyOf = (json: { MediaKey?: unknown; ModificationTimestamp?: unknown }) =>
	`${String(json.MediaKey)}@${String(json.ModificationTimestamp)}`;

/** The photos (MediaCategory Photo) the feed publishes now: key, URL, listing. */
function feedPhotos(ctx: Context) {
	return ctx.feed
		.listings()
		.flatMap((listing) => listing.Media)
		.filter((media) => media.MediaCategory === 'Photo');
}

interface PhaseRun {
	phase: Phase;
	record: ExecutionRecord;
	/** The photos not enhanced yet: new, replaced, or held back by an earlier run. */
	expectedKept: string[];
	/** The MediaURLs of those photos when the feed changed. */
	expectedUrls: string[];
	/** What the enhancer did with the kept photos: enhanced, or held back by the Credit Limit. */
	enhanced: string[];
	heldBack: string[];
	/** The photo versions in the listings table once the run had ended. */
	inTable: Set<string>;
}

/** The photo of each item the enhancer emitted, through its link to the guard's output. */
function outcomes(record: ExecutionRecord): {
	enhanced: string[];
	heldBack: string[];
	other: Item[];
} {
	const kept = nodeOutput(record, DEDUPE_NODE) ?? [];
	const photoOf = (item: Item) => {
		const link = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		const index = typeof link === 'number' ? link : (link?.item ?? -1);
		return kept[index] ? keyOf(kept[index].json) : `unlinked item ${JSON.stringify(item.json)}`;
	};
	const result = { enhanced: [] as string[], heldBack: [] as string[], other: [] as Item[] };
	for (const item of nodeOutput(record, ENHANCE_NODE) ?? []) {
		if (item.json.status === 'Success') result.enhanced.push(photoOf(item));
		else if (String(item.json.error ?? '').startsWith(HELD_BACK))
			result.heldBack.push(photoOf(item));
		else result.other.push(item);
	}
	return result;
}

/** `MediaKey@ModificationTimestamp` of every row of the listings table. */
async function tableVersions(): Promise<Set<string>> {
	const rows = await queryBrokerage<{ media_key: string; media_modified_at: string }>(
		'SELECT media_key, media_modified_at FROM listing_photos',
	);
	return new Set(
		rows.map((row) => `${row.media_key}@${new Date(row.media_modified_at).toISOString()}`),
	);
}

export interface ScheduledRuns {
	runs: PhaseRun[];
	seconds: number;
	/** The account's net credits when the last phase's run had ended. */
	netCredits: number;
}

/** Activates the example, changes the feed before each run, deactivates it after the last. */
export async function runScheduled(ctx: Context, intervalSeconds: number): Promise<ScheduledRuns> {
	const { report, session } = ctx;
	/** The photo versions enhanced so far, as the runs' own output says. */
	const enhanced = new Set<string>();
	const runs: PhaseRun[] = [];
	const start = Date.now();
	for (const [index, phase] of PHASES.entries()) {
		phase.change(ctx);
		const changedAt = Date.now();
		const fresh = feedPhotos(ctx).filter((media) => !enhanced.has(keyOf(media)));
		const expectedKept = fresh.map(keyOf);
		if (index === 0) {
			const activated = await activateWorkflow(session, WORKFLOWS.scheduled.id);
			report.check(
				GROUP,
				`activated with a ${intervalSeconds} s interval (REST)`,
				activated.active,
				activated.detail,
			);
		}
		// The first run that started after the change, once it has ended.
		const record = await until(
			`scheduled run ${index + 1}`,
			(intervalSeconds + 60) * 1000,
			async () => {
				const after = (await executionsOf(session, WORKFLOWS.scheduled.id)).filter(
					(entry) => Date.parse(entry.startedAt ?? '') >= changedAt,
				);
				return after[0] && TERMINAL.includes(after[0].status) ? after[0] : undefined;
			},
		);
		const full = await execution(session, record.id);
		const outcome = outcomes(full);
		for (const key of outcome.enhanced) enhanced.add(key);
		runs.push({
			phase,
			record: full,
			expectedKept,
			expectedUrls: fresh.map((media) => media.MediaURL),
			enhanced: outcome.enhanced,
			heldBack: outcome.heldBack,
			inTable: await tableVersions(),
		});
	}
	const deactivated = await deactivateWorkflow(session, WORKFLOWS.scheduled.id);
	report.check(GROUP, 'deactivated (REST)', deactivated.status === 200, deactivated.body);
	const credits = ctx.service.stats().credits.byKey[LOCAL_ACCOUNT] ?? { charged: 0, refunded: 0 };
	return {
		runs,
		seconds: (Date.now() - start) / 1000,
		netCredits: credits.charged - credits.refunded,
	};
}

/**
 * Checks every run the trigger started (including one that may have started before n8n
 * processed the deactivation: it must cost nothing) against the feed, the service and the table.
 */
export async function checkScheduled(
	ctx: Context,
	{ runs, seconds, netCredits }: ScheduledRuns,
): Promise<void> {
	const { report, service, feed, session } = ctx;
	const all = await until('the last scheduled run to end', 60_000, async () => {
		const list = await executionsOf(session, WORKFLOWS.scheduled.id);
		return list.every((entry) => TERMINAL.includes(entry.status)) ? list : undefined;
	});
	report.check(
		GROUP,
		`at least ${PHASES.length} runs, all started by the trigger`,
		all.length >= PHASES.length && all.every((entry) => entry.mode === 'trigger'),
		all.map((entry) => `${entry.id}:${entry.mode}`).join(', '),
	);
	report.equal(
		GROUP,
		'no execution ended in error (every status "success")',
		all.map((entry) => entry.status),
		all.map(() => 'success'),
	);

	// Each run kept exactly the photos that were new or replaced since the run before.
	let avoided = 0;
	let keptTotal = 0;
	const details = await Promise.all(
		all.map(async (entry) => await execution(ctx.session, entry.id)),
	);
	for (const record of details) {
		const kept = (nodeOutput(record, DEDUPE_NODE) ?? []).map((item) => keyOf(item.json));
		const photos = nodeOutput(record, PHOTOS_NODE) ?? [];
		keptTotal += kept.length;
		avoided += photos.length - kept.length;
	}
	for (const [index, run] of runs.entries()) {
		const name = `run ${index + 1} (${run.phase.what})`;
		report.equal(
			GROUP,
			`${name}: kept exactly the ${run.expectedKept.length} photos not enhanced yet (new, replaced, or held back before)`,
			(nodeOutput(run.record, DEDUPE_NODE) ?? []).map((item) => keyOf(item.json)).sort(),
			[...run.expectedKept].sort(),
		);
		const allowed = Math.min(run.expectedKept.length, PHOTOS_PER_RUN);
		report.equal(
			GROUP,
			`${name}: enhanced ${allowed} (Credit Limit ${TEST_CREDIT_LIMIT}), held back ${run.expectedKept.length - allowed} with the limit's error`,
			[run.enhanced.length, run.heldBack.length, outcomes(run.record).other.length],
			[allowed, run.expectedKept.length - allowed, 0],
		);
		report.equal(
			GROUP,
			`${name}: the table has the enhanced photos and none of the held-back ones`,
			[
				run.enhanced.filter((key) => !run.inTable.has(key)),
				run.heldBack.filter((key) => run.inTable.has(key)),
			],
			[[], []],
		);
	}
	const held = runs.flatMap((run) => run.heldBack);
	// A held-back photo that the MLS replaced before the next run is due only in its new version.
	const mediaKey = (key: string) => key.slice(0, key.lastIndexOf('@'));
	const superseded = runs.flatMap((run, index) =>
		run.heldBack.filter((key) => !(runs[index + 1]?.expectedKept ?? []).includes(key)),
	);
	report.check(
		GROUP,
		'the limit held photos back in the first run, and the next run enhanced each of them (or the version that replaced it)',
		runs[0].heldBack.length > 0 &&
			runs[0].heldBack.every((key) =>
				runs[1].enhanced.some((done) => mediaKey(done) === mediaKey(key)),
			),
		JSON.stringify(
			runs.slice(0, 2).map((run) => ({ enhanced: run.enhanced, heldBack: run.heldBack })),
		),
	);
	const due = [...new Set(runs.flatMap((run) => run.expectedKept))].filter(
		(key) => !superseded.includes(key),
	);
	report.equal(
		GROUP,
		`across all runs, every photo version due enhanced exactly once (none twice, none skipped; ${superseded.length} held back, then replaced by the MLS before its turn)`,
		runs.flatMap((run) => run.enhanced).sort(),
		[...due].sort(),
	);

	// The service's own record: one task per photo version, none for the floor plan.
	const tasks = service
		.stats()
		.tasks.filter((task) => String(task.imageUrl).startsWith(`${feed.baseUrl}/`));
	const urlOf = new Map(
		runs.flatMap((run) => run.expectedKept.map((key, index) => [key, run.expectedUrls[index]])),
	);
	const expectedUrls = due.map((key) => urlOf.get(key) ?? `no URL for ${key}`);
	report.equal(
		GROUP,
		`the service created exactly one task per photo version due (${expectedUrls.length}), none for the floor plan`,
		tasks.map((task) => String(task.imageUrl)).sort(),
		[...expectedUrls].sort(),
	);
	report.equal(
		GROUP,
		'every task ended Success',
		tasks.map((task) => task.status),
		tasks.map(() => 'Success'),
	);
	const downloads = feed.downloads();
	report.equal(
		GROUP,
		'the service fetched each photo version from the feed once, and no other file',
		Object.entries(downloads).sort(),
		expectedUrls.map((url) => [url, 1]).sort(),
	);
	report.equal(
		GROUP,
		`credits charged = ${PHOTO_CREDITS} × photos enhanced (${tasks.length})`,
		[netCredits, tasks.reduce((sum, task) => sum + (task.refunded ? 0 : task.cost), 0)],
		[PHOTO_CREDITS * tasks.length, PHOTO_CREDITS * tasks.length],
	);

	// The feed was asked as the example says: bearer token, the filter, Media, paged.
	const propertyRequests = feed.requests().filter((request) => request.url.includes('/Property'));
	const listings = feed.listings().length;
	const pagesPerRun = Math.ceil(listings / FEED_PAGE_SIZE);
	report.check(
		GROUP,
		'every feed request answered 200, with $filter on ModificationTimestamp and $expand=Media',
		propertyRequests.length > 0 &&
			propertyRequests.every(
				(request) =>
					request.status === 200 &&
					/^ModificationTimestamp gt /.test(request.query?.$filter ?? '') &&
					request.query?.$expand === 'Media',
			),
		JSON.stringify(propertyRequests.filter((request) => request.status !== 200).slice(0, 3)),
	);
	report.check(
		GROUP,
		`the last run followed @odata.nextLink over ${pagesPerRun} pages of ${FEED_PAGE_SIZE} listings`,
		propertyRequests
			.slice(-pagesPerRun)
			.every((request, index) =>
				index === 0
					? request.query?.$skip === undefined
					: request.query?.$skip === String(index * FEED_PAGE_SIZE),
			) && propertyRequests.length >= pagesPerRun * all.length,
		JSON.stringify(propertyRequests.slice(-pagesPerRun).map((request) => request.query)),
	);

	// The listings table: one row per photo, with the result of its current version.
	const rows = await queryBrokerage<Record<string, string | number>>(
		'SELECT media_key, listing_key, media_modified_at, source_url, status, result_url, task_id, credits FROM listing_photos ORDER BY media_key',
	);
	const taskByUrl = new Map(tasks.map((task) => [String(task.imageUrl), task.id]));
	const expectedRows = feedPhotos(ctx)
		.map((media) => ({
			media_key: media.MediaKey,
			listing_key: media.ResourceRecordKey,
			media_modified_at: media.ModificationTimestamp,
			source_url: media.MediaURL,
			status: 'Success',
			result_url: `${service.baseUrl}/results/${taskByUrl.get(media.MediaURL)}.png`,
			task_id: taskByUrl.get(media.MediaURL),
			credits: PHOTO_CREDITS,
		}))
		.sort((a, b) => a.media_key.localeCompare(b.media_key));
	report.equal(
		GROUP,
		`listing_photos holds one row per photo (${expectedRows.length}) with the result URL and task of its current version`,
		rows.map((row) => ({
			...row,
			media_modified_at: new Date(String(row.media_modified_at)).toISOString(),
		})),
		expectedRows,
	);

	ctx.figures.push(
		`scheduled: ${all.length} runs in ${seconds.toFixed(0)} s, ${feedPhotos(ctx).length} photos in the feed at the end ` +
			`(+1 floor plan), ${keptTotal} photos kept, ${runs.flatMap((run) => run.enhanced).length} enhanced = ${tasks.length} tasks, ` +
			`${avoided} duplicates avoided, ${held.length} held back by the Credit Limit (enhanced by the next run, or replaced before it), ${netCredits} credits; ` +
			`per run kept ${details.map((record) => (nodeOutput(record, DEDUPE_NODE) ?? []).length).join('/')}, ` +
			`${propertyRequests.length} feed page requests`,
	);
}

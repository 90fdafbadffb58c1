// Every tunable of the package, one line each; plain objects, so tests and the bench can try others.
// Why the waiting and rate values: docs/design/waiting.md, docs/design/request-rate.md.

const DAY_MS = 24 * 60 * 60_000;

/** Time, retries and sizes of the requests the nodes make. */
export const limits = {
	createTimeoutMs: 60_000, // a create unanswered by then may exist: never sent again
	sendAttempts: 5, // attempts of a create or a Get Result
	sendRetryBaseMs: 2000, // their backoff, doubling from this
	retryAfterFloorMs: 1000, // the least wait after a Retry-After
	createRetryAfterMaxMs: 60_000, // a longer Retry-After fails the item; an unreadable one counts as this
	pollTimeoutMaxMs: 30_000, // the longest a status check waits for its answer
	pollLastCheckMs: 1000, // the least time a status check gets, even at the deadline
	pollBackoffMaxMs: 30_000, // the longest backoff between status checks that meet a passing fault
	unknownStatusGrace: 3, // status checks in a row with an unlisted status before the item fails
	downloadTimeoutMs: 120_000, // all of one item's result downloads together
	downloadAttempts: 4, // attempts of one result file
	downloadRetryBaseMs: 4000, // their backoff, doubling from this
	downloadRetryMaxMs: 30_000, // up to this
	downloadMaxFiles: 20, // files one item downloads from a result list
	downloadMaxBytes: 100 * 1024 * 1024, // a larger result file is refused
	downloadMaxRedirects: 5, // redirects a result download follows, each checked
	editorReadTimeoutMs: 15_000, // an option list the editor loads
};

/** When a task is checked (`item-life/wait.ts`, `waiting/`). */
export const pollLimits = {
	intervalSeconds: { min: 3, max: 5, default: 4 }, // the service asks for a check every 3 to 5 s
	defaultTimeoutSeconds: 600, // how long a create waits for its task unless told otherwise
	firstCheckJitterMs: 500, // ± on the first wait only, so that tasks created together check apart
	replanAboveMs: 20_000, // a queued task's longer wait is split, to be planned again on the way
	maxPredictedWaitMs: 30_000, // the longest wait a prediction from progress sets
	marginMs: 300, // a check aims this long after the predicted finish …
	marginShare: 0.03, // … plus this share of the time still to go
	agreementShare: 0.25, // predictions further apart than this share of the run: progress is not linear
	agreementMinMs: 2000, // … and never closer than this
	refineAboveMs: 1000, // a prediction wider than this gets one more check first, with time to spare
	refineLeadMs: 3500, // that check comes this long before the earliest finish
	tentativeSlackMs: 1000, // a first check this much late waited for its request slot
	withdrawAboveMs: 1000, // a queued check still waiting for a slot is given up when its turn is later
};

/** What the checks of one API's queue keep and believe (`waiting/queue-observations.ts`). */
export const queueLimits = {
	maxPaces: 256, // pace samples kept, the latest
	maxRuns: 64, // run-time samples kept
	maxEnds: 4096, // task ends kept, enough for a long queue planned again minutes later
	countShare: 0.1, // workers counted from the ends are believed this close to the upper bound
	rhythmRounds: 8, // rounds back that an end's partner is looked for
	partnerShare: 0.1, // how far off, as a share of the run time, a partner may be
	recentRounds: 4, // rounds of ends that date the queue's latest pace
	trimShare: 0.1, // run-time samples left out at either end when not all agree
	runChangeShare: 0.01, // a run time that moves this much changes queued plans
	paceSettledShare: 0.02, // the pace is settled once this uncertain
	paceChangeShare: 0.02, // a settled pace that moves this much changes queued plans
	paceRunSpreads: 2, // the run time from the pace is taken within this many spreads
};

/** The request rate per account (`rate/`). */
export const rateLimits = {
	defaultPerSecond: 50, // Max Requests per Second's default
	firstBurst: 10, // requests that may leave at once before the rest are spaced
	settledAfterMs: 1000, // a process has settled this long after its last pause ended
	settledHoldMs: 1000, // once settled, a Retry-After up to this holds only the refused request
	fall: 0.7, // the rate after a throttle, as a share of what was sent
	plateau: 0.98, // where the climb back stops, as a share of the rate the throttle came at
	evenPartTolerance: 0.12, // a part measured after a pause within this of an even share is taken as it
	measuredFalls: 2, // the deepest a measured part takes the rate at once, in falls
	nudgeMemoryMs: 3000, // two settled throttles this close mean the account is full …
	nudge: 0.97, // … and the second lowers the rate by this
	recoveryS: 2, // seconds until the climb is back at its plateau
	probeDoublingS: 100, // the probe past the plateau doubles the rate in about this many seconds
	minRate: 0.5, // never slower, so the node finds out when a limit lifts
};

/** How long what belongs to one execution lives in this process (`core/per-execution.ts`). */
export const executionLimits = {
	stateIdleMs: DAY_MS, // an execution's state goes after this long unused: beyond any wait
	outOfCreditsMs: 60 * 60_000, // "not enough credits" holds back the execution's creates this long
	endedIdleMs: DAY_MS, // an ended execution is remembered while it calls, and this long after
	maxEnded: 10_000, // ended executions remembered at most
	sweepEveryMs: 60_000, // how often a store walks its entries for ones to drop
};

/** Files the nodes read (`files/`, `photo-files/`). */
export const fileLimits = {
	imageMaxBytes: 20 * 1024 * 1024, // a photo or mask file larger than this is refused, as the service does
	sniffBytes: 64 * 1024, // bytes of a result file read to tell its type
	jsonMaxDepth: 64, // nesting of a JSON body field
};

/** n8n's signed photo link outlives every wait: the service may fetch it whenever the task starts. */
export const photoLinkLimits = {
	marginSeconds: 300, // for the create, its retries and the service's download, on top of the Timeout
	holdSeconds: 24 * 60 * 60, // after the node stops waiting (at once with Wait for Completion off)
	maxSeconds: 7 * 24 * 60 * 60, // the longest link; an item's Timeout with photo files is bounded by it
};

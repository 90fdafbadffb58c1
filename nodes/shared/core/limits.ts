/**
 * The time, retry and size limits of every request the nodes make. One object so that tests can
 * shorten them; users meet the values documented in the README.
 */
export const limits = {
	/** A create that has not answered by then may still have been created: it is never resent. */
	createTimeoutMs: 60_000,
	/** Attempts of a create or a Get Result, each after a backoff doubling from the base. */
	sendAttempts: 5,
	sendRetryBaseMs: 2000,
	/** A status check never waits longer than this for its answer (nor past the Timeout). */
	pollTimeoutMaxMs: 30_000,
	/** The least time a status check gets to answer, even at the deadline. */
	pollLastCheckMs: 1000,
	/** The longest backoff between status checks that meet a passing fault. */
	pollBackoffMaxMs: 30_000,
	/** An item's result downloads' time limit: every file, attempt and retry together. */
	downloadTimeoutMs: 120_000,
	/** Attempts of one result file, each after a backoff doubling from the base, up to the max. */
	downloadAttempts: 4,
	downloadRetryBaseMs: 4000,
	downloadRetryMaxMs: 30_000,
	/** Files one item downloads from a result list; the rest are listed as not attached. */
	downloadMaxFiles: 20,
	/** Result images larger than this are refused (the service's outputs are far smaller). */
	downloadMaxBytes: 100 * 1024 * 1024,
	/** Redirects a result download may follow, each checked like the first address. */
	downloadMaxRedirects: 5,
	/**
	 * A create's Retry-After longer than this fails the item as rate-limited instead of waiting; a
	 * status check waits this long at most, and the account is held no longer. A Retry-After the
	 * node cannot read counts as this.
	 */
	createRetryAfterMaxMs: 60_000,
	/** Status checks in a row with a status the spec does not list before the item fails. */
	unknownStatusGrace: 3,
	/** An option list the editor loads from the Style Config endpoint. */
	editorReadTimeoutMs: 15_000,
};

/**
 * How long n8n's signed link to a photo file lasts. The service may fetch the photo whenever the
 * task starts, so the link outlives every wait of the node, and a task the node leaves running (Wait
 * for Completion off, On Timeout either way) can still fetch it for the hold after the wait ends.
 */
export const photoLinkLimits = {
	/** For the create, its retries and the service's own download, on top of the Timeout. */
	marginSeconds: 300,
	/** After the node stops waiting (at once with Wait for Completion off). */
	holdSeconds: 24 * 60 * 60,
	/** The longest link the node makes; the Timeout of an item with photo files is bounded by it. */
	maxSeconds: 7 * 24 * 60 * 60,
};

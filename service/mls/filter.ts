// The part of OData's $filter grammar a replication client of an MLS feed uses: comparisons of
// ModificationTimestamp with a DateTimeOffset literal (unquoted, as OData 4 writes it), joined
// by `and`. Anything else is refused with the reason, as a RESO server refuses what it cannot do.

export type Operator = 'eq' | 'gt' | 'ge' | 'lt' | 'le';

export interface TimestampCondition {
	operator: Operator;
	/** Milliseconds since the epoch. */
	time: number;
}

const CONDITION =
	/^ModificationTimestamp\s+(eq|gt|ge|lt|le)\s+(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))$/;

/** The conditions, or why the filter is not supported. */
export function parseFilter(filter: string): TimestampCondition[] | string {
	const parts = filter.trim().split(/\s+and\s+/);
	const conditions: TimestampCondition[] = [];
	for (const part of parts) {
		const match = CONDITION.exec(
			part
				.trim()
				.replace(/^\((.*)\)$/, '$1')
				.trim(),
		);
		if (!match) {
			return `$filter "${part.trim()}" is not supported: use ModificationTimestamp gt|ge|lt|le|eq <DateTimeOffset, e.g. 2026-11-23T18:00:00Z>, joined by "and"`;
		}
		const time = Date.parse(match[2]);
		if (!Number.isFinite(time)) return `$filter: ${match[2]} is not a valid DateTimeOffset`;
		conditions.push({ operator: match[1] as Operator, time });
	}
	return conditions;
}

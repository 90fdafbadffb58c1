/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions */
/**
 * n8n's own tables in run.sh's PostgreSQL, read with psql: where the binary data of an
 * execution went.
 */
import { execFileSync } from 'node:child_process';

import { DATABASE } from './settings.ts';

/** The rows a query returns, each as its columns' text. */
export function query(sql: string): string[][] {
	const output = execFileSync(
		DATABASE.psql,
		[
			'-h',
			'127.0.0.1',
			'-p',
			String(DATABASE.port),
			'-U',
			DATABASE.user,
			'-d',
			DATABASE.name,
			'-v',
			'ON_ERROR_STOP=1',
			'-At',
			'-F',
			'\t',
			'-c',
			sql,
		],
		{ env: { ...process.env, PGPASSWORD: DATABASE.password }, encoding: 'utf8' },
	);
	return output
		.split('\n')
		.filter(Boolean)
		.map((line) => line.split('\t'));
}

/** A row of n8n's `binary_data` table (the `database` binary data mode), its bytes as a digest. */
export interface StoredBinaryRow {
	fileId: string;
	sourceType: string;
	sourceId: string;
	fileSize: number;
	sha256: string;
}

/** The `binary_data` rows with these file ids. */
export function binaryRows(fileIds: string[]): StoredBinaryRow[] {
	const uuids = fileIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
	if (uuids.length === 0) return [];
	return query(
		`SELECT "fileId", "sourceType", "sourceId", "fileSize", encode(sha256(data), 'hex') FROM binary_data WHERE "fileId" IN (${uuids.map((id) => `'${id}'`).join(', ')})`,
	).map(([fileId, sourceType, sourceId, fileSize, sha256]) => ({
		fileId,
		sourceType,
		sourceId,
		fileSize: Number(fileSize),
		sha256,
	}));
}

/** How many `binary_data` rows belong to an execution. */
export function binaryRowsOfExecution(executionId: string): number {
	if (!/^\d+$/.test(executionId)) throw new Error(`not an execution id: ${executionId}`);
	return Number(
		query(`SELECT count(*) FROM binary_data WHERE "sourceId" = '${executionId}'`)[0]?.[0] ?? 0,
	);
}

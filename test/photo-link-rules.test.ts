/**
 * What n8n's own link to a photo file must be before the service gets it: at n8n's https address
 * (plain http only for a service on this machine), with no user name or password in it, and valid
 * for as long as the task may still fetch the photo: the node's whole wait, and a day after it for
 * a task the node leaves running. Refusals come before any request, in n8n's engine.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { runNode, type RunOptions } from './helpers/engine';
import { OR, api, recorded, serveTask } from './helpers/api';
import { filesForThisFile } from './helpers/binary-store';
import { jpegImage } from './helpers/images';
import { eachTestOnAFreshWire } from './helpers/journey';
import { fromFile } from './helpers/params';

const files = filesForThisFile();
eachTestOnAFreshWire();

const DAY = 24 * 60 * 60;

async function removeFromFile(more: Partial<RunOptions> & { options?: IDataObject } = {}) {
	const photo: IBinaryData = await files.store(jpegImage(640, 480), 'room.jpg');
	const { options, ...rest } = more;
	return await runNode({
		node: 'objectRemover',
		restApiUrl: 'https://n8n.example.com/rest',
		parameters: { ...fromFile('objectRemover'), options: options ?? {} },
		items: [{ json: {}, binary: { photo } }],
		...rest,
	});
}

/** How long the link in the create lasts, from its token's claims. */
function lifetimeOfSentLink(): number {
	const link = new URL(String((recorded[0].body as IDataObject).imageUrl));
	const claims = JSON.parse(
		Buffer.from((link.searchParams.get('token') ?? '').split('.')[1], 'base64url').toString('utf8'),
	) as { iat: number; exp: number };
	return claims.exp - claims.iat;
}

describe("n8n's address is checked as the key's is, before anything is sent", () => {
	test('plain http at a public address: refused, naming WEBHOOK_URL', async () => {
		const { error } = await removeFromFile({ restApiUrl: 'http://n8n.example.com/rest' });

		expect(error?.message).toBe(
			"n8n's own address is http://n8n.example.com, so the link's token would travel unencrypted [item 0]",
		);
		expect(error?.description).toMatch(/Set WEBHOOK_URL to n8n's https:\/\/ address/);
		expect(error?.description).toMatch(/Nothing was sent or charged/);
		expect(recorded).toHaveLength(0);
	});

	test('a user name and password in the address: refused, and they are quoted nowhere', async () => {
		const { error, run } = await removeFromFile({
			restApiUrl: 'https://admin:pa55word@n8n.example.com/rest',
		});

		expect(error?.message).toBe(
			"n8n's own address (https://n8n.example.com) holds a user name or password, which would go to Ideal House inside the link to the photo [item 0]",
		);
		expect(error?.description).toMatch(/WEBHOOK_URL/);
		expect(recorded).toHaveLength(0);
		expect(JSON.stringify(run)).not.toContain('pa55word');
	});
});

describe('a file n8n no longer has', () => {
	test('names its field and the item, and nothing is sent', async () => {
		const photo: IBinaryData = await files.store(jpegImage(640, 480), 'gone.jpg');
		// n8n pruned the run that stored it: the item still names the file.
		const [, path] = String(photo.id).split(':');
		rmSync(join(String(process.env.N8N_BINARY_DATA_STORAGE_PATH), path));

		const { error } = await runNode({
			node: 'objectRemover',
			restApiUrl: 'https://n8n.example.com/rest',
			parameters: fromFile('objectRemover'),
			items: [{ json: {}, binary: { photo } }],
		});

		expect(error?.message).toMatch(
			/^'[A-Za-z ]+' "photo" names a file n8n no longer has in its binary data \[item 0\]$/,
		);
		expect(error?.description).toMatch(/Run the workflow again from the node that makes the file/);
		expect(recorded).toHaveLength(0);
	});
});

describe('the link outlives every wait the node makes', () => {
	test('a Timeout beyond what a link can last is a field error, and nothing is sent', async () => {
		const { error } = await removeFromFile({ options: { timeout: 1e9 } });

		expect(error?.message).toBe(
			"'Timeout (Seconds)' is 1000000000 s, longer than the link to a photo file can last (at most 518100 s) [item 0]",
		);
		expect(error?.description).toMatch(/give the photo as a URL/);
		expect(recorded).toHaveLength(0);
	});

	test('the longest Timeout allowed gets a link of seven days: the wait, 5 minutes, and a day', async () => {
		serveTask(OR, '91', { status: 'Success' });

		const { error } = await removeFromFile({ options: { timeout: 518_100 } });

		expect(error).toBeUndefined();
		expect(lifetimeOfSentLink()).toBe(7 * DAY);
	});

	test('Output the Last Status with a two-day Timeout: the link lasts the wait and a day after it', async () => {
		serveTask(OR, '92', { status: 'Success' });

		const { items } = await removeFromFile({
			options: { timeout: 2 * DAY, onTimeout: 'returnLastStatus' },
		});

		expect(items[0].json).toMatchObject({ id: '92', status: 'Success' });
		expect(lifetimeOfSentLink()).toBe(2 * DAY + 300 + DAY);
	});

	test('On Timeout = Fail with the task still queued: the error says until when the service can fetch the photo', async () => {
		serveTask(OR, '93', { status: 'Unprocessed', waitNumber: 40, times: 9999 });

		const { error } = await removeFromFile({ options: { timeout: 60 } });

		expect(error?.message).toMatch(/^Task 93 did not finish within 60 s/);
		expect(lifetimeOfSentLink()).toBe(60 + 300 + DAY);
		const said = /can still fetch the photo from n8n until (\S+)\./.exec(error?.description ?? '');
		expect(said).not.toBeNull();
		expect(Date.parse(said![1])).toBeGreaterThan(Date.now() + DAY * 1000);
	});

	test('a create whose answer was lost: the error says until when the service can fetch the photo, if it made the task', async () => {
		api()
			.post(OR.create)
			.replyWithError(Object.assign(new Error('socket failure'), { code: 'ECONNRESET' }));

		const { error } = await removeFromFile({ options: { timeout: 60 } });

		expect(error?.message).toMatch(/^The connection to Ideal House broke/);
		expect(error?.description).toMatch(
			/If the task was created, Ideal House can still fetch the photo from n8n until \S+\./,
		);
		expect(error?.description).toMatch(/may have been created and charged/);
	});

	test('the same in a workflow that does not save its executions: the error says n8n deletes the photo', async () => {
		serveTask(OR, '94', { status: 'Unprocessed', waitNumber: 40, times: 9999 });

		const { error } = await removeFromFile({
			options: { timeout: 60 },
			workflowSettings: { saveDataSuccessExecution: 'none', saveDataErrorExecution: 'none' },
		});

		expect(error?.description).toMatch(/does not save its executions.*deletes the photo/);
	});
});

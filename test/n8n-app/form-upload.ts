/**
 * The form that takes the room photo as a file (`examples/form-upload-stage.json`), as the
 * real-n8n drivers run it: in `n8n start` (test/n8n-app) and through n8n's queue, the form on the
 * main and the task on a worker (test/n8n-queue). What they share: the example's names, publishing
 * it, the browser's submission, the files the form ending's page hands over, and what the S3
 * server must have seen.
 */
import { createHash } from 'node:crypto';

import type { TestStorage } from '../helpers/s3-storage.ts';
import { activateWorkflow, type RestSession } from './n8n-process.ts';
import { type Report, sleep } from './report.ts';

/**
 * The example: the photo is the uploaded file, which the node puts in the bucket for the service,
 * and the form's ending hands the staged photo back to the browser.
 */
export const FORM_UPLOAD_EXAMPLE = {
	file: 'form-upload-stage.json',
	id: 'ihFormUploadStage',
	formPath: 'stage-a-room',
	trigger: 'Room photo',
	node: 'Stage the room',
	ending: 'Staged photo',
	/** n8n names a form file's binary property after the field's label, `\W` as `_`. */
	fileProperty: 'Room_photo',
	resultProperty: 'staged',
	prompt: 'Warm contemporary furniture, light oak and neutral linen, styled for a listing photo',
};

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Publishes a form example; returns its production URL once n8n serves the form there. */
export async function publishForm(
	report: Report,
	group: string,
	base: string,
	session: RestSession,
	example: { id: string; formPath: string },
	field: RegExp,
	fields: string,
): Promise<string | undefined> {
	const activated = await activateWorkflow(session, example.id);
	if (!report.check(group, 'published over REST', activated.active, activated.detail))
		return undefined;

	// Publishing registers the form's webhook a moment later (n8n applies it from an outbox).
	const formUrl = `${base}/form/${example.formPath}`;
	const formDeadline = Date.now() + 30_000;
	let formPage = await fetch(formUrl);
	while (!formPage.ok && Date.now() < formDeadline) {
		await sleep(500);
		formPage = await fetch(formUrl);
	}
	if (
		!report.check(
			group,
			`the form is served at /form/${example.formPath}, with ${fields}`,
			formPage.ok && field.test(await formPage.text()),
			`HTTP ${formPage.status}`,
		)
	)
		return undefined;
	return formUrl;
}

/**
 * Submits the photo as the form's file field, multipart as a browser sends it; returns the page
 * n8n says to wait on.
 */
export async function submitPhoto(
	report: Report,
	group: string,
	formUrl: string,
	photo: Buffer,
): Promise<string | undefined> {
	const form = new FormData();
	form.append('field-0', new Blob([photo], { type: 'image/png' }), 'living-room.png');
	const submitted = await fetch(formUrl, { method: 'POST', body: form });
	const text = await submitted.text();
	let waitingUrl: string | undefined;
	try {
		waitingUrl = (JSON.parse(text) as { formWaitingUrl?: string }).formWaitingUrl;
	} catch {
		// not JSON: reported below
	}
	report.check(
		group,
		`the form accepts the photo file and sends the browser on to wait for the ending`,
		submitted.ok && typeof waitingUrl === 'string',
		`HTTP ${submitted.status}: ${text.slice(0, 300)}`,
	);
	return waitingUrl;
}

/** A file as the form ending's page carries it: the bytes and what the browser saves them as. */
export interface ReturnedFile {
	bytes: Buffer;
	fileName: string;
	type: string;
}

/**
 * The files the form ending's page hands the browser: URI-encoded JSON in its script, one file
 * (n8n 1.x) or a list (2.x), the bytes as a serialised Buffer (filesystem binary mode) or as a
 * byte string (binary data kept in memory).
 */
export function returnedFiles(html: string): ReturnedFile[] | undefined {
	const encoded = /const binar(?:y|ies) = "([^"]+)"/.exec(html)?.[1];
	if (!encoded) return undefined;
	const parsed = JSON.parse(decodeURIComponent(encoded)) as unknown;
	const entries = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{
		data: { type: 'Buffer'; data: number[] } | string;
		fileName: string;
		type: string;
	}>;
	return entries.map((entry) => ({
		bytes:
			typeof entry.data === 'string'
				? Buffer.from(entry.data, 'latin1')
				: Buffer.from(entry.data.data),
		fileName: entry.fileName,
		type: entry.type,
	}));
}

/**
 * What the S3 server saw: the node's signed upload of the photo, the service's download through
 * the presigned link it was given (the same bytes), the node's delete once the task had ended,
 * and nothing left in the bucket.
 */
export async function checkThroughBucket(
	report: Report,
	group: string,
	storage: TestStorage,
	sentUrl: string,
	photo: Buffer,
): Promise<void> {
	let link: URL | undefined;
	try {
		link = new URL(sentUrl);
	} catch {
		// reported below
	}
	const path = link?.pathname ?? '';
	report.check(
		group,
		`the service got a presigned link into the bucket (${storage.bucket}, under ideal-house-uploads/)`,
		!!link &&
			link.origin === storage.endpoint &&
			path.startsWith(`/${storage.bucket}/ideal-house-uploads/`) &&
			link.searchParams.has('X-Amz-Signature'),
		sentUrl,
	);
	const of = (method: string) =>
		storage.requests.filter((request) => request.method === method && request.path === path);
	const puts = of('PUT');
	report.equal(
		group,
		'the node uploaded the photo once, signed, and the store kept exactly its bytes',
		puts.map((put) => [put.status, put.verdict.ok, put.sha256]),
		[[200, true, sha256(photo)]],
	);
	const fetched = of('GET').filter((get) => get.verdict.ok && get.verdict.presigned);
	report.equal(
		group,
		"the service's input: it fetched the object through its link and got the uploaded file's bytes",
		fetched.map((get) => [get.status, get.sha256]),
		[[200, sha256(photo)]],
	);
	report.equal(
		group,
		'the node deleted the object once the task had ended',
		of('DELETE').map((del) => del.status),
		[204],
	);
	report.equal(group, 'the bucket is empty afterwards', await storage.keys(), []);
	report.check(
		group,
		'every request to the store carried a valid signature',
		storage.requests.every((request) => request.verdict.ok),
		JSON.stringify(storage.requests.filter((request) => !request.verdict.ok).map((r) => r.verdict)),
	);
}

/**
 * The form's ending page as a browser meets it: it carries one file for the browser to save, and
 * the POST back its script sends is accepted. Returns the file the page carried.
 */
export async function finishEndingPage(
	report: Report,
	group: string,
	waitingUrl: string,
	ending: string,
): Promise<ReturnedFile | undefined> {
	const page = await fetch(waitingUrl);
	const returned = returnedFiles(await page.text());
	report.check(
		group,
		`"${ending}": its page carries one file for the browser to save`,
		page.ok && returned?.length === 1,
		`HTTP ${page.status}; ${returned?.length ?? 'no'} file(s)`,
	);
	const resumed = await fetch(waitingUrl, { method: 'POST' });
	report.check(
		group,
		"the page's POST back (as its script sends it) is accepted",
		resumed.ok,
		`HTTP ${resumed.status}`,
	);
	return returned?.[0];
}

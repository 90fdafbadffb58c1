/**
 * The form that takes the room photo as a file, as the real-n8n drivers run it: in `n8n start`
 * (test/n8n-app) and through n8n's queue, the form on the main and the task on a worker
 * (test/n8n-queue). The example (`examples/form-upload-stage.json`) gives the service n8n's own
 * link to the file. What the drivers share: the workflow's names, publishing it, the browser's
 * submission, and the files the form ending's page hands over.
 */
import { createHash } from 'node:crypto';

import { activateWorkflow, type RestSession } from './n8n-process.ts';
import { type Report, sleep } from './report.ts';

export interface FormUpload {
	/** The file, under `examples/` or, for a test workflow, `test/n8n-app/workflows/`. */
	file: string;
	folder: 'examples' | 'workflows';
	id: string;
	formPath: string;
	trigger: string;
	node: string;
	/** The form ending that hands the staged photo back; none when the node does not wait. */
	ending?: string;
	/** n8n names a form file's binary property after the field's label, `\W` as `_`. */
	fileProperty: string;
	resultProperty?: string;
	prompt: string;
}

/**
 * The example: the photo is the uploaded file, which the node hands the service as n8n's own
 * signed link, and the form's ending hands the staged photo back to the browser.
 */
export const FORM_UPLOAD_EXAMPLE: FormUpload = {
	file: 'form-upload-stage.json',
	folder: 'examples',
	id: 'ihFormUploadStage',
	formPath: 'stage-a-room',
	trigger: 'Room photo',
	node: 'Stage the room',
	ending: 'Staged photo',
	fileProperty: 'Room_photo',
	resultProperty: 'staged',
	prompt: 'Warm contemporary furniture, light oak and neutral linen, styled for a listing photo',
};

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Publishes a form that takes the room photo as a file (its one file field). */
export async function publishPhotoForm(
	report: Report,
	group: string,
	base: string,
	session: RestSession,
	example: Pick<FormUpload, 'id' | 'formPath'>,
): Promise<string | undefined> {
	return await publishForm(report, group, base, session, example, /Room photo/, 'its file field');
}

/** Publishes a form example; returns its production URL once n8n serves the form there. */
export async function publishForm(
	report: Report,
	group: string,
	base: string,
	session: RestSession,
	example: Pick<FormUpload, 'id' | 'formPath'>,
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
 * Submits the photo as the form's file field, multipart as a browser sends it. With a form ending
 * n8n answers with the page to wait on, which is returned; without one (`ending` false), the
 * submission is only accepted, and the form's URL is returned.
 */
export async function submitPhoto(
	report: Report,
	group: string,
	formUrl: string,
	photo: Buffer,
	ending = true,
): Promise<string | undefined> {
	const form = new FormData();
	form.append('field-0', new Blob([photo], { type: 'image/png' }), 'living-room.png');
	const submitted = await fetch(formUrl, { method: 'POST', body: form });
	const text = await submitted.text();
	if (!ending) {
		return report.check(
			group,
			'the form accepts the photo file',
			submitted.ok,
			`HTTP ${submitted.status}: ${text.slice(0, 300)}`,
		)
			? formUrl
			: undefined;
	}
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

/**
 * The token in n8n's signed link opens the photo to whoever holds it: it goes to Ideal House in
 * the create and nowhere else. Whatever the service says back (an error message, a page, the
 * task's echoed input), in whatever form it quotes the token, n8n's run data and log never hold
 * it: the echoed link reads `token=[redacted]`. Random tokens in random wrappers, in n8n's engine.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { logLines, runNode } from './helpers/engine';
import { OR, api, created, envelope, recorded, taskResponse } from './helpers/api';
import { filesForThisFile } from './helpers/binary-store';
import { jpegImage } from './helpers/images';
import { eachTestOnAFreshWire } from './helpers/journey';
import { fromFile } from './helpers/params';

const files = filesForThisFile();
eachTestOnAFreshWire();

const REST = 'https://n8n.example.com/rest';

/** A small, seeded generator: the same cases on every run, many shapes among them. */
function seeded(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
	return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] };
}

type Wrap = (text: string, random: ReturnType<typeof seeded>) => string;

const uEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The ways a service might quote a token (or a text holding one). */
const WRAPPERS: Record<string, Wrap> = {
	bare: (text) => text,
	jsonQuoted: (text) => JSON.stringify(text),
	urlEncoded: (text) => encodeURIComponent(text),
	urlEncodedTwice: (text) => encodeURIComponent(encodeURIComponent(text)),
	lowerCaseHex: (text) =>
		[...text]
			.map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0').toLowerCase()}`)
			.join(''),
	uEscapedAll: (text) => [...text].map(uEscape).join(''),
	uEscapedSome: (text, random) =>
		[...text].map((char) => (random.next() < 0.3 ? uEscape(char) : char)).join(''),
	split: (text) => {
		const parts = text.split('.');
		return parts.length === 3 ? `claims ${parts[1]} and signature ${parts[2]}` : text;
	},
	inLink: (text) => `https://n8n.example.com/rest/binary-data/signed?token=${text}`,
	inQuery: (text) => JSON.stringify({ query: { token: text } }),
	linkInJsonString: (text) =>
		JSON.stringify(
			JSON.stringify({ imageUrl: `https://n8n.example.com/rest/binary-data/signed?token=${text}` }),
		),
};

/** How the service answers with the wrapped token. */
const CHANNELS = ['refusal message', 'page of a 5xx', 'echoed input'] as const;

/** Every way the text may hand the token back: decoded as JSON escapes and URL encoding would be. */
function readings(text: string): string[] {
	const out = new Set([text]);
	for (let round = 0; round < 3; round++) {
		for (const known of [...out]) {
			out.add(
				known.replace(/\\+u([0-9a-fA-F]{4})/g, (_m, hex: string) =>
					String.fromCharCode(parseInt(hex, 16)),
				),
			);
			out.add(known.replace(/\\+\//g, '/'));
			try {
				out.add(decodeURIComponent(known));
			} catch {
				// not URL-encoded text
			}
		}
	}
	return [...out];
}

/** Every text in the run data (keys and values), and every log line. */
function textsOf(value: unknown, into: string[] = []): string[] {
	if (typeof value === 'string') into.push(value);
	else if (Array.isArray(value)) for (const entry of value) textsOf(entry, into);
	else if (value && typeof value === 'object') {
		for (const [key, entry] of Object.entries(value)) {
			into.push(key);
			textsOf(entry, into);
		}
	}
	return into;
}

const item = async (): Promise<INodeExecutionData> => ({
	json: {},
	binary: { photo: await files.store(jpegImage(640, 480), 'room.jpg') },
});

describe("the token of n8n's link never leaves in words", () => {
	const random = seeded(20261202);
	const cases = Array.from({ length: 60 }, (_unused, index) => {
		const first = random.pick(Object.keys(WRAPPERS));
		const second = random.next() < 0.5 ? random.pick(Object.keys(WRAPPERS)) : undefined;
		return { index, wrappers: second ? [first, second] : [first], channel: CHANNELS[index % 3] };
	});

	test.each(cases)('case $index: $wrappers, in the $channel', async ({ wrappers, channel }) => {
		let token = '';
		const wrap = (text: string) =>
			wrappers.reduce((wrapped, name) => WRAPPERS[name](wrapped, random), text);
		api()
			.post(OR.create)
			.reply((_uri, body) => {
				token = new URL(String((body as IDataObject).imageUrl)).searchParams.get('token') ?? '';
				const quoted = wrap(token);
				if (channel === 'refusal message') {
					return [200, envelope('null', 1011, `imageUrl could not be downloaded: ${quoted}`)];
				}
				if (channel === 'page of a 5xx') return [503, `<html><pre>${quoted}</pre></html>`];
				return [200, created('71')];
			});
		api()
			.get(OR.result)
			.query(true)
			.reply(() => [
				200,
				taskResponse('71', {
					input: {
						imageUrl: `${REST}/binary-data/signed?token=${token}`,
						note: wrap(token),
					},
				}),
			]);

		const run = await runNode({
			node: 'objectRemover',
			restApiUrl: REST,
			parameters: fromFile('objectRemover'),
			items: [await item()],
			onError: 'continueRegularOutput',
		});

		// The token went to the service in the create, as a real one.
		expect(token.split('.')).toHaveLength(3);
		expect(recorded[0].text).toContain(token);
		const [, claims, signature] = token.split('.');
		const everything = [...textsOf(run.run.data), ...logLines];
		for (const text of everything) {
			for (const reading of readings(text)) {
				expect(reading).not.toContain(signature);
				expect(reading).not.toContain(claims);
			}
		}
		if (channel === 'echoed input') {
			const input = run.items[0].json.input as IDataObject;
			expect(input.imageUrl).toBe(`${REST}/binary-data/signed?token=[redacted]`);
		}
	});
});

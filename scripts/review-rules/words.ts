/**
 * Title Case and sentence case as n8n's UX guidelines for community nodes use them: Title Case for
 * labels, option names and operation names ("Get Result"), sentence case without articles for
 * actions ("Get enhancement result"), with acronyms in capitals either way.
 */

/** Words a Title Case label keeps in lower case unless they come first. */
const SMALL_WORDS = new Set(
	'a an the and or nor but of in on at to for by with from as per vs via into'.split(' '),
);

/** Spelled this way wherever they appear; n8n writes its own name in lower case. */
export const ACRONYMS = ['AI', '3D', 'API', 'URL', 'URLs', 'ID', 'IDs', 'HDR', 'MLS', 'JSON'];
const BRANDS = ['n8n'];

const ARTICLES = new Set(['a', 'an', 'the']);

/** The words of a label, without the punctuation around them. */
function wordsOf(text: string): string[] {
	return text
		.split(/[\s:/]+/)
		.map((word) => word.replace(/^[("'[]+|[)"'\],.;!?]+$/g, ''))
		.filter((word) => word !== '');
}

function acronymFor(word: string): string | undefined {
	return ACRONYMS.find((acronym) => acronym.toLowerCase() === word.toLowerCase());
}

/** What keeps a label from Title Case: a raw identifier, a word in lower case, a miscased acronym. */
export function titleCaseProblems(text: string): string[] {
	return wordsOf(text).flatMap((word, index) => {
		if (BRANDS.includes(word)) return [];
		const acronym = acronymFor(word);
		if (acronym && word !== acronym) return [`"${word}" should read "${acronym}"`];
		if (/[a-z][A-Z]/.test(word) && !acronym) return [`"${word}" is a raw value, not a word`];
		if (/^[a-z]/.test(word) && !(index > 0 && SMALL_WORDS.has(word))) {
			return [`"${word}" is not capitalized`];
		}
		return [];
	});
}

/** What keeps an action from sentence case without articles. */
export function sentenceCaseProblems(text: string): string[] {
	return wordsOf(text).flatMap((word, index) => {
		if (ARTICLES.has(word.toLowerCase())) return [`has the article "${word}"`];
		if (BRANDS.includes(word)) return [];
		const acronym = acronymFor(word);
		if (acronym) return word === acronym ? [] : [`"${word}" should read "${acronym}"`];
		if (index === 0) return /^[A-Z]/.test(word) ? [] : [`"${word}" should start with a capital`];
		return /^[A-Z][a-z]/.test(word) ? [`"${word}" is capitalized mid-sentence`] : [];
	});
}

// The real service is a Java one: task ids are 64-bit longs written as bare JSON numbers, larger
// than 2^53. JSON.stringify cannot write a BigInt, and a Number would lose digits, so the JSON text
// is built here and BigInt values are written digit for digit.

export const CODE = {
	OK: 0,
	FAILED: 1001,
	INTERNAL_ERROR: 1003,
	PARAM_ERROR: 1011,
	API_KEY_INVALID: 5002,
	SCAN_TEXT_ERROR: 9010,
	PROHIBITED_CONTENT: 9038,
	COINS_NOT_ENOUGH: 9051,
} as const;

/** An envelope error raised anywhere in request handling; answered with HTTP 200. */
export class ServiceError extends Error {
	readonly code: number;

	constructor(code: number, message: string) {
		super(message);
		this.code = code;
	}
}

/** JSON.stringify, except that a bigint is written as a bare integer with every digit. */
export function toJsonText(value: unknown): string {
	if (typeof value === 'bigint') return value.toString();
	if (value === null || typeof value !== 'object') {
		const text = JSON.stringify(value);
		return text === undefined ? 'null' : text;
	}
	if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item)).join(',')}]`;
	const parts: string[] = [];
	for (const [key, item] of Object.entries(value)) {
		if (item === undefined || typeof item === 'function') continue;
		parts.push(`${JSON.stringify(key)}:${toJsonText(item)}`);
	}
	return `{${parts.join(',')}}`;
}

export function envelopeText(code: number, message: string, data: unknown = null): string {
	return toJsonText({ code, message, data });
}

/**
 * S3's naming rules for general purpose buckets, as AWS documents them, checked before any
 * request. Each rule says what it wants without quoting the name: a secret pasted into Bucket
 * must not come back in a message.
 *
 * With Force Path Style on, the name is a path segment rather than part of a host name, and two
 * relaxations are allowed: upper-case letters and underscores. MinIO's relaxed names, Ceph's and
 * the old us-east-1 buckets use them, and they work only path style (a host name is lower case:
 * `Listing.host` would reach the bucket `listing`, and `_` is no host name character). Every
 * other rule holds either way: MinIO itself caps names at 63 characters, and two dots, an
 * IP-shaped name or AWS's reserved prefixes and suffixes are refused by S3 itself.
 */

const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
/** Access point and Object Lambda aliases, Multi-Region Access Points, directory and table buckets. */
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

const STRICT_CHARACTERS = /^[a-z0-9.-]*$/;
const RELAXED_CHARACTERS = /^[A-Za-z0-9._-]*$/;

function characterProblem(name: string, pathStyle: boolean): string | undefined {
	if (STRICT_CHARACTERS.test(name)) return undefined;
	const pathStyleOnly = RELAXED_CHARACTERS.test(name);
	if (pathStyleOnly && pathStyle) return undefined;
	if (pathStyleOnly) {
		const what = [/[A-Z]/.test(name) && 'upper-case letters', name.includes('_') && 'underscores']
			.filter(Boolean)
			.join(' and ');
		return `it has ${what}, which S3 does not allow in bucket names; MinIO and older stores accept them with Force Path Style on only`;
	}
	return `it has a character other than ${pathStyle ? 'letters' : 'lower-case letters'}, digits, dots, hyphens${pathStyle ? ' and underscores' : ''} (a space, a slash, a colon or the like)`;
}

/**
 * What is wrong with a bucket name, as the rule it breaks, or undefined when S3 (or, path style,
 * MinIO) accepts it.
 */
export function bucketNameProblem(name: string, pathStyle: boolean): string | undefined {
	if (name === '') return 'it is empty';
	if (name.length < 3 || name.length > 63) {
		return `it has ${name.length} characters, and a bucket name has 3 to 63`;
	}
	const characters = characterProblem(name, pathStyle);
	if (characters) return characters;
	if (!/^[A-Za-z0-9]/.test(name) || !/[A-Za-z0-9]$/.test(name)) {
		return 'it must begin and end with a letter or a digit';
	}
	if (name.includes('..')) return 'it has two dots in a row';
	if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return 'it is shaped like an IP address';
	const lower = name.toLowerCase();
	const prefix = RESERVED_PREFIXES.find((reserved) => lower.startsWith(reserved));
	if (prefix) return `it begins with "${prefix}", which AWS keeps for itself`;
	const suffix = RESERVED_SUFFIXES.find((reserved) => lower.endsWith(reserved));
	if (suffix)
		return `it ends with "${suffix}", which AWS keeps for access points and other bucket kinds`;
	return undefined;
}

// Which hosts a result download may reach: a hostile service must not make n8n fetch from its own
// network (cloud metadata, admin pages, databases) and hand the answer back as a file. Only the
// address as written is judged: node code cannot resolve names.

function ipv4Parts(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((part) => part <= 255) ? parts : undefined;
}

function isLocalIpv4([a, b]: number[]): boolean {
	return (
		a === 0 ||
		a === 10 ||
		a === 127 ||
		(a === 100 && b >= 64 && b <= 127) ||
		(a === 169 && b === 254) ||
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		(a === 198 && (b === 18 || b === 19)) ||
		a >= 224
	);
}

/** Expands an IPv6 text (as the URL parser writes it, without brackets) into 8 numbers. */
function ipv6Groups(host: string): number[] | undefined {
	if (!host.includes(':')) return undefined;
	const halves = host.split('::');
	if (halves.length > 2) return undefined;
	const side = (text: string) => (text === '' ? [] : text.split(':'));
	const head = side(halves[0]);
	const tail = halves.length === 2 ? side(halves[1]) : [];
	const groups = [
		...head,
		...Array<string>(halves.length === 2 ? 8 - head.length - tail.length : 0).fill('0'),
		...tail,
	];
	if (groups.length !== 8 || !groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group)))
		return undefined;
	return groups.map((group) => parseInt(group, 16));
}

function isLocalIpv6(groups: number[]): boolean {
	const [first] = groups;
	const allZeroUpTo = (n: number) => groups.slice(0, n).every((group) => group === 0);
	if (allZeroUpTo(7) && (groups[7] === 0 || groups[7] === 1)) return true; // :: and ::1
	if ((first & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
	if ((first & 0xffc0) === 0xfe80) return true; // link local fe80::/10
	if ((first & 0xff00) === 0xff00) return true; // multicast
	// IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
	const mapped = allZeroUpTo(5) && groups[5] === 0xffff;
	const nat64 =
		first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
	if (mapped || nat64) {
		return isLocalIpv4([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff]);
	}
	return false;
}

/** A hostname as the address checks read it: lower case, without brackets or a final dot. */
function bareHost(hostname: string): string {
	return hostname
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
}

/** Whether a URL's hostname (as `new URL()` normalises it) points into a local network. */
export function isLocalHost(hostname: string): boolean {
	const host = bareHost(hostname);
	const v4 = ipv4Parts(host);
	if (v4) return isLocalIpv4(v4);
	const v6 = ipv6Groups(host);
	if (v6) return isLocalIpv6(v6);
	return (
		!host.includes('.') ||
		host === 'localhost' ||
		/\.(localhost|local|internal|lan|home\.arpa)$/.test(host)
	);
}

/** This machine: `localhost`, 127/8, ::1; not `*.localhost`, which a resolver may send anywhere. */
export function isLoopbackHost(hostname: string): boolean {
	const host = bareHost(hostname);
	if (host === 'localhost') return true;
	const v4 = ipv4Parts(host);
	if (v4) return v4[0] === 127;
	const v6 = ipv6Groups(host);
	return v6 !== undefined && v6.slice(0, 7).every((group) => group === 0) && v6[7] === 1;
}

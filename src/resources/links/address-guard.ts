import ipaddr from 'ipaddr.js';

/**
 * Which addresses a link check may connect to. Only ordinary global unicast passes: everything
 * else is somewhere a creator-supplied URL must not make this server reach (server-side request
 * forgery). The ranges are ipaddr.js's tables, kept up to date with the IANA special-purpose
 * registries, rather than masks of our own.
 */
export type AddressVerdict = { allowed: true } | { allowed: false; range: string; reason: string };

/** Cloud instance metadata services: named apart so the refusal says what it protects. */
const metadataAddresses = new Set(
  ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '192.0.0.192'].map((a) => ipaddr.parse(a).toString()),
);

/** Deprecated IPv4-compatible IPv6 (::a.b.c.d): ipaddr.js calls it unicast, but it embeds IPv4. */
const ipv4Compatible = ipaddr.parseCIDR('::/96');

const reasons: Record<string, string> = {
  metadata: 'a cloud metadata address',
  loopback: 'a loopback address (this machine)',
  private: 'a private network address (RFC 1918)',
  carrierGradeNat: 'a shared carrier-grade NAT address (RFC 6598)',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local (private) IPv6 address',
  deprecatedSiteLocal: 'a site-local (private) IPv6 address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved, documentation or benchmarking address',
  benchmarking: 'a benchmarking address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  invalid: 'not an IP address',
};

function refuse(range: string): AddressVerdict {
  return { allowed: false, range, reason: reasons[range] ?? `a special-purpose address (${range})` };
}

/**
 * IPv6 text in the WHATWG URL serialisation (hex only). ipaddr.js reads a dotted tail such as
 * `::8.8.8.8` as IPv4-mapped (::ffff:8.8.8.8) although it is the IPv4-compatible ::808:808, a
 * different address; the URL parser reads it as the socket will. A zone id (`%eth0`) stays as is.
 */
function canonicalIPv6(address: string): string {
  if (!address.includes(':') || address.includes('%')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** The verdict on one IP address (v4 or v6, as a resolver or a URL gives it). */
export function classifyAddress(address: string): AddressVerdict {
  const text = canonicalIPv6(address);
  if (!ipaddr.isValid(text)) return refuse('invalid');
  let ip = ipaddr.parse(text);
  // An IPv4-mapped IPv6 address reaches the IPv4 address inside it: judge that one.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (metadataAddresses.has(ip.toString())) return refuse('metadata');
  if (ip.kind() === 'ipv6' && ip.match(ipv4Compatible)) {
    // ::1 and :: sit inside ::/96; keep their own names.
    const range = ip.range();
    return refuse(range === 'unicast' ? 'ipv4Compatible' : range);
  }
  const range = ip.range();
  return range === 'unicast' ? { allowed: true } : refuse(range);
}

/** The refusal sentence for an address, as the link report shows it. */
export function addressRefusal(address: string, reason: string): string {
  return `${address} is ${reason}; links there are not checked.`;
}

/**
 * The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking), plus 0.
 * Browsers refuse them, so a reader could not open such a link anyway, and sending HTTP to a mail
 * or chat server's port is how a link check gets abused for cross-protocol attacks. Every other
 * port is allowed on a public address: the address guard, not the port, is what keeps a check
 * away from this server's own networks.
 */
const refusedPorts = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The port a URL reaches, its scheme's default when it names none. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Why a URL is refused before any name is resolved, or null when it may be fetched: only http and
 * https, no credentials (a check must not send them anywhere), no port browsers refuse.
 */
export function urlRefusal(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https links are checked.';
  if (url.username !== '' || url.password !== '') return 'Links with a user name or password are not checked.';
  const port = portOf(url);
  if (refusedPorts.has(port)) return `Port ${port} is one browsers refuse to open; the link is not checked.`;
  return null;
}

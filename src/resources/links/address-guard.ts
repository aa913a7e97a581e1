import ipaddr from 'ipaddr.js';

/**
 * Which addresses a link check may connect to: ordinary global unicast only. Everything else is
 * somewhere a creator-supplied URL must not make this server reach (server-side request forgery).
 */
export type AddressVerdict = { allowed: true } | { allowed: false; range: string; reason: string };

export interface SpecialRange {
  /** The block, as the registry writes it. */
  cidr: string;
  /** What the refusal calls it (the link report shows `range`). */
  range: string;
  reason: string;
}

/**
 * Every block of the IANA IPv4 and IPv6 Special-Purpose Address Registries (and multicast), and the
 * cloud metadata addresses, refused whether or not the registry calls it globally reachable: no
 * guide links to a website there. Read top down, the first block holding an address names it, so
 * single addresses come before the blocks around them. IPv6 outside 2000::/3 (global unicast) is
 * refused after the table, whatever IANA assigns there next.
 */
export const specialRanges: readonly SpecialRange[] = [
  // Cloud instance metadata services: named apart so the refusal says what it protects.
  { cidr: '169.254.169.254/32', range: 'metadata', reason: 'a cloud metadata address (AWS, GCP, Azure, OpenStack)' },
  { cidr: '169.254.170.2/32', range: 'metadata', reason: 'a cloud metadata address (AWS ECS task metadata)' },
  { cidr: '168.63.129.16/32', range: 'metadata', reason: "a cloud metadata address (Azure's platform endpoint)" },
  { cidr: '100.100.100.200/32', range: 'metadata', reason: 'a cloud metadata address (Alibaba Cloud)' },
  { cidr: '192.0.0.192/32', range: 'metadata', reason: 'a cloud metadata address (Oracle Cloud)' },
  { cidr: 'fd00:ec2::254/128', range: 'metadata', reason: 'a cloud metadata address (AWS over IPv6)' },
  // IPv4 (RFC 6890 and its updates).
  { cidr: '0.0.0.0/8', range: 'unspecified', reason: 'an address of "this network" (0.0.0.0/8)' },
  { cidr: '10.0.0.0/8', range: 'private', reason: 'a private network address (RFC 1918)' },
  { cidr: '100.64.0.0/10', range: 'carrierGradeNat', reason: 'a shared carrier-grade NAT address (RFC 6598)' },
  { cidr: '127.0.0.0/8', range: 'loopback', reason: 'a loopback address (this machine)' },
  { cidr: '169.254.0.0/16', range: 'linkLocal', reason: 'a link-local address' },
  { cidr: '172.16.0.0/12', range: 'private', reason: 'a private network address (RFC 1918)' },
  { cidr: '192.0.0.0/24', range: 'ietfProtocol', reason: 'an IETF protocol assignment (192.0.0.0/24)' },
  { cidr: '192.0.2.0/24', range: 'reserved', reason: 'a documentation address (TEST-NET-1)' },
  { cidr: '192.31.196.0/24', range: 'as112', reason: 'an AS112 DNS sink address' },
  { cidr: '192.52.193.0/24', range: 'amt', reason: 'an AMT multicast tunnelling address' },
  { cidr: '192.88.99.0/24', range: '6to4Relay', reason: 'a 6to4 relay anycast address (deprecated)' },
  { cidr: '192.168.0.0/16', range: 'private', reason: 'a private network address (RFC 1918)' },
  { cidr: '192.175.48.0/24', range: 'as112', reason: 'an AS112 DNS sink address' },
  { cidr: '198.18.0.0/15', range: 'reserved', reason: 'a benchmarking address (RFC 2544)' },
  { cidr: '198.51.100.0/24', range: 'reserved', reason: 'a documentation address (TEST-NET-2)' },
  { cidr: '203.0.113.0/24', range: 'reserved', reason: 'a documentation address (TEST-NET-3)' },
  { cidr: '224.0.0.0/4', range: 'multicast', reason: 'a multicast address' },
  { cidr: '255.255.255.255/32', range: 'broadcast', reason: 'the broadcast address' },
  { cidr: '240.0.0.0/4', range: 'reserved', reason: 'a reserved address (240.0.0.0/4)' },
  // IPv6 (RFC 6890 and its updates).
  { cidr: '::/128', range: 'unspecified', reason: 'the unspecified address' },
  { cidr: '::1/128', range: 'loopback', reason: 'a loopback address (this machine)' },
  { cidr: '::/96', range: 'ipv4Compatible', reason: 'an IPv4-compatible IPv6 address (deprecated)' },
  { cidr: '64:ff9b::/96', range: 'rfc6052', reason: 'an IPv4/IPv6 translation address (NAT64)' },
  { cidr: '64:ff9b:1::/48', range: 'rfc6052', reason: 'a local-use IPv4/IPv6 translation address' },
  { cidr: '100::/64', range: 'discard', reason: 'a discard-only address' },
  { cidr: '100:0:0:1::/64', range: 'discard', reason: 'a dummy IPv6 prefix address' },
  { cidr: '2001::/32', range: 'teredo', reason: 'a Teredo tunnelling address' },
  { cidr: '2001:2::/48', range: 'benchmarking', reason: 'a benchmarking address' },
  { cidr: '2001::/23', range: 'ietfProtocol', reason: 'an IETF protocol assignment (2001::/23)' },
  { cidr: '2001:db8::/32', range: 'reserved', reason: 'a documentation address' },
  { cidr: '2002::/16', range: '6to4', reason: 'a 6to4 address' },
  { cidr: '2620:4f:8000::/48', range: 'as112', reason: 'an AS112 DNS sink address' },
  { cidr: '3fff::/20', range: 'reserved', reason: 'a documentation address' },
  { cidr: '5f00::/16', range: 'srv6', reason: 'a segment routing (SRv6) address' },
  { cidr: 'fc00::/7', range: 'uniqueLocal', reason: 'a unique-local (private) IPv6 address' },
  { cidr: 'fe80::/10', range: 'linkLocal', reason: 'a link-local address' },
  { cidr: 'fec0::/10', range: 'deprecatedSiteLocal', reason: 'a site-local (private) IPv6 address' },
  { cidr: 'ff00::/8', range: 'multicast', reason: 'a multicast address' },
];

const parsedRanges = specialRanges.map((row) => ({ ...row, block: ipaddr.parseCIDR(row.cidr) }));
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');

function refuse(range: string, reason: string): AddressVerdict {
  return { allowed: false, range, reason };
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
  if (!ipaddr.isValid(text)) return refuse('invalid', 'not an IP address');
  let ip = ipaddr.parse(text);
  // An IPv4-mapped IPv6 address reaches the IPv4 address inside it: judge that one.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  for (const row of parsedRanges) {
    if (ip.kind() === row.block[0].kind() && ip.match(row.block)) return refuse(row.range, row.reason);
  }
  if (ip.kind() === 'ipv6' && !ip.match(globalUnicastV6)) {
    return refuse('reserved', 'an IPv6 address outside global unicast (2000::/3)');
  }
  return { allowed: true };
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

import { BlockList, isIP } from 'node:net';

/** What kind of host an IP address is, as far as sending a webhook to it goes. */
export type AddressScope = 'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved' | 'invalid';

/** `live` deliveries go to the internet only; `sandbox` ones may also reach this machine, for local development. */
export type DeliveryMode = 'live' | 'sandbox';

/** One family's subnets; BlockList matches an IPv4 address against IPv6 subnets too (as ::ffff:a.b.c.d), so the families stay apart. */
function blockList(subnets: string[], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [network, prefix] = subnet.split('/');
    list.addSubnet(network, Number(prefix), type);
  }
  return list;
}

/** Each scope's subnets for IPv4 and IPv6. */
const RANGES: [AddressScope, string[], string[]][] = [
  // First: the metadata addresses lie inside the link-local and private ranges.
  ['metadata', ['169.254.169.254/32'], ['fd00:ec2::254/128']],
  ['unspecified', ['0.0.0.0/8'], ['::/128']],
  ['loopback', ['127.0.0.0/8'], ['::1/128']],
  ['link_local', ['169.254.0.0/16'], ['fe80::/10']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7']],
  ['multicast', ['224.0.0.0/4'], ['ff00::/8']],
  [
    'reserved',
    ['192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4'],
    // Only 2000::/3 is global unicast, and within it the protocol-assignment and documentation blocks are not.
    ['::/3', '4000::/2', '8000::/1', '2001::/23', '2001:db8::/32', '3fff::/20'],
  ],
];

const SCOPES = {
  ipv4: RANGES.map(([scope, ipv4]) => [scope, blockList(ipv4, 'ipv4')] as const),
  ipv6: RANGES.map(([scope, , ipv6]) => [scope, blockList(ipv6, 'ipv6')] as const),
};

/** The eight 16-bit groups of an IPv6 address. */
function ipv6Groups(address: string): number[] {
  // The URL parser accepts every IPv6 form and writes it back as hex groups with at most one '::'.
  const [head, tail] = new URL(`http://[${address}]/`).hostname.slice(1, -1).split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The IPv4 address an IPv6 one stands for: IPv4-mapped (::ffff:a.b.c.d) reaches it directly, and
 * the NAT64 prefix (64:ff9b::a.b.c.d) through a gateway, so both are judged as that IPv4 address.
 */
function embeddedIPv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const mapped = zeros(0, 5) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6);
  return mapped || nat64 ? [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.') : undefined;
}

/** The scope of an IPv4 or IPv6 address literal (an IPv6 zone, `%eth0`, is ignored); `invalid` for anything else. */
export function addressScope(address: string): AddressScope {
  const bare = address.replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 0) return 'invalid';
  if (version === 6) {
    const ipv4 = embeddedIPv4(bare);
    if (ipv4 !== undefined) return addressScope(ipv4);
  }
  const type = version === 4 ? 'ipv4' : 'ipv6';
  return SCOPES[type].find(([, list]) => list.check(bare, type))?.[0] ?? 'public';
}

const ALLOWED: Record<DeliveryMode, readonly AddressScope[]> = { live: ['public'], sandbox: ['public', 'loopback'] };

const DESCRIPTIONS: Record<AddressScope, string> = {
  public: 'public',
  loopback: 'loopback',
  private: 'private',
  link_local: 'link-local',
  metadata: 'a cloud metadata endpoint',
  unspecified: 'unspecified',
  multicast: 'multicast',
  reserved: 'reserved',
  invalid: 'not an IP address',
};

/** Why a delivery in this mode may not connect to the address, e.g. `address 10.0.0.1 is private`; undefined when it may. */
export function addressRefusal(address: string, mode: DeliveryMode): string | undefined {
  const scope = addressScope(address);
  return ALLOWED[mode].includes(scope) ? undefined : `address ${address} is ${DESCRIPTIONS[scope]}`;
}

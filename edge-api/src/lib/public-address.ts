/**
 * Whether an address is on the public internet (decision 174): a webhook is never posted to this server's
 * own machine, its network or a cloud's metadata service. Refused: unspecified, loopback, private (RFC
 * 1918), shared (100.64/10), link-local, unique-local (fc00::/7), multicast, documentation and reserved
 * ranges, and Teredo (2001::/32, whose IPv4 end is hidden); an IPv4 address inside IPv6 (::ffff:a.b.c.d,
 * 64:ff9b::/96 NAT64, 2002::/16 6to4) is judged as that IPv4 address.
 */

const V4_BLOCKED: [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8 private
  [0x64400000, 10], // 100.64/10 shared (carrier NAT)
  [0x7f000000, 8], // 127/8 loopback
  [0xa9fe0000, 16], // 169.254/16 link-local (and cloud metadata)
  [0xac100000, 12], // 172.16/12 private
  [0xc0000000, 24], // 192.0.0/24 protocol assignments
  [0xc0000200, 24], // 192.0.2/24 documentation
  [0xc0a80000, 16], // 192.168/16 private
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // 198.51.100/24 documentation
  [0xcb007100, 24], // 203.0.113/24 documentation
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, and the broadcast address
];

function parseV4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const publicV4 = (n: number) => !V4_BLOCKED.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function parseV6(text: string): number[] | undefined {
  let address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = address.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const n = parseV4(v4[2]!);
    if (n === undefined) return undefined;
    address = `${v4[1]}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const all = [...head, ...Array<string>(Math.max(fill, 0)).fill('0'), ...tail];
  if (all.length !== 8 || fill < 0 || (halves.length === 2 && fill === 0 && head.length + tail.length === 8)) return undefined;
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

function publicV6(g: number[]): boolean {
  const embedded = (hi: number, lo: number) => publicV4(hi * 65536 + lo);
  if (g.slice(0, 6).every((x) => x === 0)) return false; // ::, ::1 and the old IPv4-compatible form
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return embedded(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!); // NAT64
  const first = g[0]!;
  if (first === 0x2002) return embedded(g[1]!, g[2]!); // 6to4: 2002:a.b.c.d::/48 reaches that IPv4 address
  if (first === 0x2001 && g[1] === 0) return false; // 2001::/32 Teredo: tunnels to an IPv4 address it hides
  if ((first & 0xfe00) === 0xfc00) return false; // fc00::/7 unique-local
  if ((first & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return false; // fec0::/10 old site-local
  if ((first & 0xff00) === 0xff00) return false; // ff00::/8 multicast
  if (first === 0x2001 && g[1] === 0x0db8) return false; // 2001:db8::/32 documentation
  if (first === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return false; // 100::/64 discard
  return (first & 0xe000) === 0x2000; // only global unicast (2000::/3) is public
}

/** Whether `address` (IPv4 or IPv6 text) is a public address; anything that is not an address is not. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseV4(address);
  if (v4 !== undefined) return publicV4(v4);
  const v6 = parseV6(address);
  return v6 !== undefined && publicV6(v6);
}

/** An IP literal as a URL's hostname holds it ([::1] for IPv6), or undefined for a name. */
export const ipLiteral = (hostname: string): string | undefined => {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return parseV4(bare) !== undefined || parseV6(bare) !== undefined ? bare : undefined;
};

/** Every address a name resolves to (Node's resolver; on Workers the runtime's node:dns). */
export async function resolveAddresses(hostname: string): Promise<string[]> {
  const literal = ipLiteral(hostname);
  if (literal) return [literal];
  const dns = await import('node:dns');
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/** '::ffff:192.0.2.1' (an IPv4 caller on a dual-stack socket) is 192.0.2.1. */
const normalize = (address: string) => address.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/**
 * The caller's address for the rate limits: the socket's peer, unless that peer is one of the
 * `trustedProxies` (TRUSTED_PROXIES), in which case X-Forwarded-For is read from the right, skipping
 * trusted hops: the first address a trusted proxy vouches for. A forwarded header from anyone else is
 * ignored, so no caller picks its own address.
 */
export function clientIpFrom(remote: string | undefined, forwardedFor: string | undefined, trustedProxies: readonly string[]): string {
  let address = normalize(remote ?? 'unknown');
  const trusted = new Set(trustedProxies.map(normalize));
  if (!trusted.has(address) || !forwardedFor) return address;
  const hops = forwardedFor.split(',').map(normalize).filter(Boolean);
  while (hops.length > 0) {
    const hop = hops.pop()!;
    if (!trusted.has(hop)) return hop;
    address = hop;
  }
  return address;
}

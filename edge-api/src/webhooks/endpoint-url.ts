import { isPublicAddress, resolveAddresses } from '../lib/public-address.ts';

/**
 * Why an endpoint URL is refused, or null when it may be posted to (decision 174): https only, no
 * credentials in it, and every address its host resolves to public. `allowHosts` (WEBHOOK_TEST_HOSTS, empty
 * unless set) names hosts taken as they are, on http too: a receiver on this machine in tests.
 */
export async function endpointProblem(url: string, allowHosts: readonly string[]): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a URL';
  }
  if (parsed.username || parsed.password) return 'must not hold a user name or password';
  const allowed = allowHosts.includes(parsed.hostname.toLowerCase());
  if (parsed.protocol !== 'https:' && !(allowed && parsed.protocol === 'http:')) return 'must be an https:// URL';
  if (allowed) return null;
  let addresses: string[];
  try {
    addresses = await resolveAddresses(parsed.hostname);
  } catch {
    return `its host ${parsed.hostname} cannot be resolved`;
  }
  if (addresses.length === 0) return `its host ${parsed.hostname} cannot be resolved`;
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused) return `must be on the public internet: ${parsed.hostname} is ${refused}, a private, loopback, link-local or reserved address`;
  return null;
}

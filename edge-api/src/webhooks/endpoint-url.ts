import { ipLiteral, isPublicAddress } from '../lib/public-address.ts';
import { platformNetwork, type WebhookNetwork } from './network.ts';

/**
 * An endpoint URL judged: where it may be posted to (`addresses`: what its host resolved to, every one of
 * them checked), or why not. `final` says the refusal stands however often it is tried again (an inward
 * address, a wrong scheme); a name that does not resolve now may later.
 */
export type CheckedEndpoint = { ok: true; url: URL; addresses: string[] } | { ok: false; problem: string; final: boolean };

const refused = (problem: string, final = true): CheckedEndpoint => ({ ok: false, problem, final });

/**
 * Judges an endpoint URL (decisions 174 and 243): https only, no credentials in it, and every address its
 * host resolves to public. `allowHosts` (WEBHOOK_TEST_HOSTS, empty unless set) names hosts taken as they
 * are, on http too: a receiver on this machine in tests. A pinned network resolves those too, to connect to
 * what it resolved; the platform's fetch resolves them itself.
 */
export async function checkEndpoint(url: string, allowHosts: readonly string[], network: WebhookNetwork = platformNetwork): Promise<CheckedEndpoint> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refused('must be a URL');
  }
  if (parsed.username || parsed.password) return refused('must not hold a user name or password');
  const host = parsed.hostname.toLowerCase();
  const allowed = allowHosts.includes(host);
  if (parsed.protocol !== 'https:' && !(allowed && parsed.protocol === 'http:')) return refused('must be an https:// URL');
  if (allowed && !network.pinned) return { ok: true, url: parsed, addresses: [] };
  let addresses: string[];
  try {
    const literal = ipLiteral(host);
    addresses = literal ? [literal] : await network.resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return refused(`its host ${parsed.hostname} cannot be resolved`, false);
  const inward = allowed ? undefined : addresses.find((address) => !isPublicAddress(address));
  if (inward) return refused(`must be on the public internet: ${parsed.hostname} is ${inward}, a private, loopback, link-local or reserved address`);
  return { ok: true, url: parsed, addresses };
}

/** Why an endpoint URL is refused, or null when it may be posted to: the check at registration. */
export async function endpointProblem(url: string, allowHosts: readonly string[], network?: WebhookNetwork): Promise<string | null> {
  const checked = await checkEndpoint(url, allowHosts, network);
  return checked.ok ? null : checked.problem;
}

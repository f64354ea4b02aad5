import { afterEach } from 'vitest';

/**
 * A setup file of every vitest project (issue 34 item 5): the tests reach no network outside their own
 * servers. A request through the real `fetch` to a host that is not this machine, or to the page's own
 * origin in the PWA's simulated browser (http://localhost:3000, where no test serves anything), is refused
 * as a network error and fails the test that made it, even if the code under test caught the error.
 * A test stubs `fetch` (vi.stubGlobal, fetchFromApp) or starts its own server on a free port instead.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Why a request may not leave the test, or undefined when it may (exported for its own test). */
export function refusal(url: URL, pageOrigin: string | undefined): string | undefined {
  if (url.protocol === 'data:' || url.protocol === 'blob:') return undefined;
  if (!LOOPBACK.has(url.hostname)) return `${url.origin} is not this machine`;
  if (pageOrigin && url.origin === pageOrigin) return `${url.origin} is the simulated page's origin, which no test serves`;
  return undefined;
}

const refused: string[] = [];
const realFetch = globalThis.fetch;
const pageOrigin = typeof window === 'undefined' ? undefined : window.location.origin;

globalThis.fetch = async function guardedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const href = input instanceof Request ? input.url : String(input);
  const url = new URL(href, pageOrigin ?? 'http://localhost/');
  const why = refusal(url, pageOrigin);
  if (why) {
    refused.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.href}: ${why}`);
    throw new TypeError(`Failed to fetch: the tests reach no network (${why}); stub fetch or start a server of the test's own`);
  }
  return realFetch(input, init);
};

/** The requests refused since the last call, forgotten: a test of the guard itself takes them. */
export const takeRefusals = (): string[] => refused.splice(0);

afterEach(() => {
  const lines = takeRefusals();
  if (lines.length === 0) return;
  throw new Error(`This test made ${lines.length} request(s) outside its own servers:\n${lines.join('\n')}`);
});

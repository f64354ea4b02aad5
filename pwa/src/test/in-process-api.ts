import { vi } from 'vitest';
import type { ApiHarness } from '../../../edge-api/src/testing/api-harness.ts';

/**
 * Sends the app's own fetches (its API client, image uploads) to the real API app in-process.
 * `unreachable(url)` makes a request fail as it does with no network.
 */
export function fetchFromApp(api: () => ApiHarness, unreachable: (url: URL) => boolean = () => false): void {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost/');
    if (unreachable(url)) throw new TypeError('Failed to fetch');
    return api().app.request(new Request(url, init));
  });
}

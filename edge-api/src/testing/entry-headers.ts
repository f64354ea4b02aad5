import { expect } from 'vitest';
import { IMMUTABLE, REVALIDATE, securityHeaders } from '../lib/http-headers.ts';

/**
 * What both entries must answer alike (lib/http-headers.ts): the security headers everywhere, the API
 * never cached, hashed assets immutable, the rest of the app revalidated, no source map or build file
 * public, and a hashed asset that is not there a 404 rather than the app shell.
 */
export async function expectEntryHeaders(baseUrl: string, files: { hashedAsset: string; sourceMap: string }) {
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl}${path}`, { headers });
  // The app's own files (pages, sw.js, hashed assets) carry the page policy of the entry's configuration
  // (decision 164: on Workers the build's _headers); answers that are no file, the strict one.
  const expectSecurity = (response: Response, what: string, page = false) => {
    for (const [name, value] of Object.entries(securityHeaders)) {
      if (page && name === 'Content-Security-Policy') continue;
      expect(response.headers.get(name), `${name} on ${what}`).toBe(value);
    }
  };

  const api = await get('/api/config');
  expect(api.status).toBe(200);
  expectSecurity(api, 'an API answer');
  expect(api.headers.get('cache-control')).toBe('no-store');
  // The public list is cacheable with revalidation (decision 166): a tag, and a 304 for it.
  const list = await get('/api/services');
  expect(list.headers.get('cache-control')).toBe('public, max-age=5, must-revalidate');
  expect((await get('/api/services', { 'if-none-match': list.headers.get('etag')! })).status).toBe(304);
  const missingApi = await get('/api/no-such-thing');
  expect(missingApi.status).toBe(404);
  expectSecurity(missingApi, 'an API error');

  for (const path of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/services']) {
    const response = await get(path, { 'sec-fetch-mode': 'navigate' });
    expect(response.status, path).toBe(200);
    expectSecurity(response, path, true);
    expect(response.headers.get('cache-control'), path).toBe(REVALIDATE);
    // Every page: a CSP whose scripts come from this origin only, never inline, and whose connections
    // and images go to named hosts, never to any host of a scheme (decision 164).
    const directives = (response.headers.get('content-security-policy') ?? '').split(';').map((directive) => directive.trim());
    expect(directives, path).toContain("script-src 'self'");
    for (const directive of directives.filter((text) => /^(?:connect|img)-src /.test(text))) {
      expect(directive.split(' ').slice(1), `${path}: ${directive}`).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^https?:$|^https?:\/\/[^/]*\*/)]),
      );
    }
  }
  const hashed = await get(files.hashedAsset);
  expect(hashed.status).toBe(200);
  expectSecurity(hashed, 'a hashed asset', true);
  expect(hashed.headers.get('cache-control')).toBe(IMMUTABLE);

  for (const path of [files.sourceMap, '/assets/app-does-not-exist.js']) {
    const response = await get(path);
    expect(response.status, path).toBe(404);
    expect(response.headers.get('cache-control'), path).not.toContain('immutable');
    expect(await response.text(), path).not.toMatch(/"sources"|<!doctype html>/i);
  }
}

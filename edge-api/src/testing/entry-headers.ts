import { expect } from 'vitest';
import { IMMUTABLE, REVALIDATE, securityHeaders } from '../lib/http-headers.ts';

/**
 * What both entries must answer alike (lib/http-headers.ts): the security headers everywhere, the API
 * never cached, hashed assets immutable, the rest of the app revalidated, no source map or build file
 * public, and a hashed asset that is not there a 404 rather than the app shell.
 */
export async function expectEntryHeaders(baseUrl: string, files: { hashedAsset: string; sourceMap: string }) {
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl}${path}`, { headers });
  const expectSecurity = (response: Response, what: string) => {
    for (const [name, value] of Object.entries(securityHeaders)) expect(response.headers.get(name), `${name} on ${what}`).toBe(value);
  };

  const api = await get('/api/services');
  expect(api.status).toBe(200);
  expectSecurity(api, 'an API answer');
  expect(api.headers.get('cache-control')).toBe('no-store');
  const missingApi = await get('/api/no-such-thing');
  expect(missingApi.status).toBe(404);
  expectSecurity(missingApi, 'an API error');

  for (const path of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/services']) {
    const response = await get(path, { 'sec-fetch-mode': 'navigate' });
    expect(response.status, path).toBe(200);
    expectSecurity(response, path);
    expect(response.headers.get('cache-control'), path).toBe(REVALIDATE);
    // Every page: a CSP whose scripts come from this origin only, never inline.
    const scripts = response.headers.get('content-security-policy')?.split(';').find((directive) => directive.trim().startsWith('script-src'));
    expect(scripts?.trim(), path).toBe("script-src 'self'");
  }
  const hashed = await get(files.hashedAsset);
  expect(hashed.status).toBe(200);
  expectSecurity(hashed, 'a hashed asset');
  expect(hashed.headers.get('cache-control')).toBe(IMMUTABLE);

  for (const path of [files.sourceMap, '/assets/app-does-not-exist.js']) {
    const response = await get(path);
    expect(response.status, path).toBe(404);
    expect(response.headers.get('cache-control'), path).not.toContain('immutable');
    expect(await response.text(), path).not.toMatch(/"sources"|<!doctype html>/i);
  }
}

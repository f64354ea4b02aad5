import { expect } from 'vitest';
import { migrationNames } from '../db/migration-names.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What an operator relies on from either entry (issue 28): /healthz, /readyz, and X-Request-Id on every answer. */
export async function expectOperatorSignals(baseUrl: string): Promise<void> {
  const health = await fetch(`${baseUrl}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  expect(health.headers.get('cache-control')).toBe('no-store');
  expect(health.headers.get('x-request-id')).toMatch(UUID);

  const ready = await fetch(`${baseUrl}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ready', migrations: migrationNames().length });

  // An id a proxy passed on is kept, in the answer and in an error's body; one that is not well formed is replaced.
  const traced = await fetch(`${baseUrl}/api/services/not-an-id`, { headers: { 'x-request-id': 'edge-7f3a9c21' } });
  expect(traced.status).toBe(400);
  expect(traced.headers.get('x-request-id')).toBe('edge-7f3a9c21');
  expect(((await traced.json()) as { error: { requestId?: string } }).error.requestId).toBe('edge-7f3a9c21');
  const forged = await fetch(`${baseUrl}/api/services`, { headers: { 'x-request-id': 'a b<script>' } });
  expect(forged.headers.get('x-request-id')).toMatch(UUID);
  // The app's own pages carry one too.
  expect((await fetch(`${baseUrl}/about`)).headers.get('x-request-id')).toMatch(UUID);
}

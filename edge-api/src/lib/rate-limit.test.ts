import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { inProcessHarness } from '../testing/api-harness.ts';
import { ANON_KEY, freshEmail, startAuthServer, supabaseClient } from '../testing/auth-server.ts';
import { clockInNextWindow } from '../testing/limit-window.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { createFailureBackoff, createFixedWindowLimiter } from './rate-limit.ts';

// Decision 049: the limits are counted in the database, so two processes (or Workers isolates) on one
// database share them. Each "instance" below is a separate app or auth server built on the same database.
let db: Kysely<Database>;
let closeDb: () => Promise<void>;

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDatabase());
});
afterAll(() => closeDb?.());

describe('the shared store', () => {
  it('counts concurrent hits exactly: 50 at once against a limit of 20 let exactly 20 through', async () => {
    const clock = () => new Date('2026-11-24T05:00:00Z');
    const limiter = createFixedWindowLimiter({ db, name: 'test.burst', limit: 20, windowMs: 60_000, clock });
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('caller')));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    expect(results.find((r) => !r.allowed)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    // Each hit says how much of the window it found spent: 1 to 50, once each.
    expect(results.map((r) => r.used).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('two limiters on one database share a window, and a new window starts from zero', async () => {
    let now = Date.parse('2026-11-24T05:10:00Z');
    const clock = () => new Date(now);
    const first = createFixedWindowLimiter({ db, name: 'test.shared', limit: 3, windowMs: 60_000, clock });
    const second = createFixedWindowLimiter({ db, name: 'test.shared', limit: 3, windowMs: 60_000, clock });
    expect((await first.hit('k')).allowed).toBe(true);
    expect((await second.hit('k')).allowed).toBe(true);
    expect((await first.hit('k')).allowed).toBe(true);
    now += 15_000;
    expect(await second.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 45, used: 4 });
    expect((await second.hit('other key')).allowed).toBe(true);
    now += 45_000;
    expect((await second.hit('k')).allowed).toBe(true);
  });

  it('counts a hit of cost n as n requests, and a new window starts from that cost', async () => {
    let now = Date.parse('2026-11-24T05:30:00Z');
    const limiter = createFixedWindowLimiter({ db, name: 'test.cost', limit: 5, windowMs: 60_000, clock: () => new Date(now) });
    expect(await limiter.hit('k', 3)).toEqual({ allowed: true, used: 3 });
    expect(await limiter.hit('k', 2)).toEqual({ allowed: true, used: 5 });
    expect(await limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 60, used: 6 });
    now += 60_000;
    expect((await limiter.hit('k', 5)).allowed).toBe(true);
    expect((await limiter.hit('k')).allowed).toBe(false);
  });

  it('a backoff is shared too, and forgotten after a success or after forgetAfterMs', async () => {
    let now = Date.parse('2026-11-24T05:20:00Z');
    const make = () =>
      createFailureBackoff({
        db,
        name: 'test.backoff',
        freeFailures: 2,
        baseDelayMs: 10_000,
        maxDelayMs: 40_000,
        forgetAfterMs: 600_000,
        clock: () => new Date(now),
      });
    const [a, b] = [make(), make()];
    await a.fail('x');
    expect((await b.check('x')).allowed).toBe(true);
    await b.fail('x');
    expect(await a.check('x')).toEqual({ allowed: false, retryAfterSeconds: 10 });
    now += 10_000;
    await a.fail('x');
    expect(await b.check('x')).toEqual({ allowed: false, retryAfterSeconds: 20 });
    now += 20_000;
    await a.fail('x');
    now += 1_000;
    await a.fail('x');
    expect(await b.check('x')).toEqual({ allowed: false, retryAfterSeconds: 40 });
    await b.succeed('x');
    expect((await a.check('x')).allowed).toBe(true);
    await a.fail('y');
    await a.fail('y');
    now += 600_001;
    expect((await b.check('y')).allowed).toBe(true);
    await b.fail('y');
    expect((await a.check('y')).allowed).toBe(true);
  });
});

describe('two app instances on one database', () => {
  it('share the sign-in backoff of an account and address: 5 wrong passwords across two auth servers, the 6th on either is 429', async () => {
    const [one, two] = await Promise.all([startAuthServer(db), startAuthServer(db)]);
    try {
      const signIn = (server: typeof one, ip: string, email: string, password: string) =>
        fetch(`${server.url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { apikey: ANON_KEY, 'x-test-client-ip': ip, 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
      const email = freshEmail('shared');
      expect((await supabaseClient(one.url).auth.signUp({ email, password: 'correct horse' })).error).toBeNull();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await signIn(attempt % 2 ? two : one, '198.51.100.9', email, `guess ${attempt}`)).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400]);
      const refused = await signIn(two, '198.51.100.9', email, 'correct horse');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await signIn(one, '198.51.100.9', email, 'correct horse')).status).toBe(429);
      // From another address the owner still signs in (decision 161).
      expect((await signIn(one, '203.0.113.8', email, 'correct horse')).status).toBe(200);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('share the per-address sign-up limit', async () => {
    const limits = { signupPer5Min: 2 };
    // One instant for both servers: the three sign-ups must fall in one 5-minute window, whatever the time of day.
    const now = Date.now();
    const clock = () => new Date(now);
    const [one, two] = await Promise.all([startAuthServer(db, { rateLimits: limits, clock }), startAuthServer(db, { rateLimits: limits, clock })]);
    try {
      const ip = '192.0.2.77';
      expect((await supabaseClient(one.url, ANON_KEY, ip).auth.signUp({ email: freshEmail(), password: 'correct horse' })).error).toBeNull();
      expect((await supabaseClient(two.url, ANON_KEY, ip).auth.signUp({ email: freshEmail(), password: 'correct horse' })).error).toBeNull();
      const third = await supabaseClient(one.url, ANON_KEY, ip).auth.signUp({ email: freshEmail(), password: 'correct horse' });
      expect(third.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('share the per-user orders limit: 2 orders on one API and 1 on the other, then 429 on both', async () => {
    const shared = { db, close: async () => {} };
    const clock = clockInNextWindow(600_000);
    const [one, two] = await Promise.all([
      inProcessHarness({ rateLimits: { ordersPer10Min: 3 } }, shared, { clock }),
      inProcessHarness({ rateLimits: { ordersPer10Min: 3 } }, shared, { clock }),
    ]);
    try {
      const customer = await one.createUser('user');
      const onTwo = { ...customer, token: await two.tokenFor(customer.id, customer.email) };
      const place = (api: typeof one, user: typeof customer) =>
        api.call('POST', '/api/orders', { user, json: { id: crypto.randomUUID(), productId: crypto.randomUUID() } });
      const statuses = [(await place(one, customer)).status, (await place(one, customer)).status, (await place(two, onTwo)).status];
      expect(statuses).not.toContain(429);
      expect((await place(two, onTwo)).status).toBe(429);
      expect((await place(one, customer)).status).toBe(429);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('a limit of Infinity lets everything through without a row', async () => {
    const off = createFixedWindowLimiter({ db, name: 'test.off', limit: Number.POSITIVE_INFINITY, windowMs: 60_000, clock: () => new Date() });
    for (let i = 0; i < 5; i += 1) expect(await off.hit('k')).toEqual({ allowed: true });
    expect((await sql<{ key: string }>`select key from rate_limits where key like 'test.off:%'`.execute(db)).rows).toEqual([]);
  });

  it('keeps one row per limited key, and sweeps expired ones', async () => {
    const rows = await sql<{ key: string }>`select key from rate_limits where key like 'auth.account%'`.execute(db);
    expect(rows.rows.length).toBeGreaterThan(0);
    const clock = () => new Date('2030-01-01T00:00:00Z');
    const limiter = createFixedWindowLimiter({ db, name: 'test.sweep', limit: 1_000, windowMs: 1_000, clock });
    for (let i = 0; i < 500; i += 1) await limiter.hit(`k${i % 3}`);
    const left = await sql<{ n: string }>`select count(*) as n from rate_limits where expires_at < ${Date.parse('2030-01-01T00:00:00Z')}`.execute(db);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});

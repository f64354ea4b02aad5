import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_BODY_BYTES } from './request-guards.ts';
import { createApiHarness, inProcessHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { clockInNextWindow } from '../testing/limit-window.ts';

// Hostile input answered at the contract: a body over the limit, NUL characters and lone surrogates.
let api: ApiHarness;
let admin: TestUser;
let customer: TestUser;

beforeAll(async () => {
  api = await createApiHarness();
  [admin, customer] = await Promise.all([api.createUser('admin'), api.createUser('user')]);
});
afterAll(() => api.close());

const orderCount = async () =>
  Number(
    (
      await api.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the body limit', () => {
  it('refuses an order body over the limit with 413, by Content-Length and streamed, placing nothing', async () => {
    const before = await orderCount();
    const big = JSON.stringify({ id: crypto.randomUUID(), productId: crypto.randomUUID(), title: 'x'.repeat(MAX_JSON_BODY_BYTES) });
    const declared = await api.call('POST', '/api/orders', {
      user: customer,
      body: big,
      headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
    });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ error: { code: 'payload_too_large' } });
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 16 * 1024) controller.enqueue(bytes.subarray(at, at + 16 * 1024));
        controller.close();
      },
    });
    const streamed = await api.app.request('/api/orders', {
      method: 'POST',
      headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await orderCount()).toBe(before);
  });

  it('lets a body under the limit through to the route', async () => {
    const answer = await api.call('PUT', `/api/users/${customer.id}/role`, {
      user: admin,
      json: { userRole: 'user', version: 0, padding: 'x'.repeat(100_000) },
    });
    expect(answer.status).not.toBe(413);
  });
});

describe('NUL characters and unpaired surrogates', () => {
  const hostile = ['a\u0000b', 'lone \ud800 high', 'lone \udc00 low'];

  it.each(hostile)('answer 400 naming the field in a JSON body (%j), and change nothing', async (value) => {
    const account = await api.createAccount();
    const answer = await api.call('POST', '/api/users', {
      user: account.token,
      json: { uid: account.id, email: account.email, displayName: value, mobile: '01712345678' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'bad_request', details: [{ path: 'displayName' }] } });
    expect(await api.db.selectFrom('users').select('id').where('id', '=', account.id).executeTakeFirst()).toBeUndefined();
  });

  it('answer 400 in a key, nested, in a query value, in the path and in the idempotency key', async () => {
    const nested = await api.call('PUT', '/api/settings', { user: admin, json: { socialLinks: { ['face\u0000book']: 'x' } } });
    expect(nested.status).toBe(400);
    const query = await api.call('GET', `/api/admin/orders?search=${encodeURIComponent('a\u0000')}`, { user: admin });
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ error: { details: [{ path: 'search' }] } });
    const exportCsv = await api.call('GET', `/api/admin/orders/export?search=%00`, { user: admin });
    expect(exportCsv.status).toBe(400);
    const path = await api.call('GET', '/api/users/%00', { user: admin });
    expect(path.status).toBe(400);
    const badEncoding = await api.call('GET', '/api/admin/orders?search=%ED%A0%80', { user: admin });
    expect(badEncoding.status).toBeLessThan(500);
    const order = await api
      .call('POST', '/api/orders', {
        user: customer,
        json: { id: crypto.randomUUID(), productId: crypto.randomUUID() },
        headers: { 'idempotency-key': 'k\u0000' },
      })
      .catch(() => undefined);
    // Fetch itself refuses a NUL in a header; either way no 500 and nothing placed.
    if (order) expect(order.status).toBe(400);
  });

  it('answer 400 to a body nested deeper than 32 levels, a NUL at its bottom or not, placing nothing', async () => {
    const before = await orderCount();
    const send = (body: string) =>
      api.app.request('/api/orders', { method: 'POST', headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' }, body });
    // 100,000 levels: more than the JSON parser itself takes (a 400, not a stack overflow answered 500).
    const parserDepth = await send(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(parserDepth.status).toBe(400);
    const deep = await send(`{"productId":${'{"k":'.repeat(70)}"\\u0000"${'}'.repeat(70)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ error: { code: 'bad_request', message: 'body: must not nest objects or arrays more than 32 levels deep' } });
    expect(await orderCount()).toBe(before);
  });

  it('let well-formed text through: emoji (surrogate pairs) and accents', async () => {
    const account = await api.createAccount();
    const answer = await api.call('POST', '/api/users', {
      user: account.token,
      json: { uid: account.id, email: account.email, displayName: 'Ana 😀 Álvarez', mobile: '01712345678' },
    });
    expect(answer.status).toBe(201);
  });
});

describe('write limits per user', () => {
  it('answer 429 with Retry-After past the orders limit, for that customer only, placing nothing more', async () => {
    const limited = await inProcessHarness({ rateLimits: { ordersPer10Min: 3, uploadsPer10Min: 2 } }, undefined, { clock: clockInNextWindow(600_000) });
    try {
      const [first, second] = await Promise.all([limited.createUser('user'), limited.createUser('user')]);
      const place = (user: TestUser) => limited.call('POST', '/api/orders', { user, json: { id: crypto.randomUUID(), productId: crypto.randomUUID() } });
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await place(first)).status);
      expect(statuses.slice(0, 3)).not.toContain(429);
      expect(statuses.slice(3)).toEqual([429, 429]);
      const refused = await limited.app.request('/api/orders', {
        method: 'POST',
        headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: crypto.randomUUID(), productId: crypto.randomUUID() }),
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
      expect((await place(second)).status).not.toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('answer 429 past the uploads limit', async () => {
    const limited = await inProcessHarness({ rateLimits: { ordersPer10Min: 3, uploadsPer10Min: 2 } }, undefined, { clock: clockInNextWindow(600_000) });
    try {
      const staff = await limited.createUser('admin');
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        const form = new FormData();
        form.set('kind', 'stock');
        statuses.push((await limited.call('POST', '/api/uploads', { user: staff, body: form })).status);
      }
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});

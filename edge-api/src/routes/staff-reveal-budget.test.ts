import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NotificationList } from '../contract/notifications.ts';
import type { SyncResponse } from '../contract/sync.ts';
import type { WiseStock } from '../contract/wise-stocks.ts';
import { inProcessHarness, type TestUser } from '../testing/api-harness.ts';
import { nextWindowStart } from '../testing/limit-window.ts';
import { random, type ErrorBody } from '../testing/order-fixtures.ts';

// Decision 160 (issue 30, item 1): a stolen moderator session read 7 of 7 stock passwords, 40 reveals in
// a row. Each staff member, admins included, may now read only so many in clear in 10 minutes; admins
// hear of it from 80 % of the budget, once a window, and a refusal is in the audit log.

const LIMIT = 5;
// 80 % of 5: the fourth reveal tells admins.
const WARN_AT = 4;
const WINDOW_MS = 600_000;

let api: Awaited<ReturnType<typeof inProcessHarness>>;
let admin: TestUser;
let moderator: TestUser;
const stocks: { id: string; password: string }[] = [];
// The API's clock (deps.clock reads Date) starts a second into a window of its own, so nothing here
// depends on when the test runs; only Date is faked, timers and the database run as ever.
const windowStart = nextWindowStart(WINDOW_MS);

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(windowStart + 1_000);
  api = await inProcessHarness({ rateLimits: { staffRevealsPer10Min: LIMIT } });
  [admin, moderator] = await Promise.all([api.createUser('admin'), api.createUser('moderator')]);
  for (let i = 0; i < LIMIT + 2; i += 1) {
    const password = `Budget-Pass-${i}-${random()}`;
    const created = await api.call<WiseStock>('POST', '/api/wise-stocks', {
      user: admin,
      json: {
        wiseName: 'Budget Holder',
        wiseEmail: `budget-${i}-${random()}@wise.test`,
        wisePassword: password,
        authImage: 'https://img.example/auth.jpg',
        docImg1: '',
        docImg2: '',
        userName: 'Keeper',
        serviceName: 'WiseStock',
        status: 'available',
      },
    });
    expect(created.status).toBe(201);
    stocks.push({ id: created.body.id, password });
  }
});
afterEach(() => {
  vi.setSystemTime(windowStart + 1_000);
});
afterAll(async () => {
  vi.useRealTimers();
  await api.close();
});

const reveal = (user: TestUser, stockId: string) => api.call<{ wisePassword?: string } & ErrorBody>('POST', `/api/wise-stocks/${stockId}/reveal`, { user });
const exportWithPasswords = (user: TestUser) =>
  api.app.request('/api/wise-stocks/export.csv?passwords=true', { headers: { authorization: `Bearer ${user.token}` } });
const auditOf = (user: TestUser, action: string) =>
  api.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('actor_id', '=', user.id).orderBy('created_at').execute();
const warningsAbout = (user: TestUser) =>
  api.db
    .selectFrom('notifications')
    .selectAll()
    .where('kind', '=', 'reveal_budget')
    .where('dedupe_key', 'like', `reveal_budget:${user.id}:%`)
    .orderBy('created_at')
    .execute();
const notices = (user: TestUser) => api.call<NotificationList>('GET', '/api/notifications', { user });
const expectLimited = (answer: { status: number; headers: Headers; body: unknown }) => {
  expect(answer.status).toBe(429);
  expect((answer.body as ErrorBody).error.code).toBe('rate_limited');
  // Every reveal here is at the same (fake) moment: the budget comes back 10 minutes after it.
  expect(answer.headers.get('retry-after')).toBe('600');
};

describe("the staff's reveal budget", () => {
  it("answers a moderator's reveal past the budget 429 with Retry-After, opens nothing, and audits the refusal once", async () => {
    for (const [n, stock] of stocks.slice(0, LIMIT).entries()) {
      const shown = await reveal(moderator, stock.id);
      expect(shown.status).toBe(200);
      expect(shown.body.wisePassword).toBe(stock.password);
      // Admins hear of it at 80 % of the budget, not before.
      expect(await warningsAbout(moderator)).toHaveLength(n + 1 >= WARN_AT ? 1 : 0);
    }

    for (const stock of stocks.slice(LIMIT)) {
      const refused = await reveal(moderator, stock.id);
      expectLimited(refused);
      expect(refused.body).not.toHaveProperty('wisePassword');
      expect(JSON.stringify(refused.body)).not.toContain(stock.password);
    }
    // A password already shown is refused as well: the budget counts reveals, not stocks.
    expectLimited(await reveal(moderator, stocks[0]!.id));

    // Five reveals audited, and one refusal entry for the window however often it is refused.
    expect(await auditOf(moderator, 'wise_stock.reveal')).toHaveLength(LIMIT);
    const refusals = await auditOf(moderator, 'user.reveals_limited');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ actor_email: moderator.email, entity: 'user', entity_id: moderator.id });
    expect(refusals[0]!.details).toEqual({ role: 'moderator', route: 'POST /api/wise-stocks/:id/reveal', limit: LIMIT, retryAfterSeconds: 600 });
    expect(JSON.stringify(refusals)).not.toMatch(/Budget-Pass/);
  });

  it('tells admins once per window, in a notification moderators never get, with an audit entry', async () => {
    const warnings = await warningsAbout(moderator);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ kind: 'reveal_budget', title: `${moderator.email} is reading many stock passwords` });
    expect(warnings[0]!.body).toContain(`used ${WARN_AT} of the 5 password reveals`);
    expect(await auditOf(moderator, 'user.reveals_warned')).toHaveLength(1);

    const forAdmin = (await notices(admin)).body;
    expect(forAdmin.notifications.filter((n) => n.kind === 'reveal_budget').map((n) => n.id)).toEqual([warnings[0]!.id]);
    expect(forAdmin.unreadByKind.reveal_budget).toBe(1);
    const adminPull = await api.call<SyncResponse>('GET', '/api/sync?scope=private&cursor=0', { user: admin });
    expect(adminPull.body.changes.notifications?.some((n) => n.id === warnings[0]!.id)).toBe(true);

    // The moderator concerned (or whoever holds their session) is not told: not listed, counted nor synced.
    const forModerator = (await notices(moderator)).body;
    expect(forModerator.notifications.some((n) => n.kind === 'reveal_budget')).toBe(false);
    expect(forModerator.unreadByKind.reveal_budget).toBeUndefined();
    const moderatorPull = await api.call<SyncResponse>('GET', '/api/sync?scope=private&cursor=0', { user: moderator });
    expect(moderatorPull.body.changes.notifications?.some((n) => n.kind === 'reveal_budget')).toBe(false);
    const marked = await api.call<{ read: number }>('POST', '/api/notifications/read', { user: moderator, json: { ids: [warnings[0]!.id] } });
    expect(marked.body.read).toBe(0);
  });

  it('leaves other staff members their own budget', async () => {
    const other = await api.createUser('moderator');
    for (const stock of stocks.slice(0, LIMIT)) expect((await reveal(other, stock.id)).status).toBe(200);
    expectLimited(await reveal(other, stocks[LIMIT]!.id));
    expectLimited(await reveal(moderator, stocks[LIMIT]!.id));
  });

  it('answers again once the window is over, and tells admins again in the new one', async () => {
    expectLimited(await reveal(moderator, stocks[LIMIT]!.id));
    vi.setSystemTime(windowStart + WINDOW_MS + 1_000);
    for (const stock of stocks.slice(-(WARN_AT - 1))) {
      const shown = await reveal(moderator, stock.id);
      expect(shown.status).toBe(200);
      expect(shown.body.wisePassword).toBe(stock.password);
    }
    expect(await warningsAbout(moderator)).toHaveLength(1);
    expect((await reveal(moderator, stocks[0]!.id)).status).toBe(200);
    expect(await warningsAbout(moderator)).toHaveLength(2);
    expect((await reveal(moderator, stocks[1]!.id)).status).toBe(200);
    expectLimited(await reveal(moderator, stocks[2]!.id));
    expect(await auditOf(moderator, 'user.reveals_limited')).toHaveLength(2);
  });

  it('counts admins too: an export with passwords takes the whole budget, one without none', async () => {
    vi.setSystemTime(windowStart + 2 * WINDOW_MS + 1_000);
    expect((await reveal(admin, stocks[0]!.id)).status).toBe(200);
    // One password read this window: an export of them all is refused, and nothing of it sent.
    const refused = await exportWithPasswords(admin);
    expectLimited({ status: refused.status, headers: refused.headers, body: await refused.json() });
    expect(await auditOf(admin, 'wise_stock.export')).toHaveLength(0);
    expect((await api.app.request('/api/wise-stocks/export.csv', { headers: { authorization: `Bearer ${admin.token}` } })).status).toBe(200);

    vi.setSystemTime(windowStart + 3 * WINDOW_MS + 1_000);
    const exported = await exportWithPasswords(admin);
    expect(exported.status).toBe(200);
    expect(await exported.text()).toContain(stocks[0]!.password);
    expectLimited(await reveal(admin, stocks[0]!.id));
    // Admins hear of an admin's spending too, the one concerned among them.
    const warnings = await warningsAbout(admin);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]!.body).toContain('This admin has used 5 of the 5 password reveals');
  });

  it('holds over any 10 minutes, not per clock window: a burst across the window edge gets no second budget (decision 246)', async () => {
    const reader = await api.createUser('moderator');
    const before = windowStart + 4 * WINDOW_MS - 5_000;
    vi.setSystemTime(before);
    for (const stock of stocks.slice(0, LIMIT)) expect((await reveal(reader, stock.id)).status).toBe(200);
    // Ten seconds later a new clock window has begun; the budget has not.
    vi.setSystemTime(before + 10_000);
    const refused = await reveal(reader, stocks[0]!.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('590');
    vi.setSystemTime(before + WINDOW_MS - 1_000);
    expect((await reveal(reader, stocks[0]!.id)).status).toBe(429);
    vi.setSystemTime(before + WINDOW_MS);
    expect((await reveal(reader, stocks[0]!.id)).status).toBe(200);
  });

  it('never lets parallel requests overdraw the budget, on either side of a clock window edge', async () => {
    const reader = await api.createUser('moderator');
    const burst = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => reveal(reader, stocks[i % stocks.length]!.id)));
    vi.setSystemTime(windowStart + 3 * WINDOW_MS - 1);
    const first = await burst(2 * LIMIT);
    vi.setSystemTime(windowStart + 3 * WINDOW_MS + 1);
    const answers = [...first, ...(await burst(2 * LIMIT))];
    expect(first.filter((answer) => answer.status === 200)).toHaveLength(LIMIT);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(LIMIT);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(3 * LIMIT);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderStatus } from '../contract/orders.ts';
import type { SyncResponse } from '../contract/sync.ts';
import type { User } from '../contract/users.ts';
import type { WiseStock } from '../contract/wise-stocks.ts';
import { WORKING_SET_PART_MAX } from '../db/sync.ts';
import { moreVersions, nextVersion } from '../db/versions.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let alice: TestUser;
let bob: TestUser;

const service = {
  title: 'Editable bank statement',
  description: 'A document you can edit',
  category: 'documents',
  features: ['PDF', 'Word'],
  price: '15',
  deliveryTime: 'instant',
  paymentMethods: ['binance'],
};

const pull = async (scope: 'public' | 'private', cursor: number, user?: TestUser) => {
  const response = await api.call<SyncResponse>('GET', `/api/sync?scope=${scope}&cursor=${cursor}`, { user });
  expect(response.status).toBe(200);
  return response.body;
};

/** Every page of a pull from `cursor`, as the app takes them: the pages and the cursor it ends on. */
const pullAll = async (scope: 'public' | 'private', cursor: number, user?: TestUser) => {
  const pages: SyncResponse[] = [];
  for (;;) {
    const page = await pull(scope, cursor, user);
    pages.push(page);
    cursor = page.cursor;
    if (!page.hasMore) return { pages, cursor };
  }
};

/** A whole pull from nothing as one answer: every page's rows together (a shared database may need several). */
const pullEverything = async (scope: 'public' | 'private', user?: TestUser) => {
  const { pages } = await pullAll(scope, 0, user);
  const all: SyncResponse = { ...pages.at(-1)!, changes: {}, deleted: {} };
  for (const page of pages) {
    for (const [table, rows] of Object.entries(page.changes))
      Object.assign(all.changes, { [table]: [...((all.changes as Record<string, unknown[]>)[table] ?? []), ...(rows ?? [])] });
    for (const [table, ids] of Object.entries(page.deleted))
      Object.assign(all.deleted, { [table]: [...((all.deleted as Record<string, string[]>)[table] ?? []), ...(ids ?? [])] });
  }
  return all;
};

const rowCount = (sync: SyncResponse) =>
  Object.values(sync.changes).reduce((sum, rows) => sum + (rows?.length ?? 0), 0) +
  Object.values(sync.deleted).reduce((sum, ids) => sum + (ids?.length ?? 0), 0);

interface OrderSeed {
  status?: OrderStatus;
  credentials?: { email: string; password: string };
  updatedAt?: Date;
  paymentStatus?: 'pending' | 'paid';
  proofAt?: Date;
  reportStatus?: 'open';
}

/** An order written the way the order routes write one: in a transaction stamped with the next version. */
async function insertOrder(owner: TestUser, seed: OrderSeed = {}) {
  const passwordEnc = seed.credentials ? await api.deps.secrets.encrypt(seed.credentials.password) : null;
  return api.db.transaction().execute(async (trx) =>
    trx
      .insertInto('orders')
      .values({
        id: crypto.randomUUID(),
        product_id: crypto.randomUUID(),
        title: 'Wise account',
        price: '30',
        user_id: owner.id,
        user_email: owner.email,
        order_status: seed.status ?? 'pending',
        payment_status: seed.paymentStatus ?? (seed.credentials ? 'paid' : 'pending'),
        proof_at: seed.proofAt ?? null,
        report_status: seed.reportStatus ?? null,
        wise_email: seed.credentials?.email ?? null,
        wise_password_enc: passwordEnc,
        updated_at: seed.updatedAt ?? new Date(),
        version: await nextVersion(trx),
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

async function insertStock(password: string) {
  const created = await api.call<WiseStock>('POST', '/api/wise-stocks', {
    user: admin,
    json: {
      wiseName: 'Stock',
      wiseEmail: `stock-${crypto.randomUUID().slice(0, 8)}@wise.test`,
      wisePassword: password,
      authImage: 'https://img.test/a.png',
      userName: 'Admin',
    },
  });
  expect(created.status).toBe(201);
  return created.body;
}

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, alice, bob] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user'), api.createUser('user')]);
});
afterAll(() => api.close());

describe('public sync', () => {
  it('brings new, changed and deleted services, then nothing when nothing changed', async () => {
    const first = await pull('public', 0);
    expect(first.reset).toBe(false);

    const kept = await api.call<{ id: string; version: number }>('POST', '/api/services', { user: admin, json: service });
    const dropped = await api.call<{ id: string }>('POST', '/api/services', { user: admin, json: { ...service, title: 'Old VPS' } });
    const afterCreate = await pull('public', first.cursor);
    expect(afterCreate.changes.services?.map((s) => s.id).sort()).toEqual([kept.body.id, dropped.body.id].sort());
    expect(afterCreate.cursor).toBeGreaterThan(first.cursor);

    await api.call('PUT', `/api/services/${kept.body.id}`, { user: admin, json: { ...service, title: 'Edited statement', version: kept.body.version } });
    await api.call('DELETE', `/api/services/${dropped.body.id}`, { user: admin });
    const afterEdit = await pull('public', afterCreate.cursor);
    expect(afterEdit.changes.services?.map((s) => [s.id, s.title])).toEqual([[kept.body.id, 'Edited statement']]);
    expect(afterEdit.deleted.services).toEqual([dropped.body.id]);

    const again = await pull('public', afterEdit.cursor);
    expect(again.cursor).toBe(afterEdit.cursor);
    expect(rowCount(again)).toBe(0);

    // A fresh device never hears of the deleted one.
    const full = await pull('public', 0);
    expect(full.changes.services?.map((s) => s.id)).toContain(kept.body.id);
    expect(full.changes.services?.map((s) => s.id)).not.toContain(dropped.body.id);
    expect(full.deleted.services ?? []).toEqual([]);
  });

  it('carries the site settings once an admin saves them', async () => {
    const before = await pull('public', 0);
    const current = await api.call<Record<string, unknown>>('GET', '/api/settings');
    const saved = await api.call('PUT', '/api/settings', { user: admin, json: { ...current.body, brandName: 'Hub Synced' } });
    expect(saved.status).toBe(200);
    const delta = await pull('public', before.cursor);
    expect(delta.changes.settings?.map((s) => s.brandName)).toEqual(['Hub Synced']);
  });

  it('answers reset with everything when the cursor comes from another database', async () => {
    const now = await pull('public', 0);
    const foreign = await pull('public', now.cursor + 1000);
    expect(foreign.reset).toBe(true);
    expect(foreign.cursor).toBe(now.cursor);
    expect(foreign.changes.services?.length).toBe(now.changes.services?.length);
  });

  it('gives no private rows in the public scope, and rejects a bad cursor with 400', async () => {
    const anonymous = await pull('public', 0);
    expect(anonymous.changes.orders).toBeUndefined();
    expect(anonymous.changes.users).toBeUndefined();
    expect(anonymous.changes.wiseStocks).toBeUndefined();
    expect((await api.call('GET', '/api/sync?cursor=-1')).status).toBe(400);
    expect((await api.call('GET', '/api/sync?cursor=abc')).status).toBe(400);
    expect((await api.call('GET', '/api/sync?scope=everything')).status).toBe(400);
  });
});

describe('private sync', () => {
  it('needs a signed-in user with a record', async () => {
    expect((await api.call('GET', '/api/sync?scope=private')).status).toBe(401);
    const stranger = await api.createAccount();
    expect((await api.call('GET', '/api/sync?scope=private', { user: stranger })).status).toBe(403);
  });

  it("gives a customer its own record and orders with delivered credentials, and nothing of anyone else's", async () => {
    const pending = await insertOrder(alice);
    const delivered = await insertOrder(alice, { status: 'delivered', credentials: { email: 'alice@wise.test', password: 'S3cret!' } });
    const bobs = await insertOrder(bob, { status: 'delivered', credentials: { email: 'bob@wise.test', password: 'B0b!' } });
    await insertStock('stock-pass');

    const sync = await pull('private', 0, alice);
    expect(sync.changes.users?.map((u: User) => u.uid)).toEqual([alice.id]);
    const orders = new Map((sync.changes.orders ?? []).map((o: Order) => [o.id, o]));
    expect([...orders.keys()].sort()).toEqual([pending.id, delivered.id].sort());
    expect(orders.get(delivered.id)).toMatchObject({ wiseEmail: 'alice@wise.test', wisePassword: 'S3cret!' });
    expect(orders.get(pending.id)?.wisePassword).toBeUndefined();
    expect(orders.get(delivered.id)?.stockId).toBeUndefined();
    expect(sync.changes.wiseStocks).toBeUndefined();
    expect(JSON.stringify(sync)).not.toContain(bobs.id);
    expect(JSON.stringify(sync)).not.toContain(bob.id);
    expect(JSON.stringify(sync)).not.toContain('stock-pass');
  });

  it('sends a deleted order as a tombstone to its owner only', async () => {
    const order = await insertOrder(alice);
    const aliceBefore = await pull('private', 0, alice);
    const bobBefore = await pull('private', 0, bob);
    await api.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('orders')
        .set({ deleted_at: new Date(), version: await nextVersion(trx) })
        .where('id', '=', order.id)
        .execute();
    });
    const aliceAfter = await pull('private', aliceBefore.cursor, alice);
    expect(aliceAfter.deleted.orders).toEqual([order.id]);
    expect(aliceAfter.changes.orders).toEqual([]);
    const bobAfter = await pull('private', bobBefore.cursor, bob);
    expect(bobAfter.deleted.orders).toEqual([]);
    expect(rowCount(bobAfter)).toBe(0);
  });

  it('gives staff all users, the orders that need them and the recent ones, and every stock; passwords only for their own orders', async () => {
    const long = new Date(Date.now() - 90 * 24 * 3600 * 1000);
    // Paid and awaiting delivery, a payment proof to check, an open problem report: however old, staff need them (decision 187).
    const open = await insertOrder(bob, { paymentStatus: 'paid', updatedAt: long });
    const proofToCheck = await insertOrder(bob, { proofAt: long, updatedAt: long });
    const reported = await insertOrder(bob, {
      status: 'delivered',
      credentials: { email: 'rep@wise.test', password: 'rep' },
      reportStatus: 'open',
      updatedAt: long,
    });
    // Unpaid for months with nothing sent: nothing for staff to do; the server's list still has it.
    const abandoned = await insertOrder(bob, { updatedAt: long });
    const oldDelivered = await insertOrder(bob, {
      status: 'delivered',
      credentials: { email: 'old@wise.test', password: 'old-pass' },
      updatedAt: new Date(Date.now() - 40 * 24 * 3600 * 1000),
    });
    const recentDelivered = await insertOrder(bob, { status: 'delivered', credentials: { email: 'new@wise.test', password: 'new-pass' } });
    const ownDelivered = await insertOrder(moderator, { status: 'delivered', credentials: { email: 'mod@wise.test', password: 'mod-pass' } });
    const stock = await insertStock('stock-secret');

    for (const staff of [moderator, admin]) {
      const sync = await pullEverything('private', staff);
      expect(sync.changes.users?.map((u) => u.uid)).toEqual(expect.arrayContaining([admin.id, moderator.id, alice.id, bob.id]));
      const orders = new Map((sync.changes.orders ?? []).map((o) => [o.id, o]));
      expect(orders.has(open.id)).toBe(true);
      expect(orders.has(proofToCheck.id)).toBe(true);
      expect(orders.has(reported.id)).toBe(true);
      expect(orders.has(abandoned.id)).toBe(false);
      expect(orders.has(recentDelivered.id)).toBe(true);
      expect(orders.has(oldDelivered.id)).toBe(false);
      expect(orders.get(recentDelivered.id)?.wiseEmail).toBe('new@wise.test');
      expect(orders.get(recentDelivered.id)?.wisePassword).toBeUndefined();
      // A moderator's copy holds the stock passwords masked (revealed one at a time, audited); an admin's in full.
      expect(sync.changes.wiseStocks?.find((s) => s.id === stock.id)?.wisePassword).toBe(staff === admin ? 'stock-secret' : '');
    }
    const own = (await pullEverything('private', moderator)).changes.orders?.find((o) => o.id === ownDelivered.id);
    expect(own?.wisePassword).toBe('mod-pass');
    expect(JSON.stringify(await pullEverything('private', admin))).not.toContain('new-pass');
  });

  it('sends only the one changed row after a change among 10,000 orders', async () => {
    const values = [];
    const version = await api.db.transaction().execute((trx) => nextVersion(trx));
    for (let i = 0; i < 10_000; i++) {
      values.push({
        id: crypto.randomUUID(),
        product_id: crypto.randomUUID(),
        title: `Order ${i}`,
        price: '10',
        user_id: i % 2 ? alice.id : bob.id,
        user_email: i % 2 ? alice.email : bob.email,
        version,
      });
    }
    for (let i = 0; i < values.length; i += 1000)
      await api.db
        .insertInto('orders')
        .values(values.slice(i, i + 1000))
        .execute();
    // The statistics a server's autovacuum gathers after such a burst: without them the staff pull's plan
    // guesses, and the pull takes about 10 s a page on a loaded machine instead of a second in all.
    await sql`analyze orders`.execute(api.db);
    const before = await pullAll('private', 0, admin);
    // A staff device's first sync is bounded (decision 187): the newest of the recent ones, not all 10,000.
    const firstPull = before.pages.flatMap((page) => page.changes.orders ?? []).length;
    expect(firstPull).toBeGreaterThanOrEqual(WORKING_SET_PART_MAX);
    expect(firstPull).toBeLessThan(3 * WORKING_SET_PART_MAX);

    const target = values[4242]!;
    await api.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('orders')
        .set({ order_status: 'processing', updated_at: new Date(), version: await nextVersion(trx) })
        .where('id', '=', target.id)
        .execute();
    });
    const response = await api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${before.cursor}`, { user: admin });
    expect(response.body.changes.orders?.map((o) => [o.id, o.orderStatus])).toEqual([[target.id, 'processing']]);
    expect(rowCount(response.body)).toBe(1);
    expect(JSON.stringify(response.body).length).toBeLessThan(2048);
  });

  it('never skips a change whose transaction began first and took its version late', async () => {
    const start = await pull('public', 0);
    const committed: { name: string; version: number }[] = [];
    const write = (name: string, beforeVersion: () => Promise<unknown>) =>
      api.db
        .transaction()
        .execute(async (trx) => {
          await trx.selectFrom('services').select('id').limit(1).execute();
          await beforeVersion();
          const version = await nextVersion(trx);
          await trx
            .insertInto('services')
            .values({ id: crypto.randomUUID(), title: name, description: 'x', category: 'vps', price: '1', delivery_time: 'instant', version })
            .execute();
          return version;
        })
        .then((version) => committed.push({ name, version }));
    // "slow" begins first but takes its version late: only once "fast", begun second, has taken one and committed.
    let slowBegun!: () => void;
    const begun = new Promise<void>((resolve) => (slowBegun = resolve));
    const fastCommitted = begun.then(() => write('fast', async () => undefined));
    const slow = write('slow', () => {
      slowBegun();
      return fastCommitted;
    });
    await Promise.all([slow, fastCommitted]);
    expect(committed.map((entry) => entry.name)).toEqual(['fast', 'slow']);
    expect(committed).toHaveLength(2);
    expect(committed[1]!.version).toBeGreaterThan(committed[0]!.version);

    const delta = await pull('public', start.cursor);
    expect(delta.changes.services?.map((s) => s.title).sort()).toEqual(['fast', 'slow']);
    expect(delta.cursor).toBe(committed[1]!.version);
  });
});

describe('paging', () => {
  it('hands a large first pull over in pages of at most 1,000 rows that add up to everything, each change once', async () => {
    const carol = await api.createUser('user');
    const ids = await api.insertOrders(carol, 2_500);
    const { pages, cursor } = await pullAll('private', 0, carol);

    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(rowCount(page)).toBeLessThanOrEqual(1_000);
    expect(pages.slice(0, -1).every((page) => page.hasMore)).toBe(true);
    const cursors = pages.map((page) => page.cursor);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(new Set(cursors).size).toBe(cursors.length);
    const received = pages.flatMap((page) => page.changes.orders ?? []).map((order) => order.id);
    expect(received.sort()).toEqual([...ids].sort());
    expect(pages.flatMap((page) => page.changes.users ?? []).map((user) => user.uid)).toEqual([carol.id]);

    const after = await pull('private', cursor, carol);
    expect(after).toMatchObject({ hasMore: false, cursor });
    expect(rowCount(after)).toBe(0);
  });

  it('never splits the rows of one transaction, even when they are more than a page', async () => {
    const dave = await api.createUser('user');
    await api.insertOrders(dave, 1_500, 'shared');

    const { pages } = await pullAll('private', 0, dave);
    const withBulk = pages.filter((page) => page.changes.orders?.length);
    expect(withBulk).toHaveLength(1);
    expect(withBulk[0]!.changes.orders).toHaveLength(1_500);
  });

  it('pages the public scope the same way', async () => {
    const start = (await pullAll('public', 0)).cursor;
    const created = await api.db.transaction().execute(async (trx) => {
      const versions = [await nextVersion(trx), ...(await moreVersions(trx, 1_199))];
      const rows = Array.from({ length: 1_200 }, (_, i) => ({
        id: crypto.randomUUID(),
        title: `Paged service ${i}`,
        description: 'x',
        category: 'vps',
        price: '1',
        delivery_time: 'instant',
        version: versions[i]!,
      }));
      await trx.insertInto('services').values(rows).execute();
      return rows.map((row) => row.id);
    });
    const { pages } = await pullAll('public', start);
    expect(pages).toHaveLength(2);
    expect(
      pages
        .flatMap((page) => page.changes.services ?? [])
        .map((service) => service.id)
        .sort(),
    ).toEqual([...created].sort());
  });
});

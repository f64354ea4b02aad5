import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrderPage, Order, OrderStatus, PaymentStatus } from '../contract/orders.ts';
import { orderTestBench, random, errorPaths, type ErrorBody } from '../testing/order-fixtures.ts';

// Keyset paging of the order lists (decision 185), against real Postgres through the real app.
const bench = orderTestBench();

type Seeded = { id: string; at: number; status: OrderStatus; payment: PaymentStatus };
type ListAnswer = { status: number; body: AdminOrderPage & ErrorBody; headers: Headers };

const statuses = ['pending', 'processing', 'completed', 'delivered', 'cancelled'] as const;
const payments = ['pending', 'paid', 'failed', 'refunded'] as const;
/** The list's order: newest first, ties by id. */
const listOrder = (a: { at: number; id: string }, b: { at: number; id: string }) => b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('GET /api/admin/orders by cursor', () => {
  const mark = `Keyset${random()}`;
  const seeded: Seeded[] = [];
  const list = (query: string): Promise<ListAnswer> =>
    bench.api.call<AdminOrderPage & ErrorBody>('GET', `/api/admin/orders?${query}`, { user: bench.moderator });

  beforeAll(async () => {
    const buyer = { id: crypto.randomUUID(), email: `${mark.toLowerCase()}@shop.test`, name: 'Keyset Buyer' };
    const base = Date.UTC(2001, 0, 1);
    // 67 orders; every third shares its creation time with the one before (ties settled by id).
    for (let i = 0; i < 67; i++) {
      const at = base - Math.floor(i / 3) * 2 * 60_000 - (i % 3 === 2 ? 0 : (i % 3) * 60_000);
      const status = statuses[i % 5]!;
      const payment = payments[(i >> 1) % 4]!;
      const id = await bench.orders.seedOrder({
        user: buyer,
        title: `Wise ${mark} #${i}`,
        orderStatus: status,
        paymentStatus: payment,
        createdAt: new Date(at),
      });
      seeded.push({ id, at, status, payment });
    }
    // Same microsecond, for sure: ties that only the id orders.
    const tied = seeded.slice(10, 14);
    await bench.api.db
      .updateTable('orders')
      .set({ created_at: new Date(tied[0]!.at) })
      .where(
        'id',
        'in',
        tied.map((o) => o.id),
      )
      .execute();
    for (const order of tied) order.at = tied[0]!.at;
  });

  /** Every page from the first by nextCursor; after each page `between` runs (new orders arrive). */
  async function walk(query: string, limit: number, between?: () => Promise<void>) {
    const ids: string[] = [];
    const pages: ListAnswer[] = [];
    let cursor: string | undefined;
    for (let page = 1; page < 500; page++) {
      const answer = await list(`${query}&limit=${limit}&page=${page}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      expect(answer.body.orders.length).toBeLessThanOrEqual(limit);
      pages.push(answer);
      ids.push(...answer.body.orders.map((o: Order) => o.id));
      if (between) await between();
      cursor = answer.body.nextCursor;
      if (!cursor) break;
    }
    return { ids, pages };
  }

  const expected = (keep: (o: Seeded) => boolean) =>
    seeded
      .filter(keep)
      .sort(listOrder)
      .map((o) => o.id);
  const mine = new Set<string>();
  beforeAll(() => seeded.forEach((o) => mine.add(o.id)));

  it('walks every order of a filter exactly once, in order, with and without status and payment filters', async () => {
    const cases: [string, (o: Seeded) => boolean][] = [
      ['', () => true],
      ['status=pending', (o) => o.status === 'pending'],
      ['paymentStatus=paid', (o) => o.payment === 'paid'],
      ['status=delivered&paymentStatus=failed', (o) => o.status === 'delivered' && o.payment === 'failed'],
      [`search=${mark}`, () => true],
      [`search=${mark}&status=processing&paymentStatus=refunded`, (o) => o.status === 'processing' && o.payment === 'refunded'],
    ];
    for (const [query, keep] of cases) {
      const { ids } = await walk(query, 10);
      // The whole list (other tests' orders too when the database is shared) holds no order twice ...
      expect(new Set(ids).size, query).toBe(ids.length);
      // ... and these orders each once, in the list's order.
      expect(
        ids.filter((id) => mine.has(id)),
        query,
      ).toEqual(expected(keep));
    }
  });

  it('keeps to its walk while new orders come in: every order once, none skipped', async () => {
    const buyer = { id: crypto.randomUUID(), email: `late-${mark.toLowerCase()}@shop.test`, name: 'Late Buyer' };
    const arrived: string[] = [];
    const { ids } = await walk(`search=${mark}`, 10, async () => {
      arrived.push(await bench.orders.seedOrder({ user: buyer, title: `Wise ${mark} late`, createdAt: new Date() }));
    });
    expect(arrived.length).toBeGreaterThan(5);
    // Newer than the walk's start: they belong on page 1, never in the middle of the walk.
    expect(ids).toEqual(expected(() => true));
    const again = await walk(`search=${mark}`, 10);
    expect(again.ids.slice(0, arrived.length)).toEqual([...arrived].reverse());
    expect(again.ids.slice(arrived.length)).toEqual(expected(() => true));
  });

  it('goes back by prevCursor to exactly the page before, and the first page has none', async () => {
    const { pages } = await walk(`search=${mark}`, 10);
    expect(pages.length).toBeGreaterThan(3);
    expect(pages[0]!.body.prevCursor).toBeUndefined();
    for (let i = 1; i < pages.length; i++) {
      const back = await list(`search=${mark}&limit=10&page=${i}&cursor=${pages[i]!.body.prevCursor}`);
      expect(back.status).toBe(200);
      expect(back.body.orders.map((o) => o.id)).toEqual(pages[i - 1]!.body.orders.map((o) => o.id));
      expect(back.body.page).toBe(i);
      expect(back.body.nextCursor).toBeDefined();
      if (i === 1) expect(back.body.prevCursor).toBeUndefined();
      else expect(back.body.prevCursor).toBeDefined();
    }
    expect(pages.at(-1)!.body.nextCursor).toBeUndefined();
  });

  it('answers 400 naming the cursor for one it did not answer, and a too deep offset page 400 naming the page', async () => {
    const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const id = seeded[0]!.id;
    const bad = [
      'not a cursor',
      'AAAA',
      json(['a', '2001-01-01 00:00:00+00']),
      json(['x', '2001-01-01 00:00:00+00', id]),
      json(['a', '2001-02-31 00:00:00+00', id]),
      json(['a', '2001-01-01 25:00:00+00', id]),
      json(['a', "2001-01-01 00:00:00+00'; drop table orders; --", id]),
      json(['a', '2001-01-01 00:00:00+00', 'not-a-uuid']),
      json({ createdAt: '2001-01-01 00:00:00+00', id }),
    ];
    for (const cursor of bad) {
      const answer = await list(`cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(400);
      expect(errorPaths(answer.body), cursor).toEqual(['cursor']);
    }
    expect((await list('page=1001&limit=10')).status).toBe(200);
    const deep = await list('page=1002&limit=10');
    expect(deep.status).toBe(400);
    expect(errorPaths(deep.body)).toEqual(['page']);
    expect(deep.body.error.message).toContain('cursor');
    // A cursor reaches any depth, whatever page number it carries.
    const { pages } = await walk(`search=${mark}`, 50);
    const far = await list(`search=${mark}&limit=50&page=5000&cursor=${pages[0]!.body.nextCursor}`);
    expect(far.status).toBe(200);
    expect(far.body.orders.map((o) => o.id)).toEqual(pages[1]!.body.orders.map((o) => o.id));
  });
});

describe('GET /api/orders/user/:userId never unbounded', () => {
  it('answers 100 orders without limit and the cursor of the rest, at most 500 with it, 400 for a bad cursor', async () => {
    const buyer = await bench.api.createUser('user');
    const ids = await bench.api.insertOrders(buyer, 103);
    const first = await bench.api.call<Order[]>('GET', `/api/orders/user/${buyer.id}`, { user: buyer });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(100);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const rest = await bench.api.call<Order[]>('GET', `/api/orders/user/${buyer.id}?cursor=${cursor}`, { user: buyer });
    expect(rest.body).toHaveLength(3);
    expect(rest.headers.get('x-next-cursor')).toBeNull();
    expect(new Set([...first.body, ...rest.body].map((o) => o.id))).toEqual(new Set(ids));
    const tooMany = await bench.api.call<ErrorBody>('GET', `/api/orders/user/${buyer.id}?limit=501`, { user: buyer });
    expect(tooMany.status).toBe(400);
    expect(errorPaths(tooMany.body)).toEqual(['limit']);
    for (const bad of ['bm90LWEtY3Vyc29y', Buffer.from(JSON.stringify(['b', '2001-01-01 00:00:00+00', ids[0]])).toString('base64url')]) {
      const answer = await bench.api.call<ErrorBody>('GET', `/api/orders/user/${buyer.id}?cursor=${bad}`, { user: buyer });
      expect(answer.status).toBe(400);
      expect(errorPaths(answer.body)).toEqual(['cursor']);
    }
  });
});

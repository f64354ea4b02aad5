import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coupon } from '../contract/coupons.ts';
import type { ApiKey, CreatedApiKey } from '../contract/partners.ts';
import type { ServiceStockBatch } from '../contract/service-stock-changes.ts';
import type { ServiceStock, ServiceStockImportResult } from '../contract/service-stocks.ts';
import type { Service } from '../contract/services.ts';
import type { Ticket, TicketList } from '../contract/tickets.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

// More lists answer a page at a time (decision 242), as the staff lists of decision 234: the coupons, the
// API keys, a service's stock and its import batches, and the tickets. Walking the X-Next-Cursor chain gives
// every row the filter keeps exactly once, in the list's order, rows sharing a sort key included; a cursor
// the API did not answer, or a limit out of range, is a 400.

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customers: TestUser[];

type ErrorBody = { error: { code: string; message: string } };
type Row = { id: string };

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, ...customers] = await Promise.all([
    api.createUser('admin'),
    api.createUser('moderator'),
    api.createUser('user', 'first'),
    api.createUser('user', 'second'),
  ]);
});
afterAll(() => api.close());

const tag = () => crypto.randomUUID().slice(0, 8);

/** Every page of a list as `user` reads it, following X-Next-Cursor; the ids in the order answered and the pages' sizes. */
async function walk<Body>(path: string, user: TestUser, limit: number, rowsOf: (body: Body) => Row[] = (body) => body as Row[]) {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    const answer = await api.call<Body>('GET', `${path}${path.includes('?') ? '&' : '?'}${query}`, { user });
    expect(answer.status).toBe(200);
    const rows = rowsOf(answer.body);
    ids.push(...rows.map((row) => row.id));
    pages.push(rows.length);
    cursor = answer.headers.get('x-next-cursor');
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  expect(new Set(ids).size).toBe(ids.length);
  expect(pages.slice(0, -1).every((n) => n === limit)).toBe(true);
  return { ids, pages };
}

/** The rows of a table the filter keeps, in the list's order (newest first, or the latest message first). */
async function listed(table: string, where = sql`true`, column = 'created_at'): Promise<string[]> {
  const rows = await sql<Row>`select id from ${sql.table(table)} where ${where} order by ${sql.ref(column)} desc, id`.execute(api.db);
  return rows.rows.map((row) => row.id);
}

/** Gives `ids` one and the same sort key, so only the id tells them apart. */
const sameMoment = (table: string, ids: string[], column = 'created_at') =>
  sql`update ${sql.table(table)} set ${sql.ref(column)} = '2026-11-20 10:00:00.123456+00' where id = any(${ids}::uuid[])`.execute(api.db);

/** Bad cursors (not one, a real timestamp missing) and limits out of range: each a 400 naming the field. */
async function expectRefusals(path: string, user: TestUser) {
  const cases: [string, string][] = [
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['cursor=WyJhIiwiMjAyNi0xMS0zMSAxMDowMDowMCswMCIsIngiXQ', 'cursor'],
    ['cursor=a%20b', 'cursor'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
  ];
  for (const [query, field] of cases) {
    const answer = await api.call<ErrorBody>('GET', `${path}${path.includes('?') ? '&' : '?'}${query}`, { user });
    expect(answer.status, query).toBe(400);
    expect(answer.body.error.code).toBe('bad_request');
    expect(answer.body.error.message, query).toContain(field);
  }
}

describe('GET /api/admin/coupons', () => {
  beforeAll(async () => {
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const made = await api.call<Coupon>('POST', '/api/admin/coupons', { user: admin, json: { code: `PAGE-${i}-${tag()}`, kind: 'percent', amount: '5' } });
      expect(made.status).toBe(201);
      ids.push(made.body.id);
    }
    await sameMoment('coupons', ids.slice(2, 7));
  });

  it('walks every coupon exactly once, newest first, ties on created_at included, in { coupons }', async () => {
    const { ids, pages } = await walk<{ coupons: Coupon[] }>('/api/admin/coupons', admin, 2, (body) => body.coupons);
    expect(ids).toEqual(await listed('coupons'));
    expect(pages).toEqual([2, 2, 2, 2, 1]);
  });

  it('answers 100 without a limit and no next cursor on the last page; refuses a bad cursor or limit', async () => {
    const all = await api.call<{ coupons: Coupon[] }>('GET', '/api/admin/coupons', { user: admin });
    expect(all.body.coupons).toHaveLength(9);
    expect(all.headers.get('x-next-cursor')).toBeNull();
    expect(all.headers.get('cache-control')).toBe('no-store');
    await expectRefusals('/api/admin/coupons', admin);
  });
});

describe('GET /api/admin/api-keys', () => {
  beforeAll(async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const made = await api.call<CreatedApiKey>('POST', '/api/admin/api-keys', {
        user: admin,
        json: { userId: customers[i % 2]!.id, name: `Paged key ${i}`, scopes: ['orders:read'] },
      });
      expect(made.status).toBe(201);
      ids.push(made.body.id);
    }
    await sameMoment('api_keys', ids.slice(1, 5));
    expect((await api.call('POST', `/api/admin/api-keys/${ids[3]}/revoke`, { user: admin })).status).toBe(200);
  });

  it('walks every key, revoked ones too, exactly once, newest first, without a secret', async () => {
    const { ids } = await walk<ApiKey[]>('/api/admin/api-keys', admin, 3);
    expect(ids).toEqual(await listed('api_keys'));
    expect(ids).toHaveLength(7);
    const page = await api.call<ApiKey[]>('GET', '/api/admin/api-keys?limit=7', { user: admin });
    expect(page.body.filter((key) => key.revokedAt !== null)).toHaveLength(1);
    expect(page.body.every((key) => !('secret' in key))).toBe(true);
  });

  it('refuses a bad cursor or limit', async () => {
    await expectRefusals('/api/admin/api-keys', admin);
  });
});

describe("a service's stock and its import batches", () => {
  let serviceId: string;
  let otherId: string;
  const newService = async () => {
    const made = await api.call<Service>('POST', '/api/services', {
      user: admin,
      json: { title: `Paged ${tag()}`, description: 'Servers', category: 'Other', price: '9', deliveryTime: '1hour', deliveryKind: 'server' },
    });
    expect(made.status).toBe(201);
    return made.body.id;
  };
  const line = () => `h-${tag()}.example.net,22,root,Pw-${tag()}-pw`;
  const importRows = async (service: string, count: number) => {
    const made = await api.call<ServiceStockImportResult>('POST', '/api/service-stocks/batch', {
      user: admin,
      json: { id: crypto.randomUUID(), serviceId: service, text: Array.from({ length: count }, line).join('\n') },
    });
    expect(made.status).toBe(201);
  };

  beforeAll(async () => {
    [serviceId, otherId] = [await newService(), await newService()];
    for (let i = 0; i < 4; i++) await importRows(serviceId, 3);
    await importRows(otherId, 2);
    const items = await api.db.selectFrom('service_stocks').select('id').where('service_id', '=', serviceId).execute();
    await sameMoment(
      'service_stocks',
      items.slice(0, 8).map((row) => row.id),
    );
    const batches = await api.db.selectFrom('service_stock_batches').select('id').where('service_id', '=', serviceId).execute();
    await sameMoment(
      'service_stock_batches',
      batches.slice(0, 3).map((row) => row.id),
    );
    await api.db.updateTable('service_stocks').set({ deleted_at: new Date() }).where('id', '=', items[9]!.id).execute();
  });

  it("walks the service's live items exactly once, newest first, ties included, and none of another service", async () => {
    const { ids } = await walk<ServiceStock[]>(`/api/service-stocks?serviceId=${serviceId}`, moderator, 5);
    expect(ids).toEqual(await listed('service_stocks', sql`service_id = ${serviceId} and deleted_at is null`));
    expect(ids).toHaveLength(11);
    const other = await walk<ServiceStock[]>(`/api/service-stocks?serviceId=${otherId}`, admin, 5);
    expect(other.ids).toEqual(await listed('service_stocks', sql`service_id = ${otherId} and deleted_at is null`));
    expect(other.ids.some((id) => ids.includes(id))).toBe(false);
  });

  it("walks the service's batches exactly once, newest first, with their counts", async () => {
    const { ids, pages } = await walk<ServiceStockBatch[]>(`/api/service-stocks/batches?serviceId=${serviceId}`, moderator, 1);
    expect(ids).toEqual(await listed('service_stock_batches', sql`service_id = ${serviceId}`));
    expect(pages).toEqual([1, 1, 1, 1]);
    const other = await api.call<ServiceStockBatch[]>('GET', `/api/service-stocks/batches?serviceId=${otherId}`, { user: admin });
    expect(other.body.map((batch) => [batch.serviceId, batch.itemCount])).toEqual([[otherId, 2]]);
  });

  it('refuses a bad cursor or limit on both', async () => {
    await expectRefusals(`/api/service-stocks?serviceId=${serviceId}`, admin);
    await expectRefusals(`/api/service-stocks/batches?serviceId=${serviceId}`, admin);
  });
});

describe('GET /api/tickets', () => {
  const open = async (user: TestUser) => {
    const made = await api.call<Ticket>('POST', '/api/tickets', {
      user,
      json: { id: crypto.randomUUID(), messageId: crypto.randomUUID(), subject: `Paged ${tag()}`, body: 'It does not work' },
    });
    expect(made.status).toBe(200);
    return made.body.id;
  };
  beforeAll(async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await open(customers[i % 3 === 0 ? 1 : 0]!));
    await sameMoment('tickets', ids.slice(0, 5), 'last_message_at');
    await api.db.updateTable('tickets').set({ status: 'closed' }).where('id', 'in', [ids[1]!, ids[2]!, ids[6]!]).execute();
    await api.db.updateTable('tickets').set({ assignee_id: moderator.id }).where('id', 'in', [ids[0]!, ids[4]!]).execute();
    await api.db.updateTable('tickets').set({ unread_by_customer: 1 }).where('id', 'in', [ids[2]!, ids[5]!, ids[7]!]).execute();
  });

  const live = (where = sql`true`) => listed('tickets', sql`deleted_at is null and ${where}`, 'last_message_at');
  const tickets = (body: TicketList) => body.tickets;

  it('walks the staff queue exactly once, the latest message first, ties included', async () => {
    const { ids } = await walk('/api/tickets', moderator, 3, tickets);
    expect(ids).toEqual(await live());
    expect(ids).toHaveLength(8);
  });

  it('keeps the filters on every page: status, assignee, and the customer to their own', async () => {
    expect((await walk('/api/tickets?status=closed', moderator, 2, tickets)).ids).toEqual(await live(sql`status = 'closed'`));
    expect((await walk('/api/tickets?status=open', moderator, 2, tickets)).ids).toEqual(await live(sql`status = 'open'`));
    expect((await walk('/api/tickets?assignee=me', moderator, 1, tickets)).ids).toEqual(await live(sql`assignee_id = ${moderator.id}`));
    expect((await walk('/api/tickets?assignee=none', admin, 4, tickets)).ids).toEqual(await live(sql`assignee_id is null`));
    const own = await walk('/api/tickets', customers[0]!, 2, tickets);
    expect(own.ids).toEqual(await live(sql`user_id = ${customers[0]!.id}`));
    expect(own.ids).toHaveLength(5);
  });

  it("counts the customer's unread tickets over all their tickets, not the page's", async () => {
    const first = await api.call<TicketList>('GET', '/api/tickets?limit=1', { user: customers[0]! });
    expect(first.body.tickets).toHaveLength(1);
    expect(first.headers.get('x-next-cursor')).toBeTruthy();
    const unread = await api.db.selectFrom('tickets').select('id').where('user_id', '=', customers[0]!.id).where('unread_by_customer', '>', 0).execute();
    expect(unread.length).toBeGreaterThan(1);
    expect(first.body.unread).toBe(unread.length);
  });

  it('refuses a bad cursor or limit, for staff and customers', async () => {
    await expectRefusals('/api/tickets', moderator);
    await expectRefusals('/api/tickets?status=open', customers[1]!);
  });
});

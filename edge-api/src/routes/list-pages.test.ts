import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult, StockBatch } from '../contract/stock-batches.ts';
import type { User } from '../contract/users.ts';
import type { WiseStock } from '../contract/wise-stocks.ts';
import { nextVersion } from '../db/versions.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

// The staff lists answer a page at a time (decision 234): GET /api/users, /api/wise-stocks and
// /api/stock-batches. Walking the X-Next-Cursor chain gives every live row exactly once, newest first,
// rows sharing a created_at included; a cursor the API did not answer is a 400.

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;

type ErrorBody = { error: { code: string; message: string } };

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator] = await Promise.all([api.createUser('admin'), api.createUser('moderator')]);
});
afterAll(() => api.close());

/** Every page of a list as `user` reads it, following X-Next-Cursor; the ids in the order answered. */
async function walk(path: string, user: TestUser, limit?: number): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (cursor) query.set('cursor', cursor);
    const answer = await api.call<{ id?: string; uid?: string }[]>('GET', `${path}?${query}`, { user });
    expect(answer.status).toBe(200);
    ids.push(...answer.body.map((row) => row.uid ?? row.id!));
    pages.push(answer.body.length);
    cursor = answer.headers.get('x-next-cursor');
    expect(pages.length).toBeLessThan(200);
  } while (cursor);
  return { ids, pages };
}

/** The live rows of a table as the list orders them. */
async function listed(table: 'users' | 'wise_stocks' | 'stock_batches'): Promise<string[]> {
  const live = table === 'stock_batches' ? sql`true` : sql`deleted_at is null`;
  const rows = await sql<{ id: string }>`select id from ${sql.table(table)} where ${live} order by created_at desc, id`.execute(api.db);
  return rows.rows.map((row) => row.id);
}

/** Gives `ids` one and the same created_at, so only the id tells them apart. */
const sameMoment = (table: string, ids: string[]) =>
  sql`update ${sql.table(table)} set created_at = '2026-11-20 10:00:00.123456+00' where id = any(${ids}::uuid[])`.execute(api.db);

describe('GET /api/users', () => {
  beforeAll(async () => {
    await api.db.transaction().execute(async (trx) => {
      const version = await nextVersion(trx);
      const rows = Array.from({ length: 130 }, (_, i) => ({
        id: crypto.randomUUID(),
        email: `paged-${i}-${crypto.randomUUID().slice(0, 6)}@example.test`,
        version,
      }));
      await trx.insertInto('users').values(rows).execute();
      await sameMoment(
        'users',
        rows.slice(0, 12).map((row) => row.id),
      );
      await trx.updateTable('users').set({ deleted_at: new Date() }).where('id', '=', rows[20]!.id).execute();
    });
  });

  it('walks every live user exactly once, newest first, in pages of the limit asked', async () => {
    const { ids, pages } = await walk('/api/users', moderator, 7);
    expect(ids).toEqual(await listed('users'));
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.slice(0, -1).every((n) => n === 7)).toBe(true);
  });

  it('answers 100 users without a limit, never the whole list, and the rest after the cursor', async () => {
    const first = await api.call<User[]>('GET', '/api/users', { user: admin });
    expect(first.body).toHaveLength(100);
    expect(first.headers.get('x-next-cursor')).toBeTruthy();
    const { ids } = await walk('/api/users', admin);
    expect(ids).toEqual(await listed('users'));
  });

  it('refuses a cursor it did not answer and a limit out of range with 400', async () => {
    for (const query of ['cursor=bm90LWEtY3Vyc29y', 'cursor=WyJhIiwiMjAyNi0xMS0zMSAxMDowMDowMCswMCIsIngiXQ', 'limit=0', 'limit=501']) {
      const answer = await api.call<ErrorBody>('GET', `/api/users?${query}`, { user: admin });
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe('bad_request');
    }
  });
});

describe('GET /api/wise-stocks', () => {
  beforeAll(async () => {
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const tag = crypto.randomUUID().slice(0, 8);
      const made = await api.call<WiseStock>('POST', '/api/wise-stocks', {
        user: admin,
        json: {
          wiseName: `Paged ${i}`,
          wiseEmail: `paged-${tag}@wise.test`,
          wisePassword: `Paged#${tag}`,
          authImage: 'https://img.example/a.png',
          userName: 'K',
        },
      });
      expect(made.status).toBe(201);
      ids.push(made.body.id);
    }
    await sameMoment('wise_stocks', ids.slice(2, 6));
  });

  it('walks every stock exactly once, ties on created_at included', async () => {
    const { ids } = await walk('/api/wise-stocks', moderator, 2);
    expect(ids).toEqual(await listed('wise_stocks'));
    expect(ids).toHaveLength(9);
  });

  it('answers the last page without a next cursor', async () => {
    const answer = await api.call<WiseStock[]>('GET', '/api/wise-stocks?limit=9', { user: admin });
    expect(answer.body).toHaveLength(9);
    expect(answer.headers.get('x-next-cursor')).toBeNull();
  });
});

describe('GET /api/stock-batches', () => {
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) {
      const tag = crypto.randomUUID().slice(0, 8);
      const made = await api.call<ImportResult>('POST', '/api/stock-batches', {
        user: admin,
        json: { label: `Batch ${i}`, text: `email,password,name,notes\nbatch-${tag}@wise.test,Batch#${tag},Batch ${i},` },
      });
      expect(made.status).toBe(201);
    }
  });

  it('walks every batch exactly once, newest first, with its counts', async () => {
    const { ids, pages } = await walk('/api/stock-batches', moderator, 2);
    expect(ids).toEqual(await listed('stock_batches'));
    expect(pages).toEqual([2, 2, 1]);
    const first = await api.call<StockBatch[]>('GET', '/api/stock-batches?limit=1', { user: admin });
    expect(first.body[0]).toMatchObject({ label: 'Batch 4', itemCount: 1, availableCount: 1 });
  });
});

import { Dexie } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteUserDb, UserDb } from './local-db.ts';
import { compactUserDb } from './vault-compact.ts';
import { VAULT_KEY } from './vault-session.ts';

/**
 * The vault switch's rewrite of the user database (decision 184) must not lose its rows when the page goes
 * between the delete and the rewrite (issue 30: after Turn On and a page load the vault record was gone,
 * and the next sync filled the empty database again with no vault on the device).
 */
const opened: UserDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await Dexie.delete(db.name);
    await Dexie.delete(`${db.name}-compacting`);
  }
});

async function seeded(userId: string): Promise<UserDb> {
  const db = new UserDb(userId);
  opened.push(db);
  await db.meta.bulkPut([
    { key: VAULT_KEY, value: { id: 'vault-1', wrongPins: 0 } },
    { key: 'cursor', value: 7 },
  ]);
  await db.outbox.put({ id: 'change-1', name: 'logReveal', args: { orderId: 'o1' }, createdAt: '2026-11-29T10:00:00Z', status: 'pending', attempts: 0 });
  await db.deliveredFiles.put({ orderId: 'o1', name: 'a.pdf', size: 3, type: 'application/pdf', bytes: new Uint8Array([1, 2, 3]).buffer, savedAt: 'x' });
  return db;
}

describe('the database rewrite when the vault is switched on', () => {
  it('keeps every row, the vault record and queued changes included, and leaves no spare database', async () => {
    const db = await seeded('compact-whole');
    await compactUserDb(db);
    expect((await db.meta.get(VAULT_KEY))?.value).toEqual({ id: 'vault-1', wrongPins: 0 });
    expect(await db.meta.get('cursor')).toEqual({ key: 'cursor', value: 7 });
    expect(await db.outbox.get('change-1')).toMatchObject({ status: 'pending' });
    expect(new Uint8Array((await db.deliveredFiles.get('o1'))!.bytes as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3]));
    expect(await Dexie.exists(`${db.name}-compacting`)).toBe(false);
  });

  it('finishes a rewrite cut off after the delete (a reload) at the next open, before any query answers', async () => {
    const db = await seeded('compact-cut');
    // The page goes right after the delete: the rewrite never runs in it.
    const cut = Object.create(db) as UserDb;
    cut.open = (() => Promise.reject(new Error('the page went away'))) as UserDb['open'];
    await expect(compactUserDb(cut)).rejects.toThrow('the page went away');
    db.close();

    // The next page load opens the database anew: the vault record is there for its very first read.
    const next = new UserDb('compact-cut');
    opened.push(next);
    expect((await next.meta.get(VAULT_KEY))?.value).toEqual({ id: 'vault-1', wrongPins: 0 });
    expect(await next.outbox.count()).toBe(1);
    expect(await next.deliveredFiles.count()).toBe(1);
    expect(await Dexie.exists(`${next.name}-compacting`)).toBe(false);
  });

  it('leaves neither the database nor the spare of a cut-off rewrite once the user signs out', async () => {
    const db = await seeded('compact-signed-out');
    const cut = Object.create(db) as UserDb;
    cut.open = (() => Promise.reject(new Error('the page went away'))) as UserDb['open'];
    await expect(compactUserDb(cut)).rejects.toThrow('the page went away');
    db.close();
    expect(await Dexie.exists(`${db.name}-compacting`)).toBe(true);

    await deleteUserDb('compact-signed-out');
    expect(await Dexie.exists(db.name)).toBe(false);
    expect(await Dexie.exists(`${db.name}-compacting`)).toBe(false);
  });
});

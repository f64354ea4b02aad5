/**
 * Leaves no clear copy in the browser's files once the vault is on (decision 184). Overwriting a value in
 * IndexedDB does not erase it: Chromium's LevelDB keeps the old record in its log and table files until a
 * compaction, so an offline reader of the profile folder found the password right after the switch. The
 * user database is therefore read whole (already sealed), deleted, and written again: deleting a database
 * drops its key range and the browser compacts it away.
 */
import type { UserDb } from './local-db.ts';

export async function compactUserDb(db: UserDb): Promise<void> {
  const dump = await db.transaction('r', db.tables, () => Promise.all(db.tables.map(async (table) => ({ name: table.name, rows: await table.toArray() }))));
  // Dexie reopens the same schema after a delete; the rows come back in one transaction.
  await db.delete({ disableAutoOpen: false });
  await db.open();
  await db.transaction('rw', db.tables, async () => {
    for (const { name, rows } of dump) if (rows.length > 0) await db.table(name).bulkPut(rows);
  });
}

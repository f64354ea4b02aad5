/**
 * Leaves no clear copy in the browser's files once the vault is on (decision 184). Overwriting a value in
 * IndexedDB does not erase it: Chromium's LevelDB keeps the old record in its log and table files until a
 * compaction, so an offline reader of the profile folder found the password right after the switch. The
 * user database is therefore read whole (already sealed), deleted, and written again: deleting a database
 * drops its key range and the browser compacts it away.
 *
 * The rows wait in a spare database (`<name>-compacting`) while the user database is deleted, and the user
 * database's `ready` handler writes them back and deletes the spare: a page closed or reloaded between the
 * delete and the rewrite loses nothing (the vault record and queued changes included), its next open
 * restores them before any query runs. Without the spare a reload in that gap left an empty database that
 * the next sync filled again with no vault on the device (issue 30: the vault card said off after Turn On).
 */
import { Dexie } from 'dexie';
import type { UserDb } from './local-db.ts';

type Dump = { name: string; rows: unknown[] }[];

const spareName = (name: string) => `${name}-compacting`;
const DUMP_KEY = 'all';

function spareFor(name: string): Dexie {
  const spare = new Dexie(spareName(name));
  spare.version(1).stores({ dump: '' });
  return spare;
}

/** Deletes a compaction's spare database, if one was left: sign-out leaves no copy of the user's rows (deleteUserDb). */
export const deleteCompactionSpare = (name: string): Promise<void> => Dexie.delete(spareName(name));

export async function compactUserDb(db: UserDb): Promise<void> {
  const dump: Dump = await db.transaction('r', db.tables, () =>
    Promise.all(db.tables.map(async (table) => ({ name: table.name, rows: await table.toArray() }))),
  );
  const spare = spareFor(db.name);
  try {
    await spare.table('dump').put(dump, DUMP_KEY);
  } finally {
    spare.close();
  }
  // Reopened by the next query at the latest: the ready handler (restoreCompaction) writes the rows back first.
  await db.delete({ disableAutoOpen: false });
  await db.open();
}

/**
 * The user database's `ready` handler (runs at every open, before any other query): a compaction's rows
 * still in the spare database are written back, then the spare is deleted. `vip` is the database as the
 * handler may use it while the open waits.
 */
export async function restoreCompaction(vip: Dexie): Promise<void> {
  try {
    await restoreFromSpare(vip);
  } catch (cause) {
    // The database still opens; the spare stays for the next open to try again.
    console.warn('The interrupted rewrite of the device database could not be finished yet', cause);
  }
}

async function restoreFromSpare(vip: Dexie): Promise<void> {
  if (!(await Dexie.exists(spareName(vip.name)))) return;
  const spare = spareFor(vip.name);
  try {
    const dump = (await spare.table('dump').get(DUMP_KEY)) as Dump | undefined;
    if (dump) {
      const names = new Set(vip.tables.map((table) => table.name));
      const kept = dump.filter(({ name, rows }) => names.has(name) && rows.length > 0);
      await vip.transaction('rw', vip.tables, async () => {
        for (const { name, rows } of kept) await vip.table(name).bulkPut(rows);
      });
    }
  } finally {
    spare.close();
  }
  await Dexie.delete(spareName(vip.name));
}

import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The version every row written by this transaction carries. The counter row stays locked until
 * commit, so versions follow commit order and a sync cursor never skips a change.
 * Call it once per writing transaction, inside that transaction.
 */
export async function nextVersion(trx: Transaction<Database>): Promise<number> {
  noteLocalWrite();
  const row = await trx
    .updateTable('sync_counter')
    .set({ version: sql`version + 1` })
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

let localWrites = 0;

/**
 * Writes this process has begun (every nextVersion) or finished (the API notes each write request as it
 * ends): what is remembered of a row read before the latest of them is not used (decision 071).
 */
export const localWriteCount = () => localWrites;
export function noteLocalWrite(): void {
  localWrites += 1;
}

export async function currentVersion(db: Kysely<Database> | Transaction<Database>): Promise<number> {
  const row = await db.selectFrom('sync_counter').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.version);
}

/**
 * The time a write is stamped with: the database's transaction time, the same clock as the
 * `default now()` of every created_at, so one transaction's rows share one instant.
 */
export const writeTime = () => sql<Date>`now()`;

import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

// Versions without a global lock (decision 189). Every writing transaction takes one version from the
// sequence sync_versions (migration 2026-11-29-0350) and holds two shared advisory locks until it ends:
// "about to take a version", taken before nextval, and one on the version it took. No writer waits for
// another. A pull hands out as its cursor only the horizon: the highest version below which no
// transaction is still open (syncHorizon), so a version that commits later is always above it.

/**
 * The version every row written by this transaction carries: the same on every call within one
 * transaction. Call it inside the writing transaction.
 */
export async function nextVersion(trx: Transaction<Database>): Promise<number> {
  noteLocalWrite();
  const { rows } = await sql<{ version: string }>`select sync_next_version() as version`.execute(trx);
  return Number(rows[0]!.version);
}

/**
 * `count` more versions for this transaction, each above its own (nextVersion): for rows one transaction
 * writes that a pull may hand out on separate pages. They are safe because the transaction's own version,
 * the lowest of them, holds the horizon below all of them until it commits.
 */
export async function moreVersions(trx: Transaction<Database>, count: number): Promise<number[]> {
  await nextVersion(trx);
  const { rows } = await sql<{ version: string }>`select nextval('sync_versions') as version from generate_series(1, ${count}) order by 1`.execute(trx);
  return rows.map((row) => Number(row.version));
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

/** How long a pull waits for the writing transactions open when it asked (below), at most. */
export const PULL_WAIT_MS = 500;

export interface SyncHorizon {
  /** Every version up to here is committed or rolled back, and no transaction can take one again. */
  horizon: number;
  /** The last version taken: a cursor above it comes from another database. */
  latest: number;
}

/**
 * The cursor a pull may hand out. Asked before the pull's snapshot is taken (not inside it): every
 * version up to the horizon has ended by then, so that snapshot sees all of them. Waits up to `waitMs`
 * for the transactions that held versions when it was asked, so a device sees each write committed
 * before it pulled; a longer one holds the horizon below its version until it ends.
 */
export async function syncHorizon(db: Kysely<Database>, waitMs = PULL_WAIT_MS): Promise<SyncHorizon> {
  const { rows } = await sql<{ horizon: string; latest: string }>`select horizon, latest from sync_horizon(${waitMs}::int)`.execute(db);
  return { horizon: Number(rows[0]!.horizon), latest: Number(rows[0]!.latest) };
}

/** The last version taken (the write rate's gauge), whether or not its transaction has ended. */
export async function currentVersion(db: Kysely<Database> | Transaction<Database>): Promise<number> {
  const { rows } = await sql<{ latest: string }>`select case when is_called then last_value else last_value - 1 end as latest from sync_versions`.execute(db);
  return Number(rows[0]!.latest);
}

/**
 * Text that changes whenever a versioned write commits: the last version taken and the transactions
 * still holding one. Read before a snapshot, equal text read later proves that nothing versioned was
 * committed in between (decisions 071, 073).
 */
export const versionToken = sql<string>`(select sync_token())`;

export async function readVersionToken(db: Kysely<Database> | Transaction<Database>): Promise<string> {
  const { rows } = await sql<{ token: string }>`select ${versionToken} as token`.execute(db);
  return rows[0]!.token;
}

/**
 * The time a write is stamped with: the database's transaction time, the same clock as the
 * `default now()` of every created_at, so one transaction's rows share one instant.
 */
export const writeTime = () => sql<Date>`now()`;

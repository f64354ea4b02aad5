import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// The horizon counts writers only (decision 253). sync_horizon() waits for an open writer by taking that
// writer's version lock for an instant; sync_open_versions() counted every granted lock in the schema's
// range as an open version, that instant included, so a pull looking while another held it waited for a
// version that had already committed. With many devices pulling while orders were placed, the pulls
// queued one behind the other for the whole wait and answered the version below the write (the soak of
// decision 248: nearly every pull 503 once orders were placed). A writer holds its "about to take a
// version" lock (offset 0) for its whole transaction and a pull never takes it: only a transaction
// holding it is a writer.

export async function up(db: Db): Promise<void> {
  const named = await sql<{ keys: string }>`
    select (('sync_versions'::regclass::oid::bigint % 8388608) * 1099511627776)::text as keys`.execute(db);
  const keysOfSchema = sql.raw(String(BigInt(named.rows[0]!.keys)));
  await openVersions(db, keysOfSchema, sql.raw('where announced'));
}

export async function down(db: Db): Promise<void> {
  const named = await sql<{ keys: string }>`
    select (('sync_versions'::regclass::oid::bigint % 8388608) * 1099511627776)::text as keys`.execute(db);
  await openVersions(db, sql.raw(String(BigInt(named.rows[0]!.keys))), sql.raw('where true'));
}

/** sync_open_versions() of migration 0350, its oldest version taken over the transactions `counted` names. */
async function openVersions(db: Db, keysOfSchema: ReturnType<typeof sql.raw>, counted: ReturnType<typeof sql.raw>): Promise<void> {
  await sql`
    create or replace function sync_open_versions(out oldest bigint, out unplaced int, out writers text) language sql volatile as $fn$
      with keys as (select ${keysOfSchema} as base),
      held as (
        select l.virtualtransaction as vxid, ((l.classid::bigint << 32) | l.objid::bigint) - keys.base as offset_key
        from pg_locks l, keys
        where l.locktype = 'advisory' and l.objsubid = 1 and l.granted
          and l.database = (select oid from pg_database where datname = current_database())
          and ((l.classid::bigint << 32) | l.objid::bigint) between keys.base and keys.base + 1099511627775
      ),
      per_writer as (
        select vxid, bool_or(offset_key = 0) as announced, min(offset_key) filter (where offset_key > 0) as version
        from held group by vxid
      )
      select min(version) filter (${counted}), (count(*) filter (where announced and version is null))::int,
             coalesce(string_agg(vxid, ',' order by vxid) filter (where announced), '')
      from per_writer
    $fn$`.execute(db);
}

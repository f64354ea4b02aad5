import { sql, type Kysely, type RawBuilder } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Versions without a global lock (issue 29, decision 189). A writing transaction takes its version from
// the sequence sync_versions and holds, until it ends, two shared advisory locks of this schema: one
// ("about to take a version") taken before nextval, one on the version itself taken right after. A pull
// asks sync_horizon() for the highest version below which no transaction is still open: the sequence's
// last value read first, then pg_locks; a transaction seen between its two locks makes it look again.
// Shared locks never wait for each other, so writers only meet at the sequence, which no one holds.

// The advisory keys of one schema: (the sequence's oid mod 2^23) * 2^40, plus the version (0: about to
// take one). Another schema's keys differ, so its writers never hold this one's pulls back. The keys and
// the sequence's qualified name are written into the functions, whatever the caller's search_path.

export async function up(db: Db): Promise<void> {
  // The sequence goes on from the counter: every version handed out before stays below every new one,
  // so a device's cursor from before the upgrade is still a cursor.
  const counter = await sql<{ version: string }>`select version from sync_counter where id = 1`.execute(db);
  const start = Number(counter.rows[0]?.version ?? 0) + 1;
  await sql`create sequence sync_versions as bigint minvalue 1 start with ${sql.lit(start)}`.execute(db);
  // Dropped, not left behind: a process still running the old code fails its writes instead of
  // stamping rows with versions below a cursor already handed out.
  await sql`drop table sync_counter`.execute(db);
  const named = await sql<{ schema: string; seq: string; keys: string }>`
    select quote_ident(current_schema()) as schema, quote_ident(current_schema()) || '.sync_versions' as seq,
           (('sync_versions'::regclass::oid::bigint % 8388608) * 1099511627776)::text as keys`.execute(db);
  const names: Names = {
    seq: sql.raw(named.rows[0]!.seq),
    seqName: sql.lit(named.rows[0]!.seq),
    openVersions: sql.raw(`${named.rows[0]!.schema}.sync_open_versions()`),
    keysOfSchema: sql.raw(String(BigInt(named.rows[0]!.keys))),
  };
  await writerFunction(db, names);
  await readerFunctions(db, names);
}

interface Names {
  seq: RawBuilder<unknown>;
  seqName: RawBuilder<unknown>;
  openVersions: RawBuilder<unknown>;
  keysOfSchema: RawBuilder<unknown>;
}

async function writerFunction(db: Db, { seqName, keysOfSchema }: Names): Promise<void> {
  await sql`
    create function sync_next_version() returns bigint language plpgsql volatile as $fn$
    declare
      keys bigint := ${keysOfSchema};
      taken text := coalesce(current_setting('sync.version', true), '');
      v bigint;
    begin
      -- One version a transaction: a second call answers the first one's.
      if split_part(taken, ':', 1) = keys::text then return split_part(taken, ':', 2)::bigint; end if;
      perform pg_advisory_xact_lock_shared(keys);
      v := nextval(${seqName});
      perform pg_advisory_xact_lock_shared(keys + v);
      perform set_config('sync.version', keys::text || ':' || v::text, true);
      return v;
    end $fn$`.execute(db);
}

async function readerFunctions(db: Db, { seq, openVersions, keysOfSchema }: Names): Promise<void> {
  // Open versions of this schema, each transaction's lowest, and how many transactions are between
  // their two locks (unplaced): read from one consistent copy of the lock table.
  await sql`
    create function sync_open_versions(out oldest bigint, out unplaced int, out writers text) language sql volatile as $fn$
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
      select min(version), (count(*) filter (where announced and version is null))::int,
             coalesce(string_agg(vxid, ',' order by vxid) filter (where announced), '')
      from per_writer
    $fn$`.execute(db);

  // The cursor a pull may hand out. Waits up to wait_ms for the transactions holding versions taken
  // before it was asked (so a device sees every write committed before its pull), never for later ones.
  await sql`
    create function sync_horizon(wait_ms int, out horizon bigint, out latest bigint) language plpgsql volatile as $fn$
    declare
      asked_at bigint;
      last_taken bigint;
      o record;
      left_ms int;
      deadline timestamptz := clock_timestamp() + make_interval(secs => wait_ms / 1000.0);
      give_up timestamptz := clock_timestamp() + interval '10 seconds';
      lock_timeout_was text := current_setting('lock_timeout');
    begin
      loop
        select case when is_called then last_value else last_value - 1 end into last_taken from ${seq};
        asked_at := coalesce(asked_at, last_taken);
        select * into o from ${openVersions};
        left_ms := ceil(extract(epoch from deadline - clock_timestamp()) * 1000)::int;
        if o.unplaced > 0 then
          -- A writer between its two locks, for microseconds: look again.
          if clock_timestamp() >= give_up then raise exception 'sync_horizon: a version stays taken but not placed'; end if;
          perform pg_sleep(0.0002);
        elsif o.oldest is not null and o.oldest <= asked_at and left_ms > 0 then
          -- Wait, in the lock manager, for the oldest writer open when this was asked to end: its shared
          -- lock on its version goes at its commit. Taken and given back at once (a session lock held for
          -- no statement), so nothing is left behind on a pooled connection.
          begin
            perform set_config('lock_timeout', left_ms::text, true);
            perform pg_advisory_lock(${keysOfSchema} + o.oldest);
            perform pg_advisory_unlock(${keysOfSchema} + o.oldest);
          exception when lock_not_available then
            null;
          end;
          perform set_config('lock_timeout', lock_timeout_was, true);
        else
          horizon := least(coalesce(o.oldest - 1, last_taken), last_taken);
          latest := last_taken;
          return;
        end if;
      end loop;
    end $fn$`.execute(db);

  // Changes when any versioned write commits: the last version taken, then every transaction holding one.
  await sql`
    create function sync_token() returns text language sql volatile as $fn$
      select (select case when is_called then last_value else last_value - 1 end from ${seq})::text
        || '/' || (select writers from ${openVersions})
    $fn$`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`create table sync_counter (id int primary key check (id = 1), version bigint not null)`.execute(db);
  await sql`insert into sync_counter (id, version) select 1, last_value from sync_versions`.execute(db);
  for (const fn of ['sync_token()', 'sync_horizon(int)', 'sync_open_versions()', 'sync_next_version()']) {
    await sql`drop function ${sql.raw(fn)}`.execute(db);
  }
  await sql`drop sequence sync_versions`.execute(db);
}

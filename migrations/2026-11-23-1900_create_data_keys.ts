import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Which data keys this database's sealed passwords and blind indexes were made with (a fingerprint of
// each, never the key): a server started with another key is stopped with a message naming it.
export async function up(db: Db): Promise<void> {
  await sql`
    create table data_keys (
      name text primary key check (name in ('CREDENTIALS_KEY', 'BLIND_INDEX_KEY')),
      key_id text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table data_keys`.execute(db);
}

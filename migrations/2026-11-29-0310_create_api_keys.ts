import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// API keys for resellers and automation (issue 27, decision 173).
// - api_keys: a key belongs to an account (user_id) and acts as it on /api/v1 within its scopes. Only the
//   SHA-256 of the secret is kept (secret_hash, unique: a request finds its key by it); `prefix` is the
//   key's first characters, shown to tell keys apart. A revoked key keeps its row (the audit names it).
export async function up(db: Db): Promise<void> {
  await sql`
    create table api_keys (
      id uuid primary key,
      user_id uuid not null references users (id),
      name text not null check (char_length(name) between 1 and 80),
      prefix text not null,
      secret_hash text not null unique check (secret_hash ~ '^[0-9a-f]{64}$'),
      scopes text[] not null check (cardinality(scopes) > 0),
      created_by uuid references users (id),
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index api_keys_user_idx on api_keys (user_id, created_at desc)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop table api_keys`.execute(db);
}

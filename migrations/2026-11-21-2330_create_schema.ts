import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

const syncedColumns = sql`
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version bigint not null,
  deleted_at timestamptz
`;

export async function up(db: Db): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  // Versions follow commit order: each writing transaction bumps this row, which stays locked until commit.
  await sql`create table sync_counter (id int primary key check (id = 1), version bigint not null)`.execute(db);
  await sql`insert into sync_counter (id, version) values (1, 0)`.execute(db);

  await sql`
    create table users (
      id uuid primary key,
      email text not null,
      display_name text not null default '',
      mobile text not null default '',
      user_role text not null default 'user' check (user_role in ('user', 'moderator', 'admin')),
      ${syncedColumns}
    )`.execute(db);
  await sql`create unique index users_email_key on users (lower(email)) where deleted_at is null`.execute(db);
  await sql`create index users_version_idx on users (version)`.execute(db);

  await sql`
    create table services (
      id uuid primary key,
      title text not null,
      description text not null,
      category text not null,
      features jsonb not null default '[]',
      popular boolean not null default false,
      image text not null default '',
      price text not null,
      delivery_time text not null,
      payment_methods jsonb not null default '[]',
      ${syncedColumns}
    )`.execute(db);
  await sql`create index services_version_idx on services (version)`.execute(db);

  await sql`
    create table wise_stocks (
      id uuid primary key,
      wise_name text not null,
      wise_email text not null,
      wise_password_enc text not null,
      wise_password_index text not null,
      auth_image text not null,
      doc_img1 text not null default '',
      doc_img2 text not null default '',
      user_name text not null,
      user_email text not null default '',
      added_by uuid,
      service_name text not null default 'WiseStock',
      status text not null default 'available'
        check (status in ('available', 'sold', 'active', 'suspended', 'disabled', 'used')),
      sold_to uuid,
      order_id uuid,
      notes text not null default '',
      ${syncedColumns}
    )`.execute(db);
  await sql`create index wise_stocks_version_idx on wise_stocks (version)`.execute(db);
  await sql`create index wise_stocks_status_idx on wise_stocks (status) where deleted_at is null`.execute(db);

  await sql`
    create table orders (
      id uuid primary key,
      product_id uuid not null,
      title text not null,
      description text not null default '',
      category text not null default '',
      image text not null default '',
      price text not null,
      delivery_time text not null default '',
      user_id uuid not null,
      user_email text not null,
      user_name text not null default '',
      payment_status text not null default 'pending'
        check (payment_status in ('pending', 'paid', 'failed', 'refunded')),
      order_status text not null default 'pending'
        check (order_status in ('pending', 'processing', 'completed', 'delivered', 'cancelled')),
      order_date timestamptz not null default now(),
      wise_email text,
      wise_email_index text,
      wise_password_enc text,
      wise_password_index text,
      wise_image text,
      stock_id uuid references wise_stocks (id),
      ${syncedColumns}
    )`.execute(db);
  await sql`create index orders_version_idx on orders (version)`.execute(db);
  await sql`create index orders_user_idx on orders (user_id, created_at desc) where deleted_at is null`.execute(db);
  await sql`create index orders_created_idx on orders (created_at desc, id) where deleted_at is null`.execute(db);
  await sql`create index orders_status_idx on orders (order_status, created_at desc) where deleted_at is null`.execute(db);
  await sql`create index orders_payment_idx on orders (payment_status, created_at desc) where deleted_at is null`.execute(db);
  await sql`
    create index orders_search_idx on orders
    using gin ((lower(id::text || ' ' || title || ' ' || user_email || ' ' || user_name)) gin_trgm_ops)
    where deleted_at is null`.execute(db);
  await sql`create index orders_wise_email_idx on orders (wise_email_index) where wise_email_index is not null`.execute(db);
  await sql`create index orders_wise_password_idx on orders (wise_password_index) where wise_password_index is not null`.execute(db);
  // One inventory account can back one order at most, whatever races the application loses.
  await sql`create unique index orders_stock_key on orders (stock_id) where stock_id is not null`.execute(db);

  await sql`
    create table settings (
      id text primary key,
      value jsonb not null,
      ${syncedColumns}
    )`.execute(db);

  await sql`
    create table audit_log (
      id uuid primary key,
      actor_id uuid,
      actor_email text not null default '',
      action text not null,
      entity text not null,
      entity_id text not null,
      details jsonb not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index audit_log_entity_idx on audit_log (entity, entity_id, created_at desc)`.execute(db);

  // A replayed mutation answers what the first one answered.
  await sql`
    create table idempotency_keys (
      key text not null,
      user_id uuid not null,
      status int not null,
      response jsonb not null,
      created_at timestamptz not null default now(),
      primary key (user_id, key)
    )`.execute(db);

  // The embedded Supabase-compatible auth server's own tables.
  await sql`
    create table auth_users (
      id uuid primary key,
      email text not null,
      encrypted_password text not null,
      user_metadata jsonb not null default '{}',
      last_sign_in_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index auth_users_email_key on auth_users (lower(email))`.execute(db);
  await sql`
    create table auth_sessions (
      id uuid primary key,
      user_id uuid not null references auth_users (id) on delete cascade,
      created_at timestamptz not null default now(),
      refreshed_at timestamptz
    )`.execute(db);
  await sql`
    create table auth_refresh_tokens (
      token_hash text primary key,
      session_id uuid not null references auth_sessions (id) on delete cascade,
      user_id uuid not null references auth_users (id) on delete cascade,
      revoked boolean not null default false,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index auth_refresh_tokens_session_idx on auth_refresh_tokens (session_id)`.execute(db);
}

export async function down(db: Db): Promise<void> {
  for (const table of [
    'auth_refresh_tokens',
    'auth_sessions',
    'auth_users',
    'idempotency_keys',
    'audit_log',
    'settings',
    'orders',
    'wise_stocks',
    'services',
    'users',
    'sync_counter',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}

import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Issue 16, item 4 (decision 069): every kind of delivery. A service says what it delivers (an account,
// as today; a file; a server login; a list of lines). An order delivered with another kind than an
// account keeps it apart from the Wise columns: its kind, what may be shown (host, port, user; the
// file's private reference, name and size; how many lines), the secret sealed with the credentials key
// (a server password, the lines), and a blind index of each secret for the duplicate checks.
export async function up(db: Db): Promise<void> {
  await sql`
    alter table services add column delivery_kind text not null default 'account'
      check (delivery_kind in ('account', 'file', 'server', 'lines'))`.execute(db);
  await sql`
    alter table orders
      add column delivery_kind text check (delivery_kind in ('file', 'server', 'lines')),
      add column delivery_details jsonb,
      add column delivery_secret_enc text,
      add column delivery_secret_indexes text[]`.execute(db);
  await sql`create index orders_delivery_secret_indexes_idx on orders using gin (delivery_secret_indexes) where deleted_at is null`.execute(db);

  // The warranty window starts at the first delivery of any kind.
  await sql`
    create or replace function orders_first_delivery() returns trigger language plpgsql as $$
    begin
      if (new.wise_email is not null or new.delivery_kind is not null) and new.delivered_at is null then
        new.delivered_at := now();
        new.warranty_ends_at := (
          select case when s.warranty_days > 0 then now() + make_interval(days => s.warranty_days) end
          from services s where s.id = new.product_id
        );
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`drop trigger orders_first_delivery on orders`.execute(db);
  await sql`
    create trigger orders_first_delivery before insert or update of wise_email, delivery_kind on orders
    for each row execute function orders_first_delivery()`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`drop trigger orders_first_delivery on orders`.execute(db);
  await sql`
    create or replace function orders_first_delivery() returns trigger language plpgsql as $$
    begin
      if new.wise_email is not null and new.delivered_at is null then
        new.delivered_at := now();
        new.warranty_ends_at := (
          select case when s.warranty_days > 0 then now() + make_interval(days => s.warranty_days) end
          from services s where s.id = new.product_id
        );
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger orders_first_delivery before insert or update of wise_email on orders
    for each row execute function orders_first_delivery()`.execute(db);
  await sql`drop index orders_delivery_secret_indexes_idx`.execute(db);
  await sql`
    alter table orders drop column delivery_kind, drop column delivery_details, drop column delivery_secret_enc,
      drop column delivery_secret_indexes`.execute(db);
  await sql`alter table services drop column delivery_kind`.execute(db);
}

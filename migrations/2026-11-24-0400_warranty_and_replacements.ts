import { sql, type Kysely } from 'kysely';

// Frozen: never import application code here, never edit once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on an untyped database
type Db = Kysely<any>;

// Issue 16, items 8 and 9 (decisions 063, 064): a service's warranty window; on an order, when it was first
// delivered and until when a problem can be reported, the customer's problem report and its outcome, and
// the deliveries it had before (replaced or rotated, passwords still sealed); on a stock, that it was
// replaced as faulty, after which it can never be available again.
export async function up(db: Db): Promise<void> {
  await sql`alter table services add column warranty_days integer not null default 0 check (warranty_days between 0 and 3650)`.execute(db);

  await sql`
    alter table orders
      add column delivered_at timestamptz,
      add column warranty_ends_at timestamptz,
      add column report_status text check (report_status in ('open', 'replaced', 'declined')),
      add column report_reason text,
      add column report_note text not null default '',
      add column report_image text,
      add column reported_at timestamptz,
      add column report_reply text not null default '',
      add column report_resolved_at timestamptz,
      add column delivery_history jsonb not null default '[]',
      add column credentials_rotated_at timestamptz`.execute(db);
  await sql`create index orders_report_idx on orders (report_status, created_at desc) where deleted_at is null and report_status is not null`.execute(db);

  // The window starts at the first delivery, however it happens (typed, from stock, automatically), and
  // lasts the warranty the service had then: set here, so no delivery path can forget it.
  await sql`
    create function orders_first_delivery() returns trigger language plpgsql as $$
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
  // Orders delivered before: their last change is the best known delivery time; no warranty was promised.
  await sql`update orders set delivered_at = updated_at where wise_email is not null and delivered_at is null`.execute(db);

  await sql`alter table wise_stocks add column faulty_at timestamptz`.execute(db);
  await sql`alter table wise_stocks add constraint wise_stocks_faulty_never_available check (faulty_at is null or status <> 'available')`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`alter table wise_stocks drop constraint wise_stocks_faulty_never_available`.execute(db);
  await sql`alter table wise_stocks drop column faulty_at`.execute(db);
  await sql`drop trigger orders_first_delivery on orders`.execute(db);
  await sql`drop function orders_first_delivery()`.execute(db);
  await sql`drop index orders_report_idx`.execute(db);
  await sql`
    alter table orders
      drop column delivered_at, drop column warranty_ends_at, drop column report_status, drop column report_reason,
      drop column report_note, drop column report_image, drop column reported_at, drop column report_reply,
      drop column report_resolved_at, drop column delivery_history, drop column credentials_rotated_at`.execute(db);
  await sql`alter table services drop column warranty_days`.execute(db);
}

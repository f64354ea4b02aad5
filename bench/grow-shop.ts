import { sql, type Kysely } from 'kysely';
import type { Database } from '../edge-api/src/db/schema.ts';
import { createSecrets, decodeKey, type Secrets } from '../edge-api/src/lib/secrets.ts';
import { loadOrCreateLocalKeys } from '../edge-api/src/local-keys.ts';

/** Distinct delivered credentials sealed by the app's own code; delivered orders take them in turn. */
const SEALED_CREDENTIALS = 2_000;
/** Customers the generated orders belong to, besides the demo customer's share. */
const CUSTOMERS = 50_000;
/** One order in this many is the demo customer's (a long My Orders history). */
const DEMO_CUSTOMER_SHARE = 50;
/** Orders newer than this are still moving (pending, processing); older ones have mostly settled. */
const OPEN_MINUTES = 3 * 24 * 60;

/** The app's own Secrets for a data directory (its keys.json), as node-server.ts builds them. */
export async function secretsOf(dataDir: string): Promise<Secrets> {
  const keys = await loadOrCreateLocalKeys(dataDir);
  return createSecrets(decodeKey(keys.credentialsKey, 'CREDENTIALS_KEY'), decodeKey(keys.blindIndexKey, 'BLIND_INDEX_KEY'));
}

/** `count` delivered logins, sealed and blind-indexed as the app stores a delivered order's. */
async function sealedCredentials(secrets: Secrets, count: number) {
  const columns = { email: [] as string[], emailIndex: [] as string[], passwordEnc: [] as string[], passwordIndex: [] as string[] };
  for (let i = 0; i < count; i++) {
    const email = `holder${i}@wise-mail.test`;
    const password = `Bench#${(i * 7919).toString(36)}-${i}`;
    columns.email.push(email);
    columns.emailIndex.push(await secrets.blindIndex(email));
    columns.passwordEnc.push(await secrets.encrypt(password));
    columns.passwordIndex.push(await secrets.blindIndex(password));
  }
  return columns;
}

/**
 * Grows the shop to `total` orders with one INSERT ... SELECT generate_series, as Postgres can write them
 * fastest: the secondary indexes of orders are dropped first and built again after (as a restore does),
 * then the table is vacuumed and analysed. The orders are the shop's own services (title, picture,
 * price), one a minute back from now, 50,000 customers with ordinary names plus the demo customer
 * (`customer`, one order in 50), statuses and payments as a settled shop has them (older orders mostly
 * delivered and paid; the last three days still pending and processing), versions from the app's
 * sequence, and every delivered order carrying a Wise login sealed by the app's own Secrets.
 */
export async function growShop(db: Kysely<Database>, dataDir: string, customer: { id: string; email: string }, total: number): Promise<void> {
  const have = Number((await sql<{ n: string }>`select count(*) as n from orders`.execute(db)).rows[0]!.n);
  const add = total - have;
  if (add <= 0) return;
  const started = performance.now();
  const step = (what: string) =>
    console.log(`     grow to ${total.toLocaleString('en-US')}: ${what} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const sealed = await sealedCredentials(await secretsOf(dataDir), SEALED_CREDENTIALS);
  step(`${SEALED_CREDENTIALS} credentials sealed`);
  // Indexes that back a constraint stay (the primary key, the unique stock links).
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
    where t.relname = 'orders' and t.relnamespace = to_regnamespace(current_schema())
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`.execute(db);
  // One transaction: a failure leaves the indexes as they were.
  await db.transaction().execute(async (trx) => {
    await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
    await sql`set local synchronous_commit = off`.execute(trx);
    for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
    await insertOrders(trx, customer, have, add, sealed);
    step(`${add.toLocaleString('en-US')} orders inserted`);
    for (const index of indexes) await sql.raw(index.definition).execute(trx);
    step(`${indexes.length} indexes built`);
  });
  // A bulk load leaves no visibility map: built now, as autovacuum would on a live table.
  await sql`vacuum analyze orders`.execute(db);
  step('vacuumed and analysed');
}

async function insertOrders(
  db: Kysely<Database>,
  customer: { id: string; email: string },
  have: number,
  add: number,
  sealed: Awaited<ReturnType<typeof sealedCredentials>>,
): Promise<void> {
  await sql`
    with services as (
      select array_agg(id order by created_at) as id, array_agg(title order by created_at) as title,
             array_agg(description order by created_at) as description, array_agg(category order by created_at) as category,
             array_agg(image order by created_at) as image, array_agg(price order by created_at) as price,
             array_agg(delivery_time order by created_at) as delivery_time, array_agg(warranty_days order by created_at) as warranty_days,
             count(*)::int as size
      from services where deleted_at is null
    ),
    names as (
      select array['Rahim', 'Karim', 'Sara', 'Nadia', 'Tanvir', 'Mim', 'Arif', 'Shakib', 'Farhana', 'Imran', 'Ayesha', 'Rafi',
                   'Sumaiya', 'Hasan', 'Jannat', 'Mahmud', 'Tasnim', 'Rakib', 'Nusrat', 'Sabbir', 'John', 'Maria', 'Ahmed', 'Fatima',
                   'Omar', 'Lina', 'Carlos', 'Ana', 'Wei', 'Mei', 'Ivan', 'Olga', 'Liam', 'Emma', 'Noah', 'Ava', 'Yusuf', 'Zara',
                   'Tariq', 'Leila'] as first,
             array['Uddin', 'Khan', 'Islam', 'Hossain', 'Ahmed', 'Akter', 'Rahman', 'Chowdhury', 'Sarkar', 'Miah', 'Begum',
                   'Sheikh', 'Das', 'Roy', 'Paul', 'Smith', 'Garcia', 'Silva', 'Chen', 'Wang', 'Petrov', 'Ivanova', 'Brown',
                   'Wilson', 'Lopez', 'Haddad', 'Nasser', 'Kaya', 'Yilmaz', 'Costa', 'Santos', 'Kim', 'Park', 'Singh', 'Patel',
                   'Gupta', 'Ali', 'Hassan', 'Mensah', 'Okafor'] as last,
             array['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'proton.me', 'icloud.com', 'mail.ru', 'live.com'] as domain
    ),
    sealed as (
      select ${sealed.email}::text[] as email, ${sealed.emailIndex}::text[] as email_index,
             ${sealed.passwordEnc}::text[] as password_enc, ${sealed.passwordIndex}::text[] as password_index
    ),
    -- n = 1 is the newest; m its minutes back from now; c its customer; r a stable pseudo-random 0..99.
    numbered as (
      select n, ${have}::int + n as m, ((n::bigint * 7919) % ${CUSTOMERS})::int as c, ((n::bigint * 2654435761) % 100)::int as r,
             now() - make_interval(mins => ${have}::int + n) as at
      from generate_series(${add}::int, 1, -1) as n
    ),
    shaped as (
      select numbered.*,
             case when m < ${OPEN_MINUTES} then (array['pending', 'processing', 'completed', 'delivered', 'cancelled'])[1 + r % 5]
                  when r < 3 then 'pending' when r < 7 then 'processing' when r < 15 then 'cancelled' when r < 30 then 'completed'
                  else 'delivered' end as status,
             1 + (n * 31) % services.size as s
      from numbered, services
    )
    insert into orders (id, product_id, title, description, category, image, price, delivery_time, user_id, user_email, user_name,
                        payment_status, order_status, order_date, created_at, updated_at, delivered_at, warranty_ends_at,
                        wise_email, wise_email_index, wise_password_enc, wise_password_index, payment_method, version)
    select gen_random_uuid(), services.id[s], services.title[s], services.description[s], services.category[s], services.image[s],
           services.price[s], services.delivery_time[s],
           case when n % ${DEMO_CUSTOMER_SHARE} = 0 then ${customer.id}::uuid else md5('bench-customer-' || c)::uuid end,
           case when n % ${DEMO_CUSTOMER_SHARE} = 0 then ${customer.email}
                else lower(first[1 + c % 40]) || '.' || lower(last[1 + (c / 40) % 40]) || (c / 1600) || '@' || domain[1 + c % 8] end,
           case when n % ${DEMO_CUSTOMER_SHARE} = 0 then 'Demo Customer' else first[1 + c % 40] || ' ' || last[1 + (c / 40) % 40] end,
           case status when 'cancelled' then (array['pending', 'failed', 'refunded'])[1 + r % 3]
                       when 'pending' then (array['pending', 'pending', 'paid'])[1 + r % 3]
                       when 'delivered' then case when r = 99 then 'refunded' else 'paid' end
                       else 'paid' end,
           status,
           at, at, at + case when status = 'delivered' then interval '40 minutes' else interval '0' end,
           case when status = 'delivered' then at + interval '40 minutes' end,
           case when status = 'delivered' and services.warranty_days[s] > 0 then at + make_interval(days => services.warranty_days[s]) end,
           case when status = 'delivered' then sealed.email[1 + n % ${SEALED_CREDENTIALS}] end,
           case when status = 'delivered' then sealed.email_index[1 + n % ${SEALED_CREDENTIALS}] end,
           case when status = 'delivered' then sealed.password_enc[1 + n % ${SEALED_CREDENTIALS}] end,
           case when status = 'delivered' then sealed.password_index[1 + n % ${SEALED_CREDENTIALS}] end,
           (array['binance', 'bkash', 'usdt'])[1 + r % 3],
           nextval('sync_versions')
    from shaped, services, names, sealed`.execute(db);
}

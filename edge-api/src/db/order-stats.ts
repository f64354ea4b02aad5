import { sql } from 'kysely';
import type { Db } from './handle.ts';

/** The leading number of a price text ('$25.50 USD' -> 25.50), thousands separators ignored; 0 when there is none. */
const priceAmount = sql<number>`coalesce(substring(replace(price, ',', '') from '[0-9]+(?:[.][0-9]+)?')::numeric, 0)`;

export async function orderTotals(db: Db) {
  const row = await db
    .selectFrom('orders')
    .select([
      sql<number>`count(*)`.as('totalOrders'),
      sql<number>`round(coalesce(sum(${priceAmount}) filter (where payment_status = 'paid'), 0), 2)::float8`.as('totalRevenue'),
      sql<number>`count(distinct user_id)`.as('activeCustomers'),
      sql<number>`count(*) filter (where payment_status = 'pending')`.as('pendingPayments'),
      sql<number>`count(*) filter (where order_status = 'delivered')`.as('delivered'),
    ])
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    totalOrders: Number(row.totalOrders),
    totalRevenue: Number(row.totalRevenue),
    activeCustomers: Number(row.activeCustomers),
    pendingPayments: Number(row.pendingPayments),
    delivered: Number(row.delivered),
  };
}

export function latestOrders(db: Db, count: number) {
  return db.selectFrom('orders').selectAll().where('deleted_at', 'is', null).orderBy('created_at', 'desc').orderBy('id').limit(count).execute();
}

const DAY_MS = 86_400_000;

/** Orders and paid revenue per UTC day for the `days` days up to `now`, oldest first, days without orders included. */
export async function dailySeries(db: Db, now: Date, days = 30): Promise<{ date: string; orders: number; revenue: number }[]> {
  const firstDay = Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
  const perDay = await dailyTotals(db, new Date(firstDay));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10);
    return { date, orders: perDay.get(date)?.orders ?? 0, revenue: perDay.get(date)?.revenue ?? 0 };
  });
}

/** Orders and paid revenue per UTC day since `since`; days without orders are absent. */
async function dailyTotals(db: Db, since: Date) {
  const rows = await db
    .selectFrom('orders')
    .select([
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      sql<number>`count(*)`.as('orders'),
      sql<number>`round(coalesce(sum(${priceAmount}) filter (where payment_status = 'paid'), 0), 2)::float8`.as('revenue'),
    ])
    .where('deleted_at', 'is', null)
    .where('created_at', '>=', since)
    .groupBy(sql`1`)
    .execute();
  return new Map(rows.map((row) => [row.day, { orders: Number(row.orders), revenue: Number(row.revenue) }]));
}

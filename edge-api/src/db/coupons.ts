import type { Transaction } from 'kysely';
import type { Coupon } from '../contract/coupons.ts';
import type { CouponRow } from './coupon-schema.ts';
import type { Database } from './schema.ts';
import { afterKey, listCursorAt, type ListKey } from './list-page.ts';
import type { Db } from './handle.ts';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function presentCoupon(row: CouponRow): Coupon {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    amount: row.amount,
    serviceIds: row.service_ids,
    firstOrderOnly: row.first_order_only,
    minTotal: row.min_total,
    maxUses: row.max_uses,
    maxUsesPerCustomer: row.max_uses_per_customer,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    enabled: row.enabled,
    uses: row.uses,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** One page of the coupons newest first, `limit` rows after `after` (decisions 234, 242); read `limit + 1` to know a next page follows. */
export function listCouponsPage(db: Db, limit: number, after?: ListKey) {
  let query = db.selectFrom('coupons').selectAll().select(listCursorAt().as('cursor_at'));
  if (after) query = query.where(afterKey(after));
  return query.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export const findCouponByCode = (db: Db, code: string) => db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();

/** The coupon's row, locked until the transaction ends: two orders taking its last use go one after the other. */
export const lockCouponByCode = (trx: Transaction<Database>, code: string) =>
  trx.selectFrom('coupons').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();

/** How often this customer used the coupon, and whether they have any order not cancelled before. */
export async function customerHistory(db: Db, couponId: string, userId: string, exceptOrder?: string): Promise<{ uses: number; hasOrdered: boolean }> {
  const uses = await db
    .selectFrom('coupon_uses')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('coupon_id', '=', couponId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const earlier = await db
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .where('order_status', '<>', 'cancelled')
    .$if(exceptOrder !== undefined, (q) => q.where('id', '<>', exceptOrder!))
    .limit(1)
    .executeTakeFirst();
  return { uses: Number(uses.n), hasOrdered: !!earlier };
}

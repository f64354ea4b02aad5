import type { Kysely, Transaction } from 'kysely';
import { quoteCoupon, toCents, type CouponQuote } from '../contract/coupons.ts';
import type { CouponRow } from '../db/coupon-schema.ts';
import { customerHistory, findCouponByCode, lockCouponByCode } from '../db/coupons.ts';
import type { Database, ServiceRow } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { badRequest } from '../errors.ts';

/** A coupon refused, said on the field the customer typed it in. */
const refuse = (message: string) => badRequest(`couponCode: ${message}`, [{ path: 'couponCode', message }]);

interface Use {
  service: Pick<ServiceRow, 'id' | 'price'>;
  userId: string;
  now: Date;
  /** The order being placed, left out of the customer's history. */
  orderId?: string;
}

/** Every rule of a coupon that can refuse it for this order; the quote it gives when none does. */
async function check(
  db: Kysely<Database> | Transaction<Database>,
  coupon: CouponRow | undefined,
  use: Use,
): Promise<{ coupon: CouponRow; quote: CouponQuote }> {
  if (!coupon || !coupon.enabled) throw refuse('This coupon code is not valid.');
  if (coupon.starts_at && use.now < coupon.starts_at) throw refuse('This coupon cannot be used yet.');
  if (coupon.ends_at && use.now >= coupon.ends_at) throw refuse('This coupon has expired.');
  if (coupon.max_uses !== null && coupon.uses >= coupon.max_uses) throw refuse('This coupon has been used up.');
  if (coupon.service_ids.length > 0 && !coupon.service_ids.includes(use.service.id)) throw refuse('This coupon is not for this service.');
  const quote = quoteCoupon(use.service.price, coupon);
  if (!quote) throw refuse('This coupon cannot be used on a service without a fixed price.');
  if (coupon.min_total !== null && toCents(quote.listPrice)! < toCents(coupon.min_total)!)
    throw refuse(`This coupon needs an order of at least ${coupon.min_total}.`);
  if (coupon.first_order_only || coupon.max_uses_per_customer !== null) {
    const history = await customerHistory(db, coupon.id, use.userId, use.orderId);
    if (coupon.first_order_only && history.hasOrdered) throw refuse('This coupon is for a first order only.');
    if (coupon.max_uses_per_customer !== null && history.uses >= coupon.max_uses_per_customer)
      throw refuse('You have already used this coupon as often as it allows.');
  }
  return { coupon, quote };
}

/** What a code would take off a service's price for this customer now (nothing is counted). */
export async function previewCoupon(db: Deps['db'], code: string, use: Use): Promise<CouponQuote> {
  return (await check(db, await findCouponByCode(db, code), use)).quote;
}

/**
 * Takes one use of the coupon for an order just written in this transaction, and gives the order its
 * price: the coupon's row is locked first, so when two orders race for its last use one gets it and the
 * other is refused (and its transaction, order included, rolls back).
 */
export async function redeemCoupon(trx: Transaction<Database>, code: string, use: Use & { orderId: string }): Promise<CouponQuote> {
  const { coupon, quote } = await check(trx, await lockCouponByCode(trx, code), use);
  await trx
    .updateTable('coupons')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', coupon.id)
    .execute();
  await trx.insertInto('coupon_uses').values({ order_id: use.orderId, coupon_id: coupon.id, user_id: use.userId, created_at: use.now }).execute();
  return quote;
}

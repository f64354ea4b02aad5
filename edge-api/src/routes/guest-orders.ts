import { Hono, type Context } from 'hono';
import { guestOrderBody, ORDER_TOKEN_HEADER, type GuestOrderPlaced, type GuestOrderState } from '../contract/guest-orders.ts';
import { idParam } from '../contract/fields.ts';
import type { UserRow } from '../db/schema.ts';
import { findOrder } from '../db/orders.ts';
import { findSettingsRow } from '../db/settings.ts';
import { findUserIncludingDeleted, insertUser } from '../db/users.ts';
import { nextVersion } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { ApiError, forbidden, notFound } from '../errors.ts';
import { createFixedWindowLimiter, type RateLimiter } from '../lib/rate-limit.ts';
import { validate } from '../lib/validate.ts';
import type { AppEnv } from '../middleware/session.ts';
import { placeOrderIn } from '../operations/place-order.ts';
import { toSiteSettings } from '../presenters/settings.ts';

/** Orders with just an email per caller IP in an hour, and per address in an hour (decision 177). */
export const GUEST_ORDERS_PER_IP_PER_HOUR = 20;
export const GUEST_ORDERS_PER_ADDRESS_PER_HOUR = 5;
/** How long the placing device may read the order's state. */
export const STATUS_TOKEN_HOURS = 24;

const HOUR_MS = 60 * 60_000;
const OFF = 'This shop takes orders from signed-in customers: create an account or sign in to order.';

const sha256 = async (text: string) => Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');

async function spend(c: Context, limiter: RateLimiter, key: string): Promise<void> {
  const result = await limiter.hit(key);
  if (!result.allowed) {
    c.header('Retry-After', String(result.retryAfterSeconds));
    throw new ApiError('rate_limited', `Too many orders: try again in ${Math.ceil(result.retryAfterSeconds / 60)} minutes`);
  }
}

/** The user record of the address's account: made (a customer, no mobile yet) when it has none. */
async function recordOf(deps: Deps, userId: string, email: string): Promise<UserRow> {
  const existing = await findUserIncludingDeleted(deps.db, userId);
  if (existing) {
    if (existing.deleted_at) throw forbidden(OFF);
    return existing;
  }
  const name = email.split('@')[0]!.slice(0, 60) || 'Customer';
  return deps.db.transaction().execute(async (trx) => {
    const made = await insertUser(trx, { id: userId, email, displayName: name, mobile: '', role: 'user' }, await nextVersion(trx));
    return made ?? (await findUserIncludingDeleted(trx, userId))!;
  });
}

const stateOf = (
  row: {
    id: string;
    title: string;
    price: string;
    payment_method: string | null;
    order_status: GuestOrderState['orderStatus'];
    payment_status: GuestOrderState['paymentStatus'];
    created_at: Date;
  },
  until: Date,
): GuestOrderState => ({
  id: row.id,
  title: row.title,
  price: row.price,
  paymentMethod: row.payment_method,
  orderStatus: row.order_status,
  paymentStatus: row.payment_status,
  createdAt: row.created_at.toISOString(),
  statusUntil: until.toISOString(),
});

/**
 * /api/guest-orders (decision 177): a signed-out visitor orders with just an email, when the shop allows
 * it. The answer is the same whether the address had an account: the order's state and a token for the
 * placing device. The order itself, credentials included, is seen only after signing in through the
 * mailed link.
 */
export function guestOrderRoutes(deps: Deps) {
  const window = (name: string, limit: number) => createFixedWindowLimiter({ db: deps.db, name, limit, windowMs: HOUR_MS, clock: deps.clock });
  const perIp = window('api.guest_orders_ip', GUEST_ORDERS_PER_IP_PER_HOUR);
  const perAddress = window('api.guest_orders_address', GUEST_ORDERS_PER_ADDRESS_PER_HOUR);
  return new Hono<AppEnv>()
    .post('/', validate('json', guestOrderBody), async (c) => {
      c.header('Cache-Control', 'no-store');
      const body = c.req.valid('json');
      const settings = toSiteSettings((await findSettingsRow(deps.db))?.value);
      if (!settings.guestCheckout || !deps.guestAccounts) throw forbidden(OFF);
      const email = body.email.toLowerCase();
      await spend(c, perIp, deps.clientIp?.(c) ?? 'unknown');
      await spend(c, perAddress, email);
      const me = await recordOf(deps, await deps.guestAccounts.ensure(email), email);
      const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
      const until = new Date(deps.clock().getTime() + STATUS_TOKEN_HOURS * HOUR_MS);
      const input = { id: body.id ?? crypto.randomUUID(), productId: body.productId, note: body.note ?? '', paymentMethod: body.paymentMethod, guest: true };
      const row = await deps.db.transaction().execute(async (trx) => {
        const placed = await placeOrderIn(trx, deps, me, input);
        // A replay gets a fresh token too: the device that sent it lost the first answer.
        return trx
          .updateTable('orders')
          .set({ status_token_hash: await sha256(token), status_token_expires_at: until })
          .where('id', '=', placed.row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      // After the answer's work is done; its failure is logged, the order stands (the buyer can ask again from Sign In).
      void deps.guestAccounts
        .mailSignIn(email)
        .catch((error: unknown) => deps.logger.error('guest order: the sign-in link was not mailed', { orderId: row.id, error: String(error) }));
      return c.json<GuestOrderPlaced>({ order: stateOf(row, until), statusToken: token }, 201);
    })
    .get('/:id', validate('param', idParam), async (c) => {
      c.header('Cache-Control', 'no-store');
      const token = c.req.header(ORDER_TOKEN_HEADER) ?? '';
      const row = await findOrder(deps.db, c.req.valid('param').id);
      // One answer for an unknown order, a wrong token and a token run out: nothing tells them apart.
      const valid =
        row && token !== '' && row.status_token_hash === (await sha256(token)) && row.status_token_expires_at && row.status_token_expires_at > deps.clock();
      if (!valid) throw notFound('Order');
      return c.json<GuestOrderState>(stateOf(row, row.status_token_expires_at!));
    });
}

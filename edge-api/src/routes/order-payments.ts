import { Hono } from 'hono';
import { idParam } from '../contract/fields.ts';
import { startPaymentBody } from '../contract/payment-requests.ts';
import { findOrder } from '../db/orders.ts';
import type { Deps } from '../deps.ts';
import { forbidden, notFound } from '../errors.ts';
import { createFixedWindowLimiter } from '../lib/rate-limit.ts';
import { validate } from '../lib/validate.ts';
import { isStaff, requireRole, requireStaff, type AppEnv } from '../middleware/session.ts';
import { emptyReport, reconcileOpen, watchTron } from '../payments/reconcile.ts';
import { afterPayments } from '../payments/round.ts';
import { startPayment } from '../payments/start.ts';
import { presentOrder } from '../presenters/orders.ts';
import { presentPaymentEvent } from '../presenters/payments.ts';

/** "Check now" asks a rail for a caller at most this often in 10 minutes (the payment page asks every few seconds while open). */
const CHECKS_PER_10_MIN = 200;

/** /api/orders/{id}/payment…: paying an order on a rail, asking whether it arrived, and (staff) its payment events. */
export function orderPaymentRoutes(deps: Deps) {
  const checks = createFixedWindowLimiter({ db: deps.db, name: 'api.payment_checks', limit: CHECKS_PER_10_MIN, windowMs: 10 * 60_000, clock: deps.clock });
  const asOwner = async (id: string) => presentOrder((await findOrder(deps.db, id))!, 'owner', deps.secrets, deps.blobs);
  return new Hono<AppEnv>()
    .post('/:id/payment', requireRole(), validate('param', idParam), validate('json', startPaymentBody), async (c) => {
      const { id } = c.req.valid('param');
      await startPayment(deps, c.get('user'), id, c.req.valid('json').rail, new URL(c.req.url).origin);
      c.header('Cache-Control', 'no-store');
      return c.json(await asOwner(id));
    })
    .post('/:id/payment/check', requireRole(), validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      const user = c.get('user');
      const order = await findOrder(deps.db, id);
      if (!order) throw notFound('Order');
      if (order.user_id !== user.id && !isStaff(user)) throw forbidden();
      const open = await deps.db.selectFrom('payment_intents').select('rail').where('order_id', '=', id).where('status', '=', 'open').executeTakeFirst();
      // Past the budget the order is answered as it stands: the minute's round still asks the rail.
      if (open && (await checks.hit(user.id)).allowed) {
        if (open.rail === 'usdt_trc20') await watchTron(deps, emptyReport());
        else await reconcileOpen(deps, emptyReport(), id);
        await afterPayments(deps);
      }
      c.header('Cache-Control', 'no-store');
      return c.json(await presentOrder((await findOrder(deps.db, id))!, order.user_id === user.id ? 'owner' : 'staff', deps.secrets, deps.blobs));
    })
    .get('/:id/payment-events', requireStaff, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      const rows = await deps.db.selectFrom('payment_events').selectAll().where('order_id', '=', id).orderBy('received_at').orderBy('id').limit(200).execute();
      c.header('Cache-Control', 'no-store');
      return c.json(rows.map(presentPaymentEvent));
    });
}

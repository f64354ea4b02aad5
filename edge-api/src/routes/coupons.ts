import { Hono } from 'hono';
import type { z } from 'zod';
import { couponBody, couponQuoteBody } from '../contract/coupons.ts';
import { listPageQuery } from '../contract/list-pages.ts';
import { idParam } from '../contract/fields.ts';
import { recordAudit } from '../db/audit.ts';
import { listCouponsPage, presentCoupon } from '../db/coupons.ts';
import { findService } from '../db/services.ts';
import type { Deps } from '../deps.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, requireRole, type AppEnv } from '../middleware/session.ts';
import { previewCoupon } from '../operations/coupons.ts';
import { answerListPage } from '../operations/list-page.ts';
import { loadPriceRules, priceFor, totalBeforeCoupon } from '../operations/pricing.ts';

type CouponBody = z.infer<typeof couponBody>;

const columns = (body: CouponBody) => ({
  code: body.code,
  kind: body.kind,
  amount: body.amount,
  service_ids: body.serviceIds,
  first_order_only: body.firstOrderOnly,
  min_total: body.minTotal,
  max_uses: body.maxUses,
  max_uses_per_customer: body.maxUsesPerCustomer,
  starts_at: body.startsAt,
  ends_at: body.endsAt,
  enabled: body.enabled,
});

/** A second coupon with a code already taken: Postgres's unique violation, said on the field. */
const isCodeTaken = (cause: unknown) => (cause as { code?: string } | null)?.code === '23505';
const codeTaken = () => conflict('code: another coupon has this code', [{ path: 'code', message: 'another coupon has this code' }]);

/** /api/coupons/quote (a signed-in customer, before ordering) and /api/admin/coupons (admins; decision 220). */
export function couponRoutes(deps: Deps) {
  return new Hono<AppEnv>().post('/quote', requireRole(), validate('json', couponQuoteBody), async (c) => {
    const { code, productId, quantity = 1 } = c.req.valid('json');
    const service = await findService(deps.db, productId);
    if (!service) throw notFound('Service');
    const userId = c.get('user')!.id;
    // The same total the order would be charged before the coupon (decision 178).
    const priced = priceFor(service.price, quantity, await loadPriceRules(deps.db, service.id, userId));
    if (!priced && quantity !== 1)
      throw badRequest('quantity: this service is sold one at a time', [{ path: 'quantity', message: 'this service is sold one at a time' }]);
    const price = totalBeforeCoupon(service.price, quantity, priced);
    c.header('Cache-Control', 'no-store');
    return c.json(await previewCoupon(deps.db, code, { service: { id: service.id, price }, userId, now: deps.clock() }));
  });
}

export function adminCouponRoutes(deps: Deps) {
  return (
    new Hono<AppEnv>()
      // A page of the coupons, newest first; the next page's cursor in X-Next-Cursor (decision 242).
      .get('/', requireAdmin, validate('query', listPageQuery), async (c) => {
        c.header('Cache-Control', 'no-store');
        const rows = await answerListPage(c, c.req.valid('query'), (limit, after) => listCouponsPage(deps.db, limit, after));
        return c.json({ coupons: rows.map(presentCoupon) });
      })
      .post('/', requireAdmin, validate('json', couponBody), async (c) => {
        const body = c.req.valid('json');
        const now = deps.clock();
        const row = await deps.db
          .transaction()
          .execute(async (trx) => {
            const created = await trx
              .insertInto('coupons')
              .values({ id: crypto.randomUUID(), ...columns(body), created_at: now, updated_at: now })
              .returningAll()
              .executeTakeFirstOrThrow();
            await recordAudit(trx, c.get('user'), { action: 'coupon.create', entity: 'coupon', entityId: created.id, details: { code: body.code } });
            return created;
          })
          .catch((cause: unknown) => {
            throw isCodeTaken(cause) ? codeTaken() : cause;
          });
        return c.json(presentCoupon(row), 201);
      })
      .put('/:id', requireAdmin, validate('param', idParam), validate('json', couponBody), async (c) => {
        const { id } = c.req.valid('param');
        const body = c.req.valid('json');
        const row = await deps.db
          .transaction()
          .execute(async (trx) => {
            const updated = await trx
              .updateTable('coupons')
              .set({ ...columns(body), updated_at: deps.clock() })
              .where('id', '=', id)
              .returningAll()
              .executeTakeFirst();
            if (!updated) throw notFound('Coupon');
            await recordAudit(trx, c.get('user'), {
              action: 'coupon.update',
              entity: 'coupon',
              entityId: id,
              details: { code: body.code, enabled: body.enabled },
            });
            return updated;
          })
          .catch((cause: unknown) => {
            throw isCodeTaken(cause) ? codeTaken() : cause;
          });
        return c.json(presentCoupon(row));
      })
  );
}

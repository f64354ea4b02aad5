import { Hono } from 'hono';
import * as z from 'zod';
import { formatCents, toCents } from '../contract/coupons.ts';
import { idParam } from '../contract/fields.ts';
import { customerPricesBody, priceTiersBody, type CustomerPrices, type PriceTier } from '../contract/pricing.ts';
import { recordAudit } from '../db/audit.ts';
import type { Database } from '../db/schema.ts';
import { findService } from '../db/services.ts';
import { findUser } from '../db/users.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, type AppEnv } from '../middleware/session.ts';
import type { Kysely } from 'kysely';

const readTiers = async (db: Kysely<Database>, serviceId: string): Promise<PriceTier[]> =>
  (await db.selectFrom('service_price_tiers').selectAll().where('service_id', '=', serviceId).orderBy('min_quantity').execute()).map((t) => ({
    minQuantity: t.min_quantity,
    unitPrice: formatCents(Number(t.unit_cents)),
  }));

async function readCustomerPrices(db: Kysely<Database>, userId: string): Promise<CustomerPrices> {
  const rows = await db.selectFrom('customer_prices').selectAll().where('user_id', '=', userId).execute();
  const everything = rows.find((row) => row.service_id === null);
  return {
    percentOff: everything?.percent_off == null ? null : Number(everything.percent_off),
    services: rows.filter((row) => row.service_id !== null).map((row) => ({ serviceId: row.service_id!, unitPrice: formatCents(Number(row.unit_cents)) })),
  };
}

/**
 * /api/admin/pricing (decision 178), admins only: a service's quantity tiers and a customer's own prices.
 * Each PUT replaces the whole set; orders already placed keep the price they were placed at.
 */
export function pricingRoutes(deps: Deps) {
  const userParam = z.object({ id: z.uuid({ message: 'must be a UUID' }) });
  return new Hono<AppEnv>()
    .get('/services/:id/tiers', requireAdmin, validate('param', idParam), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json({ tiers: await readTiers(deps.db, c.req.valid('param').id) });
    })
    .put('/services/:id/tiers', requireAdmin, validate('param', idParam), validate('json', priceTiersBody), async (c) => {
      const { id } = c.req.valid('param');
      const { tiers } = c.req.valid('json');
      await deps.db.transaction().execute(async (trx) => {
        if (!(await findService(trx, id))) throw notFound('Service');
        await trx.deleteFrom('service_price_tiers').where('service_id', '=', id).execute();
        if (tiers.length > 0) {
          await trx
            .insertInto('service_price_tiers')
            .values(tiers.map((t) => ({ service_id: id, min_quantity: t.minQuantity, unit_cents: toCents(t.unitPrice)! })))
            .execute();
        }
        await recordAudit(trx, c.get('user'), { action: 'service.price_tiers', entity: 'service', entityId: id, details: { tiers } });
      });
      return c.json({ tiers: await readTiers(deps.db, id) });
    })
    .get('/users/:id', requireAdmin, validate('param', userParam), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await readCustomerPrices(deps.db, c.req.valid('param').id));
    })
    .put('/users/:id', requireAdmin, validate('param', userParam), validate('json', customerPricesBody), async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      await deps.db.transaction().execute(async (trx) => {
        if (!(await findUser(trx, id))) throw notFound('User');
        for (const entry of body.services) if (!(await findService(trx, entry.serviceId))) throw notFound('Service');
        await trx.deleteFrom('customer_prices').where('user_id', '=', id).execute();
        const now = deps.clock();
        const rows = [
          ...(body.percentOff === null
            ? []
            : [{ id: crypto.randomUUID(), user_id: id, service_id: null, unit_cents: null, percent_off: body.percentOff, updated_at: now }]),
          ...body.services.map((entry) => ({
            id: crypto.randomUUID(),
            user_id: id,
            service_id: entry.serviceId,
            unit_cents: toCents(entry.unitPrice)!,
            percent_off: null,
            updated_at: now,
          })),
        ];
        if (rows.length > 0) await trx.insertInto('customer_prices').values(rows).execute();
        await recordAudit(trx, c.get('user'), { action: 'user.prices', entity: 'user', entityId: id, details: body });
      });
      return c.json(await readCustomerPrices(deps.db, id));
    });
}

import { Hono } from 'hono';
import { formatCents } from '../contract/coupons.ts';
import { priceQuoteBody, type PriceQuote } from '../contract/pricing.ts';
import { findService } from '../db/services.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import type { AppEnv } from '../middleware/session.ts';
import { loadPriceRules, priceFor } from '../operations/pricing.ts';

/**
 * POST /api/pricing/quote (decision 232): the unit price and total of a quantity of a service, before
 * ordering, by the one pricing module. A signed-in customer gets their own price too; a signed-out visitor
 * (who may order with just an email, decision 177) the tiers only, as such an order is charged.
 */
export function priceQuoteRoutes(deps: Deps) {
  return new Hono<AppEnv>().post('/quote', validate('json', priceQuoteBody), async (c) => {
    const { productId, quantity } = c.req.valid('json');
    const service = await findService(deps.db, productId);
    if (!service) throw notFound('Service');
    const rules = await loadPriceRules(deps.db, service.id, c.get('user')?.id);
    const tiers = rules.tiers.map((t) => ({ minQuantity: t.minQuantity, unitPrice: formatCents(t.unitCents) }));
    const priced = priceFor(service.price, quantity, rules);
    c.header('Cache-Control', 'no-store');
    const answer: PriceQuote = priced
      ? {
          soldByQuantity: true,
          tiers,
          quantity,
          unitPrice: priced.unitPrice,
          total: priced.total,
          listTotal: priced.listTotal,
          rule: priced.rule.kind,
          ...(priced.rule.minQuantity === undefined ? {} : { minQuantity: priced.rule.minQuantity }),
          ...(priced.rule.percentOff === undefined ? {} : { percentOff: priced.rule.percentOff }),
        }
      : { soldByQuantity: false, tiers: [], quantity: 1, unitPrice: null, total: null, listTotal: null, rule: null };
    return c.json(answer);
  });
}

import { formatCents, toCents } from '../contract/coupons.ts';
import type { Db } from '../db/handle.ts';

/** The rules that may lower a customer's unit price for one service (decision 178). */
export interface PriceRules {
  /** Buy `minQuantity` or more at `unitCents` each. */
  tiers: { minQuantity: number; unitCents: number }[];
  /** An admin's price for this customer: a unit price for this service, or a percentage off everything. */
  customer?: { unitCents: number } | { percentOff: number };
}

/** Which rule set the unit price, and the list unit price it started from: kept on the order as placed. */
export interface PriceRule {
  kind: 'list' | 'tier' | 'customer';
  listUnit: string;
  /** The tier's minimum quantity, or the customer's percentage. */
  minQuantity?: number;
  percentOff?: number;
}

export interface OrderPrice {
  quantity: number;
  unitPrice: string;
  /** unitPrice × quantity: what a coupon then applies to. */
  total: string;
  /** The list unit price × quantity. */
  listTotal: string;
  rule: PriceRule;
}

/**
 * The one price computation (decision 178): the unit price is the lowest of the list price, the tier for
 * the quantity (the largest minimum not above it) and the customer's own price; they are never stacked.
 * A percentage is rounded to the cent in the customer's favour. Undefined when the list price is not a
 * plain number (such a service is sold one at a time, as listed).
 */
export function priceFor(listPrice: string, quantity: number, rules: PriceRules): OrderPrice | undefined {
  const list = toCents(listPrice);
  if (list === undefined) return undefined;
  const candidates: { cents: number; rule: PriceRule }[] = [{ cents: list, rule: { kind: 'list', listUnit: formatCents(list) } }];
  const tier = rules.tiers.filter((t) => t.minQuantity <= quantity).sort((a, b) => b.minQuantity - a.minQuantity)[0];
  if (tier) candidates.push({ cents: tier.unitCents, rule: { kind: 'tier', listUnit: formatCents(list), minQuantity: tier.minQuantity } });
  const own = rules.customer;
  if (own && 'unitCents' in own) candidates.push({ cents: own.unitCents, rule: { kind: 'customer', listUnit: formatCents(list) } });
  if (own && 'percentOff' in own) {
    const off = Math.ceil((list * Math.round(own.percentOff * 100)) / 10_000);
    candidates.push({ cents: Math.max(0, list - off), rule: { kind: 'customer', listUnit: formatCents(list), percentOff: own.percentOff } });
  }
  // The first of the lowest: the list price wins a tie, then the tier.
  const best = candidates.reduce((a, b) => (b.cents < a.cents ? b : a));
  return { quantity, unitPrice: formatCents(best.cents), total: formatCents(best.cents * quantity), listTotal: formatCents(list * quantity), rule: best.rule };
}

/**
 * The total a coupon applies to and the order is charged before it: the list price, once, keeps the
 * service's own text, as before rules existed; else the rule's total.
 */
export const totalBeforeCoupon = (listPrice: string, quantity: number, priced: OrderPrice | undefined): string =>
  !priced || (priced.rule.kind === 'list' && quantity === 1) ? listPrice : priced.total;

/** The stored tiers, lowest minimum first, and one customer's stored prices: the queries both loaders below build on. */
const tierRows = (db: Db) => db.selectFrom('service_price_tiers').select(['service_id', 'min_quantity', 'unit_cents']).orderBy('min_quantity');
const ownPriceRows = (db: Db, userId: string) =>
  db.selectFrom('customer_prices').select(['service_id', 'unit_cents', 'percent_off']).where('user_id', '=', userId);
const toTier = (row: { min_quantity: number; unit_cents: string | number }) => ({ minQuantity: row.min_quantity, unitCents: Number(row.unit_cents) });

type OwnPriceRow = { service_id: string | null; unit_cents: string | number | null; percent_off: string | number | null };

/** One service's rules from its stored tiers and the customer's stored prices (a price for the service before a percentage off everything). */
function rulesFrom(tiers: PriceRules['tiers'], own: OwnPriceRow[], serviceId: string): PriceRules {
  const forService = own.find((row) => row.service_id === serviceId && row.unit_cents !== null);
  const everything = own.find((row) => row.service_id === null && row.percent_off !== null);
  return {
    tiers,
    customer: forService ? { unitCents: Number(forService.unit_cents) } : everything ? { percentOff: Number(everything.percent_off) } : undefined,
  };
}

/**
 * One line of a customer's price list (GET /api/v1/services): `price` is what an order of one is charged
 * (the service's own text when the list price wins, as placeOrderIn keeps it), each tier the unit price an
 * order of that many is charged, listed only when it is below the price of one.
 */
export function priceListEntry(listPrice: string, rules: PriceRules): { price: string; tiers: { minQuantity: number; unitPrice: string }[] } {
  const one = priceFor(listPrice, 1, rules);
  if (!one) return { price: listPrice, tiers: [] };
  const tiers = [...rules.tiers]
    .sort((a, b) => a.minQuantity - b.minQuantity)
    .flatMap(({ minQuantity }) => {
      const at = priceFor(listPrice, minQuantity, rules)!;
      return toCents(at.unitPrice)! < toCents(one.unitPrice)! ? [{ minQuantity, unitPrice: at.unitPrice }] : [];
    });
  return { price: one.rule.kind === 'list' ? listPrice : one.unitPrice, tiers };
}

/**
 * The tiers of a service and this customer's price rules, as stored. No user (a signed-out visitor, or an
 * order placed with just an email, decision 177): the tiers only.
 */
export async function loadPriceRules(db: Db, serviceId: string, userId: string | undefined): Promise<PriceRules> {
  const [tiers, own] = await Promise.all([
    tierRows(db).where('service_id', '=', serviceId).execute(),
    userId
      ? ownPriceRows(db, userId)
          .where((eb) => eb.or([eb('service_id', '=', serviceId), eb('service_id', 'is', null)]))
          .execute()
      : [],
  ]);
  return rulesFrom(tiers.map(toTier), own, serviceId);
}

/** Every service's rules for one customer, read in two queries (a price list: GET /api/v1/services). */
export async function loadAccountPriceRules(db: Db, userId: string): Promise<(serviceId: string) => PriceRules> {
  const [tiers, own] = await Promise.all([tierRows(db).execute(), ownPriceRows(db, userId).execute()]);
  return (serviceId) => rulesFrom(tiers.filter((t) => t.service_id === serviceId).map(toTier), own, serviceId);
}

import * as z from 'zod';
import { uuid } from './fields.ts';

const unitPrice = z
  .string({ error: 'must be a number such as 5 or 4.50' })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, 'must be a number such as 5 or 4.50');

/** PUT /api/admin/pricing/services/:id/tiers: every tier of the service (decision 178), replacing the ones set. */
export const priceTiersBody = z
  .object({
    tiers: z
      .array(
        z
          .object({ minQuantity: z.number().int('must be a whole number').min(2, 'must be at least 2').max(100_000, 'must be at most 100000'), unitPrice })
          .strict(),
      )
      .max(20, 'must have at most 20 tiers')
      .refine((tiers) => new Set(tiers.map((t) => t.minQuantity)).size === tiers.length, { message: 'must name each minimum quantity once' }),
  })
  .strict();

/** PUT /api/admin/pricing/users/:id: a customer's own prices (a reseller's), replacing the ones set. */
export const customerPricesBody = z
  .object({
    /** A percentage off every service; null: none. */
    percentOff: z.number().gt(0, 'must be more than 0').max(100, 'must be at most 100').multipleOf(0.01, 'must have at most two decimals').nullable(),
    /** A unit price per service. */
    services: z
      .array(z.object({ serviceId: uuid, unitPrice }).strict())
      .max(500, 'must have at most 500 services')
      .refine((list) => new Set(list.map((s) => s.serviceId)).size === list.length, { message: 'must name each service once' }),
  })
  .strict();

export interface PriceTier {
  minQuantity: number;
  unitPrice: string;
}

export interface CustomerPrices {
  percentOff: number | null;
  services: { serviceId: string; unitPrice: string }[];
}

/** POST /api/pricing/quote: what this many of a service cost this customer, before ordering (decision 232). */
export const priceQuoteBody = z
  .object({
    productId: uuid,
    quantity: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(10_000, 'must be at most 10000'),
  })
  .strict();

/** The answer: the service's tiers, and the unit price and total for the quantity asked (decision 178's rule). */
export interface PriceQuote {
  /** False when the price is not a plain number: sold one at a time, as listed. */
  soldByQuantity: boolean;
  tiers: PriceTier[];
  quantity: number;
  unitPrice: string | null;
  total: string | null;
  listTotal: string | null;
  rule: 'list' | 'tier' | 'customer' | null;
  minQuantity?: number;
  percentOff?: number;
}

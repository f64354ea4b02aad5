import * as z from 'zod';
import { oneOf, uuid } from './fields.ts';

/** Coupons (issue 32, decision 220): a code worth a percentage or a fixed amount off one order. */
export const couponKinds = ['percent', 'fixed'] as const;
export type CouponKind = (typeof couponKinds)[number];

export interface Coupon {
  id: string;
  code: string;
  kind: CouponKind;
  /** "10" is 10 % for a percentage, 10 of the shop's currency for a fixed amount. */
  amount: string;
  /** The services it is good for; empty: every service. */
  serviceIds: string[];
  firstOrderOnly: boolean;
  minTotal: string | null;
  maxUses: number | null;
  maxUsesPerCustomer: number | null;
  startsAt: string | null;
  endsAt: string | null;
  enabled: boolean;
  /** Orders that used it so far. */
  uses: number;
  createdAt: string;
  updatedAt: string;
}

/** What a coupon does to one order's price: all three as plain decimals with two places. */
export interface CouponQuote {
  code: string;
  listPrice: string;
  discount: string;
  price: string;
}

export const COUPON_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

/** A code as a customer types it: spaces around it and letter case do not matter. */
export const couponCode = z
  .string({ error: 'must be text' })
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(COUPON_CODE_PATTERN, 'must be 3 to 32 letters, digits, - or _'));

const money = z
  .string({ error: 'must be a number such as 5 or 4.50' })
  .trim()
  .regex(/^\d{1,8}(\.\d{1,2})?$/, 'must be a number such as 5 or 4.50')
  .refine((value) => Number(value) > 0, 'must be more than 0');

const when = z.iso.datetime({ offset: true, error: 'must be a date and time such as 2026-12-01T00:00:00Z' }).nullable().default(null);
const count = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1_000_000, 'must be at most 1000000');

/** POST /api/admin/coupons (and, every field given, PUT /api/admin/coupons/{id}). */
export const couponBody = z
  .object({
    code: couponCode,
    kind: oneOf(couponKinds),
    amount: money,
    serviceIds: z.array(uuid).max(200, 'must name at most 200 services').default([]),
    firstOrderOnly: z.boolean({ error: 'must be true or false' }).default(false),
    minTotal: money.nullable().default(null),
    maxUses: count.nullable().default(null),
    maxUsesPerCustomer: count.nullable().default(null),
    startsAt: when,
    endsAt: when,
    enabled: z.boolean({ error: 'must be true or false' }).default(true),
  })
  .strict()
  .refine((body) => body.kind !== 'percent' || Number(body.amount) <= 100, { path: ['amount'], message: 'must be at most 100 for a percentage' })
  .refine((body) => !body.startsAt || !body.endsAt || Date.parse(body.endsAt) > Date.parse(body.startsAt), {
    path: ['endsAt'],
    message: 'must be after the start',
  });

/** POST /api/coupons/quote: what a code takes off a service's price, before ordering. */
export const couponQuoteBody = z
  .object({
    code: couponCode,
    productId: uuid,
    /** How many (decision 178): the coupon applies to the total after the quantity's tier or the customer's price. */
    quantity: z
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(10_000, 'must be at most 10000')
      .optional(),
  })
  .strict();

/** "12.5" -> 1250 cents; undefined unless a plain non-negative decimal of at most two places. */
export function toCents(text: string): number | undefined {
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export const formatCents = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * A coupon applied to a list price: a percentage is rounded to the cent in the customer's favour, a fixed
 * amount never takes the price below 0. Undefined when the price is not a plain number.
 */
export function quoteCoupon(listPrice: string, coupon: { code: string; kind: CouponKind; amount: string }): CouponQuote | undefined {
  const list = toCents(listPrice);
  const amount = toCents(coupon.amount);
  if (list === undefined || amount === undefined) return undefined;
  const discount = Math.min(list, coupon.kind === 'percent' ? Math.ceil((list * amount) / 10_000) : amount);
  return { code: coupon.code, listPrice: formatCents(list), discount: formatCents(discount), price: formatCents(list - discount) };
}

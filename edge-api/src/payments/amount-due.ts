import type { PaymentRail } from '../contract/payments.ts';
import type { OrderRow } from '../db/schema.ts';
import { CENT, MICRO, roundUp, toMicro } from './money.ts';

/**
 * What an order costs, read from its price text as the revenue figure reads it (the leading number,
 * thousands separators ignored), in the currency the text names: taka when it says BDT, Tk, Taka or ৳,
 * US dollars otherwise (the storefront shows prices as "$price USD"). Decision 200.
 *
 * The one place an order's price becomes an amount: a later change to how prices are computed (coupons,
 * tiers, display currencies) replaces this function and nothing else.
 */
export function orderPrice(order: Pick<OrderRow, 'price'>): { amount: bigint; currency: 'USD' | 'BDT' } | undefined {
  const text = order.price.replace(/,/g, '');
  const number = /[0-9]+(?:\.[0-9]+)?/.exec(text)?.[0];
  if (!number) return undefined;
  // More than six decimals in a price is a typo, not an amount: cut to micro-units.
  const [whole, fraction = ''] = number.split('.');
  const amount = toMicro(`${whole}.${fraction.slice(0, 6) || '0'}`);
  if (amount === undefined || amount === 0n) return undefined;
  return { amount, currency: /(\bBDT\b|\bTK\b|\bTaka\b|৳)/i.test(text) ? 'BDT' : 'USD' };
}

/** The rail's currency and how it counts: USDT to the micro-unit, taka to the poisha. */
export const railCurrency: Record<PaymentRail, 'USDT' | 'BDT'> = { usdt_trc20: 'USDT', binance_pay: 'USDT', bkash: 'BDT' };

export type AmountDue = { ok: true; currency: 'USDT' | 'BDT'; amount: bigint } | { ok: false; reason: string };

/**
 * What is due for `order` on `rail`, before any identifying tail (decision 200): USDT is worth one US
 * dollar; taka and dollars convert at the admin's rate (taka per dollar), rounded up to the cent or
 * poisha so the shop is never paid less than its price.
 */
export function amountDue(order: Pick<OrderRow, 'price'>, rail: PaymentRail, bdtPerUsd: string | null): AmountDue {
  const price = orderPrice(order);
  if (!price) return { ok: false, reason: 'This order has no price in numbers, so it cannot be paid automatically. Pay another way, or contact the shop.' };
  const currency = railCurrency[rail];
  const target = currency === 'USDT' ? 'USD' : 'BDT';
  if (price.currency === target) return { ok: true, currency, amount: roundUp(price.amount, CENT) };
  const rate = bdtPerUsd === null ? undefined : toMicro(bdtPerUsd);
  if (!rate) return { ok: false, reason: `The shop has not set a taka rate, so this ${price.currency} price cannot be paid in ${currency} yet.` };
  const amount = price.currency === 'USD' ? (price.amount * rate) / MICRO : (price.amount * MICRO + rate - 1n) / rate;
  return { ok: true, currency, amount: roundUp(amount, CENT) };
}

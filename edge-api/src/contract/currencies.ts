import * as z from 'zod';

/** The one currency the shop keeps accounts and totals in (issue 32 item 4, decision 233). */
export const SHOP_CURRENCY = 'USD';
export const MAX_DISPLAY_CURRENCIES = 30;

/** A currency a customer may see prices in: `rate` units of it per 1 of the shop's currency. */
export interface DisplayCurrency {
  code: string;
  rate: number;
}

export const displayCurrency = z
  .object({
    code: z
      .string({ error: 'must be a three-letter currency code such as EUR' })
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(
        z
          .string()
          .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as EUR')
          .refine((code) => code !== SHOP_CURRENCY, `is the shop's own currency (${SHOP_CURRENCY})`),
      ),
    rate: z
      .number({ error: 'must be a number such as 0.92' })
      .positive('must be more than 0')
      .max(1_000_000, 'must be at most 1000000')
      .refine((rate) => Number.isFinite(rate) && Math.abs(rate * 1e6 - Math.round(rate * 1e6)) < 1e-6, 'must have at most six decimals'),
  })
  .strict();

/** The admin's list (settings.displayCurrencies): each code once. */
export const displayCurrencies = z
  .array(displayCurrency)
  .max(MAX_DISPLAY_CURRENCIES, `must have at most ${MAX_DISPLAY_CURRENCIES} currencies`)
  .refine((list) => new Set(list.map((c) => c.code)).size === list.length, { message: 'must name each currency once' });

/** A price in the shop's currency ("9.99", "10") in a display currency, rounded to the cent; undefined unless a plain number. */
export function convertPrice(price: string, rate: number): number | undefined {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(price)) return undefined;
  return Math.round(Number(price) * rate * 100) / 100;
}

/**
 * A price as a customer who chose a display currency sees it, marked approximate: "≈ €9.20". The shop's
 * own currency (or a price that is not a plain number) is shown as it is, with no mark: the payment step
 * always shows this, what is actually due.
 */
export function formatDisplayPrice(price: string, currency: DisplayCurrency | null, locale = 'en'): string {
  const converted = currency ? convertPrice(price, currency.rate) : undefined;
  if (!currency || converted === undefined) return /^\s*\d/.test(price) ? `$${price.trim()}` : price;
  return `≈ ${new Intl.NumberFormat(locale, { style: 'currency', currency: currency.code }).format(converted)}`;
}

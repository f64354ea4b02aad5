import { customerPricesBody, priceTiersBody, type CustomerPrices, type PriceTier } from '../../../edge-api/src/contract/pricing.ts';
import { checkWith, type FieldProblems } from './form-problems.ts';

/** A tier as typed: both fields text until saved. */
export interface TierRow {
  key: string;
  minQuantity: string;
  unitPrice: string;
}

/** A customer's price for one service, as typed. */
export interface ServicePriceRow {
  key: string;
  serviceId: string;
  unitPrice: string;
}

const key = () => crypto.randomUUID();

export const tierRowsOf = (tiers: readonly PriceTier[]): TierRow[] =>
  tiers.map((t) => ({ key: key(), minQuantity: String(t.minQuantity), unitPrice: t.unitPrice }));
export const blankTier = (): TierRow => ({ key: key(), minQuantity: '', unitPrice: '' });
export const servicePriceRowsOf = (prices: CustomerPrices): ServicePriceRow[] => prices.services.map((s) => ({ key: key(), ...s }));
export const blankServicePrice = (): ServicePriceRow => ({ key: key(), serviceId: '', unitPrice: '' });

/** A whole number as typed, or the text itself so the contract says what is wrong with it. */
const asNumber = (text: string): number | string => (/^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text);

/** The PUT body of a service's tiers, or the problems the API would answer ('tiers.0.minQuantity', 'tiers'). */
export function tiersBody(rows: readonly TierRow[]): { body: { tiers: PriceTier[] } } | { problems: FieldProblems } {
  const body = { tiers: rows.map((row) => ({ minQuantity: asNumber(row.minQuantity) as number, unitPrice: row.unitPrice.trim() })) };
  const problems = checkWith(priceTiersBody, body);
  return Object.keys(problems).length > 0 ? { problems } : { body };
}

/** The PUT body of a customer's prices: a blank percentage is none. */
export function customerPricesBodyOf(percentOff: string, rows: readonly ServicePriceRow[]): { body: CustomerPrices } | { problems: FieldProblems } {
  const body = {
    percentOff: percentOff.trim() === '' ? null : (asNumber(percentOff) as number),
    services: rows.map((row) => ({ serviceId: row.serviceId, unitPrice: row.unitPrice.trim() })),
  };
  const problems = checkWith(customerPricesBody, body);
  return Object.keys(problems).length > 0 ? { problems } : { body };
}

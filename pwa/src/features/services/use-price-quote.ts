import { useEffect, useState } from 'react';
import type { PriceQuote } from '../../../../edge-api/src/contract/pricing.ts';
import { api, unwrap } from '../../lib/api-client.ts';

export interface QuotedQuantity {
  /** How many are ordered. */
  value: number;
  /** The server's price for `value`; null until answered, and when the quote failed (then one is ordered, as listed). */
  quote: PriceQuote | null;
  /** The quantity whose quote failed, after which the order went back to one at the list price; else null. */
  failedAt: number | null;
  set: (quantity: number) => void;
}

/**
 * The quantity of a service sold by quantity, and what it costs this customer (decision 232), asked of the
 * server, which computes every price: the tiers, the unit price and the total. Only the answer to the
 * latest quantity is kept. When the quote for more than one fails (offline, a server error), the quantity
 * goes back to one, ordered at the list price the step shows, rather than ordering many at a price never shown.
 */
export function useQuotedQuantity(productId: string, enabled: boolean): QuotedQuantity {
  const [quantity, setQuantity] = useState(1);
  const [quote, setQuote] = useState<PriceQuote | null>(null);
  const [failedAt, setFailedAt] = useState<number | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    unwrap(api.pricing.quote.$post({ json: { productId, quantity } }))
      .then((answer) => live && setQuote(answer))
      .catch(() => {
        if (!live) return;
        setQuote(null);
        if (quantity > 1) {
          setFailedAt(quantity);
          setQuantity(1);
        }
      });
    return () => {
      live = false;
    };
  }, [productId, quantity, enabled]);
  const set = (value: number) => {
    setQuantity(value);
    setFailedAt(null);
  };
  return { value: quantity, quote: enabled ? quote : null, failedAt, set };
}

/** A service is offered by quantity when the shop set tiers for it. */
export const offeredByQuantity = (quote: PriceQuote | null): quote is PriceQuote & { unitPrice: string; total: string } =>
  !!quote && quote.soldByQuantity && quote.tiers.length > 0 && quote.unitPrice !== null;

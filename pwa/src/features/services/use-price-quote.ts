import { useEffect, useState } from 'react';
import type { PriceQuote } from '../../../../edge-api/src/contract/pricing.ts';
import { api, unwrap } from '../../lib/api-client.ts';

/**
 * What `quantity` of a service costs this customer (decision 232), asked of the server, which computes every
 * price: the tiers, the unit price and the total. Null until answered, and offline (then one is ordered, as
 * listed). Only the answer to the latest quantity is kept.
 */
export function usePriceQuote(productId: string, quantity: number, enabled: boolean): PriceQuote | null {
  const [quote, setQuote] = useState<PriceQuote | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    unwrap(api.pricing.quote.$post({ json: { productId, quantity } }))
      .then((answer) => live && setQuote(answer))
      .catch(() => live && setQuote(null));
    return () => {
      live = false;
    };
  }, [productId, quantity, enabled]);
  return enabled ? quote : null;
}

/** A service is offered by quantity when the shop set tiers for it. */
export const offeredByQuantity = (quote: PriceQuote | null): quote is PriceQuote & { unitPrice: string; total: string } =>
  !!quote && quote.soldByQuantity && quote.tiers.length > 0 && quote.unitPrice !== null;

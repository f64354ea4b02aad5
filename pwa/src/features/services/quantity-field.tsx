import { useId } from 'react';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { PriceQuote } from '../../../../edge-api/src/contract/pricing.ts';
import { inlinePrice } from '../../lib/display-currency.ts';

export const QUANTITY_MAX = 10_000;

/** The tier line of the confirm step: "5 or more: $9.00 each" (in a display currency, "≈ €8.28 ($9.00)"). */
export const tierText = (tier: PriceQuote['tiers'][number], currency: DisplayCurrency | null = null) =>
  `${tier.minQuantity} or more: ${inlinePrice(tier.unitPrice, currency)} each`;

/** Why this unit price: a tier, the customer's own price, or the list. */
export function unitPriceReason(quote: PriceQuote): string {
  if (quote.rule === 'tier') return `tier price for ${quote.minQuantity} or more`;
  if (quote.rule === 'customer') return quote.percentOff ? `your price (${quote.percentOff}% off)` : 'your price';
  return 'list price';
}

/**
 * How many of a service sold by quantity (issue 32 item 3): the tiers the shop set, and the unit price and
 * total the server quoted for the quantity typed, before ordering.
 */
export function QuantityField({
  quantity,
  quote,
  onChange,
  currency = null,
}: {
  quantity: number;
  quote: PriceQuote;
  onChange: (quantity: number) => void;
  currency?: DisplayCurrency | null;
}) {
  const id = useId();
  const set = (value: number) => onChange(Math.min(QUANTITY_MAX, Math.max(1, Math.floor(value) || 1)));
  return (
    <div>
      <label htmlFor={`${id}-quantity`} className="mb-1 block font-semibold">
        Quantity
      </label>
      <div className="flex items-center gap-2">
        <button type="button" className="btn btn-outline min-h-11 min-w-11" aria-label="One fewer" disabled={quantity <= 1} onClick={() => set(quantity - 1)}>
          −
        </button>
        <input
          id={`${id}-quantity`}
          type="number"
          inputMode="numeric"
          min={1}
          max={QUANTITY_MAX}
          className="input w-24 text-center"
          value={quantity}
          aria-describedby={`${id}-tiers ${id}-unit`}
          onChange={(event) => set(Number(event.target.value))}
        />
        <button
          type="button"
          className="btn btn-outline min-h-11 min-w-11"
          aria-label="One more"
          disabled={quantity >= QUANTITY_MAX}
          onClick={() => set(quantity + 1)}
        >
          +
        </button>
      </div>
      <p id={`${id}-tiers`} className="mt-1 text-xs">
        Buy more, pay less: {quote.tiers.map((tier) => tierText(tier, currency)).join(' · ')}.
      </p>
      <p id={`${id}-unit`} className="mt-1 text-sm" aria-live="polite">
        {quote.quantity === quantity && quote.unitPrice
          ? `${inlinePrice(quote.unitPrice, currency)} each (${unitPriceReason(quote)})`
          : 'Working out the price…'}
      </p>
    </div>
  );
}

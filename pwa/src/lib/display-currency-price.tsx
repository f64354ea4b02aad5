import { formatDisplayPrice, type DisplayCurrency } from '../../../edge-api/src/contract/currencies.ts';
import { usdPrice } from './display-currency.ts';

export interface DisplayPriceProps {
  /** The price in the shop's currency, as the server answers it ("9.99"). */
  price: string;
  currency: DisplayCurrency | null;
  /** The amount's own look ("text-2xl font-extrabold"). */
  className?: string;
  /** The look of "USD" after an amount in the shop's currency. */
  unitClassName?: string;
  /** The outer element's classes (alignment). */
  wrapperClassName?: string;
  /**
   * Keep the small line's room even with no display currency: on a page the server renders (in USD), the
   * converted price then fills it after the app takes over, and nothing below moves (decision 241).
   */
  reserveLine?: boolean;
}

/**
 * A price where a screen shows it large: "$9.99 USD" in the shop's currency; with a display currency,
 * "≈ €9.20" (marked approximate by formatDisplayPrice) and, below it, what is actually paid in USD.
 */
export function DisplayPrice({ price, currency, className, unitClassName, wrapperClassName, reserveLine = false }: DisplayPriceProps) {
  const shown = formatDisplayPrice(price, currency);
  const usd = usdPrice(price);
  const converted = shown !== usd;
  return (
    <div className={wrapperClassName}>
      <p className={className} data-display-currency={converted ? currency?.code : undefined}>
        {converted ? (
          <span title={`You pay ${usd} USD`}>{shown}</span>
        ) : (
          <>
            {usd} <span className={unitClassName}>USD</span>
          </>
        )}
      </p>
      {converted ? <p className="text-xs leading-4">You pay {usd} USD</p> : reserveLine ? <p className="h-4 text-xs leading-4" aria-hidden="true" /> : null}
    </div>
  );
}

/**
 * A total that a tier, the customer's own price or a coupon lowered: the list price struck, then what is
 * charged. In the shop's currency: "$50.00 $45.00 USD"; with a display currency, both converted and marked
 * approximate, and what is paid in USD on a line below.
 */
export function StruckPrice({ list, charged, currency }: { list: string; charged: string; currency: DisplayCurrency | null }) {
  const shown = formatDisplayPrice(charged, currency);
  const usd = usdPrice(charged);
  if (shown === usd)
    return charged === list ? (
      <>${list} USD</>
    ) : (
      <>
        <s className="mr-2 font-normal">${list}</s>${charged} USD
      </>
    );
  return (
    <>
      {charged !== list && <s className="mr-2 font-normal">{formatDisplayPrice(list, currency)}</s>}
      <span title={`You pay ${usd} USD`}>{shown}</span>
      <span className="block text-xs font-normal">You pay {usd} USD</span>
    </>
  );
}

/**
 * What an order actually costs, where it is paid: always in USD, the shop's currency, and with a display
 * currency chosen, its approximate amount for reference only: "You pay $9.99 (USD); ≈ €9.20 shown for reference".
 */
export function AmountDue({ price, currency, className = 'text-sm' }: { price: string; currency: DisplayCurrency | null; className?: string }) {
  const usd = usdPrice(price);
  const reference = formatDisplayPrice(price, currency);
  return (
    <p className={className} data-testid="amount-due">
      <strong>You pay {usd} (USD)</strong>
      {reference !== usd && <>; {reference} shown for reference</>}
    </p>
  );
}

import { useId } from 'react';
import { SHOP_CURRENCY, type DisplayCurrency } from '../../../edge-api/src/contract/currencies.ts';
import { chooseDisplayCurrency, currencyLabel, displayCurrencyFor, useChosenCurrencyCode } from './display-currency.ts';

export interface DisplayCurrencySelectProps {
  /** The admin's list (`settings.displayCurrencies`). */
  enabled: readonly DisplayCurrency[] | undefined;
  className?: string;
  selectClassName?: string;
  hintClassName?: string;
}

/**
 * The customer's choice of the currency prices are shown in (decision 241): "US Dollar (USD)" and the
 * currencies the admin enables, kept on this device. Nothing when the admin enables none.
 */
export function DisplayCurrencySelect({
  enabled,
  className,
  selectClassName = 'select w-56 max-w-full',
  hintClassName = 'mt-1 text-xs',
}: DisplayCurrencySelectProps) {
  const id = useId();
  const chosen = displayCurrencyFor(enabled, useChosenCurrencyCode());
  if (!enabled || enabled.length === 0) return null;
  return (
    <div className={className}>
      <label htmlFor={`${id}-currency`} className="mb-1 block text-sm font-medium">
        Show prices in
      </label>
      <select
        id={`${id}-currency`}
        className={selectClassName}
        value={chosen?.code ?? SHOP_CURRENCY}
        aria-describedby={`${id}-currency-hint`}
        onChange={(event) => chooseDisplayCurrency(event.target.value)}
      >
        <option value={SHOP_CURRENCY}>{currencyLabel(SHOP_CURRENCY)}</option>
        {enabled.map((currency) => (
          <option key={currency.code} value={currency.code}>
            {currencyLabel(currency.code)}
          </option>
        ))}
      </select>
      <p id={`${id}-currency-hint`} className={hintClassName}>
        Other currencies are approximate (≈), at the shop&apos;s rates. You always pay in {SHOP_CURRENCY}.
      </p>
    </div>
  );
}

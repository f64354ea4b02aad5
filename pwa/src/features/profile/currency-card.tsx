import { useSettings } from '../../db/hooks.ts';
import { DisplayCurrencySelect } from '../../lib/display-currency-select.tsx';

/** Profile → Currency: the display currency of this device (decision 241); nothing when the shop enables none. */
export function CurrencyCard() {
  const { displayCurrencies } = useSettings();
  if (!displayCurrencies || displayCurrencies.length === 0) return null;
  return (
    <section aria-labelledby="currency-card-title" className="card border border-base-300 bg-base-100 shadow-md">
      <div className="card-body">
        <h2 id="currency-card-title" className="card-title">
          Currency
        </h2>
        <p className="text-sm">Kept on this device, so it also applies when you are signed out or offline.</p>
        <DisplayCurrencySelect enabled={displayCurrencies} selectClassName="select w-full sm:w-72" />
      </div>
    </section>
  );
}

import type { Dispatch, SetStateAction } from 'react';
import { formatDisplayPrice, MAX_DISPLAY_CURRENCIES, SHOP_CURRENCY, type DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { FieldProblems } from '../../lib/form-problems.ts';
import { CurrencyRatesImport } from './currency-rates-import.tsx';
import { addCurrency, removeCurrency, setCurrency, shiftCurrencyErrors } from './currency-rates-file.ts';
import type { SectionProps } from './settings-field-kit.tsx';

interface CurrencySectionProps extends SectionProps {
  errors: FieldProblems;
  setErrors: Dispatch<SetStateAction<FieldProblems>>;
}

/** "$10 ≈ €9.20": what a rate does, under its field, once the row can be read. */
function example(currency: DisplayCurrency): string | null {
  const code = currency.code.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || code === SHOP_CURRENCY || !(currency.rate > 0)) return null;
  try {
    return `$10 ${formatDisplayPrice('10', { code, rate: currency.rate })}`;
  } catch {
    // A code Intl does not know.
    return null;
  }
}

/** One currency: its code, its rate per 1 USD and a button that removes it. */
function CurrencyRow({ index, settings, setSettings, kit, setErrors }: CurrencySectionProps & { index: number }) {
  const { fieldId, clearError, errorProps, errorText, labelClass } = kit;
  const currency = settings.displayCurrencies![index]!;
  const codePath = `displayCurrencies.${index}.code`;
  const ratePath = `displayCurrencies.${index}.rate`;
  const update = (part: Partial<DisplayCurrency>) =>
    setSettings((current) => ({ ...current, displayCurrencies: setCurrency(current.displayCurrencies ?? [], index, part) }));
  const shown = example(currency);
  return (
    <li className="flex flex-wrap items-start gap-2">
      <div className="w-28">
        <label htmlFor={fieldId(codePath)} className={labelClass}>
          Currency {index + 1} code
        </label>
        <input
          id={fieldId(codePath)}
          className="input w-full uppercase"
          maxLength={3}
          autoCapitalize="characters"
          autoComplete="off"
          value={currency.code}
          onChange={(event) => {
            update({ code: event.target.value });
            clearError(codePath);
          }}
          {...errorProps(codePath)}
        />
        {errorText(codePath, 'Code')}
      </div>
      <div className="min-w-40 flex-1">
        <label htmlFor={fieldId(ratePath)} className={labelClass}>
          Currency {index + 1} rate per 1 {SHOP_CURRENCY}
        </label>
        <input
          id={fieldId(ratePath)}
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          className="input w-full"
          value={Number.isNaN(currency.rate) ? '' : currency.rate}
          onChange={(event) => {
            const text = event.target.value;
            update({ rate: text === '' ? Number.NaN : Number(text) });
            clearError(ratePath);
          }}
          {...errorProps(ratePath)}
        />
        {shown && <p className="mt-1 text-xs text-base-content/80">{shown}</p>}
        {errorText(ratePath, 'Rate')}
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-square mt-6 text-error"
        aria-label={`Remove currency ${index + 1}${currency.code ? ` (${currency.code.toUpperCase()})` : ''}`}
        onClick={() => {
          setSettings((current) => ({ ...current, displayCurrencies: removeCurrency(current.displayCurrencies ?? [], index) }));
          setErrors((current) => shiftCurrencyErrors(current, index));
        }}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </li>
  );
}

/**
 * Settings → Display currencies (decision 241): the currencies customers may see prices in, with the
 * admin's rate per 1 USD, typed or imported from a file; saved with the rest of the form.
 */
export function DisplayCurrenciesSection(props: CurrencySectionProps) {
  const { settings, setSettings, kit, errors, setErrors } = props;
  const { fieldId, cardClass } = kit;
  const list = settings.displayCurrencies ?? [];
  return (
    <section className={cardClass} aria-labelledby={fieldId('currencies-heading')}>
      <div className="card-body gap-4">
        <h2 id={fieldId('currencies-heading')} className="card-title">
          Display currencies
        </h2>
        <p className="text-sm text-base-content/80">
          Customers may see prices in these currencies, marked approximate (≈), at your rates. Orders, totals and payments stay in {SHOP_CURRENCY}.
        </p>
        {errors.displayCurrencies && <p className="text-sm text-error">Display currencies {errors.displayCurrencies}</p>}
        {list.length === 0 ? (
          <p className="text-sm">None: prices show in {SHOP_CURRENCY} only.</p>
        ) : (
          <ul className="space-y-3">
            {list.map((_currency, index) => (
              <CurrencyRow key={index} index={index} {...props} />
            ))}
          </ul>
        )}
        <button
          type="button"
          className="btn btn-outline btn-sm w-fit"
          disabled={list.length >= MAX_DISPLAY_CURRENCIES}
          onClick={() => setSettings((current) => ({ ...current, displayCurrencies: addCurrency(current.displayCurrencies ?? []) }))}
        >
          <span aria-hidden="true">+</span> Add Currency
        </button>
        <CurrencyRatesImport
          current={list}
          onApply={(next) => {
            setSettings((current) => ({ ...current, displayCurrencies: next }));
            setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => !path.startsWith('displayCurrencies'))));
          }}
        />
      </div>
    </section>
  );
}

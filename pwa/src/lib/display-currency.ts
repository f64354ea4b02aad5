import { useSyncExternalStore } from 'react';
import { formatDisplayPrice, SHOP_CURRENCY, type DisplayCurrency } from '../../../edge-api/src/contract/currencies.ts';

// The customer's display currency (issue 32 item 4, decision 241): a code kept on this device, so a
// signed-out visitor has it too and it works offline; read against the list the admin enables, so a
// currency the admin removed falls back to the shop's own (USD).

/** The localStorage key of the chosen code. */
export const DISPLAY_CURRENCY_KEY = 'storefront.displayCurrency';

const listeners = new Set<() => void>();

function storedCode(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(DISPLAY_CURRENCY_KEY);
  } catch {
    return null;
  }
}

function onStorage(event: StorageEvent) {
  if (event.key === null || event.key === DISPLAY_CURRENCY_KEY) for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

/** Keeps the customer's choice on this device; the shop's own currency (or null) clears it. Every price on screen follows. */
export function chooseDisplayCurrency(code: string | null) {
  try {
    if (!code || code === SHOP_CURRENCY) localStorage.removeItem(DISPLAY_CURRENCY_KEY);
    else localStorage.setItem(DISPLAY_CURRENCY_KEY, code);
  } catch (error) {
    // Storage refused (private mode, full): the choice lasts until the page is left.
    console.warn('Could not keep the display currency on this device', error);
  }
  for (const listener of listeners) listener();
}

/**
 * The code chosen on this device. The server render (and the first render that takes it over) reads none,
 * so the page's HTML and the app agree; the chosen one follows right after (decision 241).
 */
export const useChosenCurrencyCode = (): string | null => useSyncExternalStore(subscribe, storedCode, () => null);

/** The chosen currency if the admin still enables it, with the admin's current rate; else null (the shop's own). */
export function displayCurrencyFor(enabled: readonly DisplayCurrency[] | undefined, code: string | null): DisplayCurrency | null {
  if (!code) return null;
  return enabled?.find((currency) => currency.code === code) ?? null;
}

/** The currency this device shows prices in, from the admin's list (`settings.displayCurrencies`); null: USD. */
export function useDisplayCurrency(enabled: readonly DisplayCurrency[] | undefined): DisplayCurrency | null {
  return displayCurrencyFor(enabled, useChosenCurrencyCode());
}

/** "Euro (EUR)", "US Dollar (USD)": a currency as the select lists it. */
export function currencyLabel(code: string): string {
  if (code === SHOP_CURRENCY) return `US Dollar (${SHOP_CURRENCY})`;
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames('en', { type: 'currency' }).of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}

/** A price in USD as the shop's own ("$9.99"), whatever the display currency. */
export const usdPrice = (price: string) => formatDisplayPrice(price, null);

/**
 * A price inside a sentence: "≈ €9.20 ($9.99)" with a display currency, so the amount in USD stays in
 * sight; "$9.99" without one.
 */
export function inlinePrice(price: string, currency: DisplayCurrency | null): string {
  const shown = formatDisplayPrice(price, currency);
  const usd = usdPrice(price);
  return shown === usd ? usd : `${shown} (${usd})`;
}

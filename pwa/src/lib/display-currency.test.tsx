import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DisplayCurrency } from '../../../edge-api/src/contract/currencies.ts';
import { chooseDisplayCurrency, DISPLAY_CURRENCY_KEY, inlinePrice, useDisplayCurrency } from './display-currency.ts';
import { AmountDue, DisplayPrice } from './display-currency-price.tsx';
import { DisplayCurrencySelect } from './display-currency-select.tsx';

const enabled: DisplayCurrency[] = [
  { code: 'EUR', rate: 0.92 },
  { code: 'BDT', rate: 121.5 },
];

/** A storefront in small: the select, and a price and the payment line that follow the choice. */
function Shop({ list }: { list: DisplayCurrency[] }) {
  const currency = useDisplayCurrency(list);
  return (
    <>
      <DisplayCurrencySelect enabled={list} />
      <DisplayPrice price="9.99" currency={currency} />
      <AmountDue price="9.99" currency={currency} />
    </>
  );
}

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe("the customer's display currency (decision 241)", () => {
  it('lists US Dollar and the enabled currencies, and a choice converts every price, marked ≈, with the USD amount kept', () => {
    render(<Shop list={enabled} />);
    const select = screen.getByLabelText('Show prices in') as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual(['US Dollar (USD)', 'Euro (EUR)', 'Bangladeshi Taka (BDT)']);
    expect(select.value).toBe('USD');
    expect(screen.getByText('USD', { selector: 'span' }).parentElement!.textContent).toBe('$9.99 USD');
    expect(screen.getByTestId('amount-due').textContent).toBe('You pay $9.99 (USD)');

    fireEvent.change(select, { target: { value: 'EUR' } });
    expect(localStorage.getItem(DISPLAY_CURRENCY_KEY)).toBe('EUR');
    expect(select.value).toBe('EUR');
    // 9.99 × 0.92 = 9.1908: rounded to the cent.
    expect(screen.getByText('≈ €9.19')).toBeTruthy();
    expect(screen.getByText('You pay $9.99 USD')).toBeTruthy();
    expect(screen.getByTestId('amount-due').textContent).toBe('You pay $9.99 (USD); ≈ €9.19 shown for reference');

    fireEvent.change(select, { target: { value: 'USD' } });
    expect(localStorage.getItem(DISPLAY_CURRENCY_KEY)).toBeNull();
    expect(screen.queryByText(/^≈ /)).toBeNull();
  });

  it('keeps the choice on the device for the next visit, and falls back to USD once the admin removes the currency', () => {
    chooseDisplayCurrency('BDT');
    const { rerender } = render(<Shop list={enabled} />);
    expect((screen.getByLabelText('Show prices in') as HTMLSelectElement).value).toBe('BDT');
    expect(screen.getByText('≈ BDT 1,213.79')).toBeTruthy();
    rerender(<Shop list={enabled.filter((currency) => currency.code !== 'BDT')} />);
    expect((screen.getByLabelText('Show prices in') as HTMLSelectElement).value).toBe('USD');
    expect(screen.getByTestId('amount-due').textContent).toBe('You pay $9.99 (USD)');
    expect(screen.queryByText(/^≈ /)).toBeNull();
  });

  it('offers no select while the admin enables no currency', () => {
    render(<Shop list={[]} />);
    expect(screen.queryByLabelText('Show prices in')).toBeNull();
  });

  it('keeps the USD amount beside a converted price inside a sentence', () => {
    expect(inlinePrice('2.50', { code: 'GBP', rate: 0.79 })).toBe('≈ £1.98 ($2.50)');
    expect(inlinePrice('2.50', null)).toBe('$2.50');
  });
});

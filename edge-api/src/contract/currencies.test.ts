import { describe, expect, it } from 'vitest';
import { convertPrice, displayCurrencies, formatDisplayPrice } from './currencies.ts';
import { settingsBody } from './settings-requests.ts';

describe('display currencies (issue 32 item 4, decision 233)', () => {
  it('converts a plain price at the rate, rounded to the cent, and marks it approximate', () => {
    expect(convertPrice('10', 0.92)).toBe(9.2);
    expect(convertPrice('9.99', 1.5)).toBe(14.99);
    expect(convertPrice('Ask us', 2)).toBeUndefined();
    expect(formatDisplayPrice('10', { code: 'EUR', rate: 0.92 })).toBe('≈ €9.20');
    expect(formatDisplayPrice('10', { code: 'BDT', rate: 119.5 })).toMatch(/^≈ BDT\s1,195\.00$/);
    expect(formatDisplayPrice('10', null)).toBe('$10');
    expect(formatDisplayPrice('Ask us', { code: 'EUR', rate: 0.92 })).toBe('Ask us');
  });

  it('takes each code once, three letters, not the shop currency, with a positive rate', () => {
    expect(displayCurrencies.parse([{ code: ' eur ', rate: 0.92 }])).toEqual([{ code: 'EUR', rate: 0.92 }]);
    const problems = (value: unknown) => displayCurrencies.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(problems([{ code: 'EURO', rate: 1 }])).toEqual(['0.code: must be a three-letter currency code such as EUR']);
    expect(problems([{ code: 'USD', rate: 1 }])).toEqual(["0.code: is the shop's own currency (USD)"]);
    expect(problems([{ code: 'EUR', rate: 0 }])).toEqual(['0.rate: must be more than 0']);
    expect(problems([{ code: 'EUR', rate: 0.1234567 }])).toEqual(['0.rate: must have at most six decimals']);
    expect(problems([{ code: 'EUR', rate: 1, symbol: '€' }])).toHaveLength(1);
    expect(
      problems([
        { code: 'EUR', rate: 1 },
        { code: 'eur', rate: 2 },
      ]),
    ).toEqual([': must name each currency once']);
  });

  it('is part of the settings an admin saves', () => {
    expect(settingsBody.shape.displayCurrencies.safeParse([{ code: 'GBP', rate: 0.79 }]).success).toBe(true);
    expect(settingsBody.shape.displayCurrencies.safeParse([{ code: 'GBP', rate: -1 }]).success).toBe(false);
  });
});

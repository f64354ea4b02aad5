import { describe, expect, it } from 'vitest';
import { categoryKey, categoryLabel, deliveryTimeIds, deliveryTimeLabel, paymentMethodIds, paymentMethodName, serviceCategoryIds } from './catalog.ts';

describe('the shop catalog', () => {
  it('lists the categories, payment methods and delivery times of the spec', () => {
    expect(serviceCategoryIds).toEqual(['documents', 'editableFile', 'wise', 'vps']);
    // The spec's, with USDT (TRC20) after bKash: the rail the shop confirms by itself (issue 26).
    expect(paymentMethodIds).toEqual(['binance', 'bkash', 'usdt', 'nagad', 'upay', 'roket', 'wise', 'payoneer', 'remitly', 'ach', 'xoom']);
    expect(deliveryTimeIds).toEqual(['instant', '1hour', '3hours', '6hours', '12hours', '24hours', '48hours']);
  });

  it('names every listed id', () => {
    expect(serviceCategoryIds.map(categoryLabel)).toEqual(['Documents', 'Editable Files', 'Wise', 'VPS']);
    expect(paymentMethodIds.map(paymentMethodName)).toEqual([
      'Binance',
      'bKash',
      'USDT (TRC20)',
      'Nagad',
      'Upay',
      'Rocket',
      'Wise',
      'Payoneer',
      'Remitly',
      'ACH Transfer',
      'Xoom',
    ]);
    expect(paymentMethodName('PayPal')).toBe('PayPal');
    expect(paymentMethodName('BANK')).toBe('Bank Transfer');
  });

  it('names a category one way whatever its spelling, and makes words of an unknown one', () => {
    for (const spelling of ['editableFile', 'EditableFile', 'editable_file', ' Editable File ', 'EDITABLEFILE']) {
      expect(categoryKey(spelling)).toBe('editableFile');
      expect(categoryLabel(spelling)).toBe('Editable Files');
    }
    expect(categoryLabel('Vps')).toBe('VPS');
    expect(categoryLabel('WISE')).toBe('Wise');
    expect(categoryKey('giftCard')).toBe('giftCard');
    expect(categoryLabel('giftCard')).toBe('Gift Card');
    expect(categoryLabel('social_media-accounts')).toBe('Social Media Accounts');
  });

  it('maps the delivery ids and shows anything else raw', () => {
    expect(deliveryTimeLabel('instant')).toBe('Instant Delivery');
    expect(deliveryTimeLabel('1hour')).toBe('1 Hour');
    expect(deliveryTimeLabel('3hours')).toBe('3 Hours');
    expect(deliveryTimeLabel('48hours')).toBe('48 Hours');
    expect(deliveryTimeLabel('2-3 business days')).toBe('2-3 business days');
    expect(deliveryTimeLabel(null)).toBe('');
  });

  it('shows an unknown id as it is, even one that looks like an object key', () => {
    expect(categoryLabel('constructor')).toBe('Constructor');
    expect(paymentMethodName('ToString')).toBe('ToString');
    expect(deliveryTimeLabel('__proto__')).toBe('__proto__');
  });
});

import { describe, expect, it } from 'vitest';
import { customerPricesBodyOf, tiersBody, type TierRow } from './price-rows.ts';

const row = (minQuantity: string, unitPrice: string): TierRow => ({ key: minQuantity, minQuantity, unitPrice });

describe('the price editors check what the API checks', () => {
  it('sends tiers as numbers and names the field of each problem', () => {
    expect(tiersBody([row('5', ' 9 '), row('10', '8.50')])).toEqual({
      body: {
        tiers: [
          { minQuantity: 5, unitPrice: '9' },
          { minQuantity: 10, unitPrice: '8.50' },
        ],
      },
    });
    expect(tiersBody([])).toEqual({ body: { tiers: [] } });
    const bad = tiersBody([row('1', '9'), row('5', 'cheap'), row('x', '3')]);
    expect(bad).toMatchObject({
      problems: {
        'tiers.0.minQuantity': 'must be at least 2',
        'tiers.1.unitPrice': 'must be a number such as 5 or 4.50',
        'tiers.2.minQuantity': expect.any(String),
      },
    });
    expect(tiersBody([row('5', '9'), row('5', '8')])).toEqual({ problems: { tiers: 'must name each minimum quantity once' } });
  });

  it('reads a blank percentage as none and refuses one above 100', () => {
    const id = '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    expect(customerPricesBodyOf(' ', [{ key: 'a', serviceId: id, unitPrice: '7.25' }])).toEqual({
      body: { percentOff: null, services: [{ serviceId: id, unitPrice: '7.25' }] },
    });
    expect(customerPricesBodyOf('12.5', [])).toEqual({ body: { percentOff: 12.5, services: [] } });
    expect(customerPricesBodyOf('150', [])).toEqual({ problems: { percentOff: 'must be at most 100' } });
    expect(customerPricesBodyOf('', [{ key: 'a', serviceId: '', unitPrice: '1' }])).toMatchObject({ problems: { 'services.0.serviceId': expect.any(String) } });
  });
});

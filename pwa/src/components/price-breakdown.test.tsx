import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PriceBreakdown } from './price-breakdown.tsx';

afterEach(cleanup);

describe('PriceBreakdown (issue 32 item 5)', () => {
  it('says the list price, the tier, the coupon and what was charged', () => {
    const { container } = render(
      <PriceBreakdown
        order={{
          price: '40.00',
          coupon: { code: 'SAVE5', listPrice: '45.00', discount: '5.00' },
          pricing: { quantity: 5, listUnit: '10.00', unitPrice: '9.00', rule: 'tier', minQuantity: 5 },
        }}
      />,
    );
    expect(container.textContent).toBe('List $10.00 × 5 = $50.00 · Tier price (5 or more): $9.00 each · Coupon SAVE5: −$5.00 · Charged $40.00');
  });

  it("says a customer's own price, and nothing for an order charged its list price once", () => {
    const own = render(
      <PriceBreakdown order={{ price: '8.00', pricing: { quantity: 1, listUnit: '10.00', unitPrice: '8.00', rule: 'customer', percentOff: 20 } }} />,
    );
    expect(own.container.textContent).toBe('List $10.00 · Customer price (20% off): $8.00 each · Charged $8.00');
    cleanup();
    const plain = render(<PriceBreakdown order={{ price: '10', pricing: { quantity: 1, listUnit: '10.00', unitPrice: '10.00', rule: 'list' } }} />);
    expect(plain.container.textContent).toBe('');
  });
});

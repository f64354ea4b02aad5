import type { Order } from '../../../edge-api/src/contract/orders.ts';

const cents = (text: string) => Math.round(Number(text) * 100);
const money = (value: number) => `$${(value / 100).toFixed(2)}`;

/** Why the unit price is what it is (decision 178). */
function ruleText(pricing: NonNullable<Order['pricing']>): string | null {
  if (pricing.rule === 'tier') return `Tier price (${pricing.minQuantity ?? ''} or more): $${pricing.unitPrice} each`;
  if (pricing.rule === 'customer')
    return pricing.percentOff ? `Customer price (${pricing.percentOff}% off): $${pricing.unitPrice} each` : `Customer price: $${pricing.unitPrice} each`;
  return null;
}

/**
 * What staff see of an order's price (issue 32 item 5): the list price, the tier or customer price, the
 * coupon and what was charged. Nothing when the order was charged its list price with no coupon.
 */
export function PriceBreakdown({ order }: { order: Pick<Order, 'price' | 'pricing' | 'coupon'> }) {
  const { pricing, coupon } = order;
  const rule = pricing ? ruleText(pricing) : null;
  if (!rule && !coupon && (!pricing || pricing.quantity === 1)) return null;
  const parts: string[] = [];
  if (pricing)
    parts.push(`List $${pricing.listUnit}${pricing.quantity > 1 ? ` × ${pricing.quantity} = ${money(cents(pricing.listUnit) * pricing.quantity)}` : ''}`);
  else if (coupon) parts.push(`List $${coupon.listPrice}`);
  if (rule) parts.push(rule);
  if (coupon) parts.push(`Coupon ${coupon.code}: −$${coupon.discount}`);
  parts.push(`Charged $${order.price}`);
  return <p className="text-xs">{parts.join(' · ')}</p>;
}

import type { Order, OrderStats } from '../../../../edge-api/src/contract/orders.ts';

const DAY_MS = 86_400_000;
export const CHART_DAYS = 30;

/** The leading number of a price text ('$1,250.50 USD' -> 1250.5), as the server reads it; 0 when none. */
export function priceAmount(price: string): number {
  const match = price.replace(/,/g, '').match(/[0-9]+(?:\.[0-9]+)?/);
  return match ? Number(match[0]) : 0;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The stats cards and chart computed from the orders on this device, for when the server cannot be
 * reached. The same definitions as the server: revenue sums paid orders, active customers are distinct
 * users, days are UTC, the last 30 days oldest first.
 */
export function statsFromOrders(orders: readonly Order[], now: Date): OrderStats {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daily = Array.from({ length: CHART_DAYS }, (_, index) => ({ date: utcDay(today - (CHART_DAYS - 1 - index) * DAY_MS), orders: 0, revenue: 0 }));
  const byDate = new Map(daily.map((day) => [day.date, day]));
  let revenue = 0;
  let pendingPayments = 0;
  let delivered = 0;
  const customers = new Set<string>();
  for (const order of orders) {
    const amount = order.paymentStatus === 'paid' ? priceAmount(order.price) : 0;
    revenue += amount;
    customers.add(order.userId);
    if (order.paymentStatus === 'pending') pendingPayments += 1;
    if (order.orderStatus === 'delivered') delivered += 1;
    const created = Date.parse(order.createdAt);
    const day = Number.isNaN(created) ? undefined : byDate.get(utcDay(created));
    if (day) {
      day.orders += 1;
      day.revenue = round2(day.revenue + amount);
    }
  }
  const recentOrders = [...orders].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, 5);
  return {
    totalOrders: orders.length,
    totalRevenue: round2(revenue),
    activeCustomers: customers.size,
    pendingPayments,
    delivered,
    recentOrders,
    daily,
  };
}

/** Revenue to 2 decimals, as dollars (spec section 9). */
export const formatRevenue = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

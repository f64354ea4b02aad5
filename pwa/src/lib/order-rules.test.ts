import { describe, expect, it } from 'vitest';
import {
  chatLinkWithMessage,
  expectedDelivery,
  formatExpectedDelivery,
  orderStatusLabel,
  paymentMessage,
  paymentStatusLabel,
  shortOrderId,
  shortServiceId,
} from './order-rules.ts';

const ordered = '2026-03-10T08:00:00.000Z';
const hoursAfterOrder = (value: ReturnType<typeof expectedDelivery>) => {
  if (value.kind !== 'at') throw new Error(`expected a date, got ${value.kind}`);
  return (value.date.getTime() - Date.parse(ordered)) / 3_600_000;
};

describe('expected delivery', () => {
  it('is immediate when the delivery text says instant, whatever its case', () => {
    expect(expectedDelivery(ordered, 'instant')).toEqual({ kind: 'immediate' });
    expect(expectedDelivery(ordered, 'Instant Delivery')).toEqual({ kind: 'immediate' });
  });

  it('adds the leading number of hours when the text mentions hours', () => {
    expect(hoursAfterOrder(expectedDelivery(ordered, '1hour'))).toBe(1);
    expect(hoursAfterOrder(expectedDelivery(ordered, '6hours'))).toBe(6);
    expect(hoursAfterOrder(expectedDelivery(ordered, '48hours'))).toBe(48);
    expect(hoursAfterOrder(expectedDelivery(ordered, '12 Hours'))).toBe(12);
  });

  it('adds one hour when an hours text has no leading number', () => {
    expect(hoursAfterOrder(expectedDelivery(ordered, 'within the hour'))).toBe(1);
  });

  it('adds 24 hours per day when the text mentions days', () => {
    expect(hoursAfterOrder(expectedDelivery(ordered, '2 days'))).toBe(48);
    expect(hoursAfterOrder(expectedDelivery(ordered, '3days'))).toBe(72);
    expect(hoursAfterOrder(expectedDelivery(ordered, 'one day'))).toBe(24);
  });

  it('adds nothing for a text with neither hours nor days', () => {
    expect(hoursAfterOrder(expectedDelivery(ordered, 'soon'))).toBe(0);
    expect(hoursAfterOrder(expectedDelivery(ordered, '2 weeks'))).toBe(0);
  });

  it('is not specified when the date or the delivery time is missing or unreadable', () => {
    expect(expectedDelivery(undefined, '1hour')).toEqual({ kind: 'unknown' });
    expect(expectedDelivery('', '1hour')).toEqual({ kind: 'unknown' });
    expect(expectedDelivery(ordered, '')).toEqual({ kind: 'unknown' });
    expect(expectedDelivery(ordered, null)).toEqual({ kind: 'unknown' });
    expect(expectedDelivery('not a date', '1hour')).toEqual({ kind: 'unknown' });
  });

  it('reads as the spec words it', () => {
    expect(formatExpectedDelivery(expectedDelivery(ordered, 'instant'))).toBe('Immediate');
    expect(formatExpectedDelivery(expectedDelivery(undefined, 'instant'))).toBe('Not specified');
    expect(formatExpectedDelivery(expectedDelivery(ordered, '24hours'))).toMatch(/Mar 11, 2026/);
  });
});

describe('id shortening', () => {
  const id = '3f2b9c1e-8d4a-4b6f-9e2a-7c5d1a0b9e84';

  it('shows orders by their last 8 characters and services by their last 12', () => {
    expect(shortOrderId(id)).toBe('1a0b9e84');
    expect(shortServiceId(id)).toBe('7c5d1a0b9e84');
  });

  it('shows a short id whole', () => {
    expect(shortOrderId('abc')).toBe('abc');
  });
});

describe('status labels', () => {
  it('names every order status as the spec does', () => {
    expect(orderStatusLabel('pending')).toBe('Awaiting Processing');
    expect(orderStatusLabel('processing')).toBe('In Progress');
    expect(orderStatusLabel('completed')).toBe('Completed');
    expect(orderStatusLabel('delivered')).toBe('Delivered');
    expect(orderStatusLabel('cancelled')).toBe('Cancelled');
  });

  it('shows an unknown or missing order status as pending', () => {
    expect(orderStatusLabel('shipped')).toBe('Awaiting Processing');
    expect(orderStatusLabel(undefined)).toBe('Awaiting Processing');
    expect(orderStatusLabel('toString')).toBe('Awaiting Processing');
  });

  it('names every payment status as the spec does', () => {
    expect(paymentStatusLabel('pending')).toBe('Payment Pending');
    expect(paymentStatusLabel('paid')).toBe('Paid');
    expect(paymentStatusLabel('failed')).toBe('Payment Failed');
    expect(paymentStatusLabel('refunded')).toBe('Refunded');
    expect(paymentStatusLabel('bogus')).toBe('Payment Pending');
  });
});

describe('complete payment link', () => {
  const order = { id: '3f2b9c1e-8d4a-4b6f-9e2a-7c5d1a0b9e84', title: 'Wise Account', price: '25' };

  it('fills the order id and amount into the chat link as its text', () => {
    const link = new URL(chatLinkWithMessage('https://wa.me/8801700000000', paymentMessage(order)));
    expect(link.origin + link.pathname).toBe('https://wa.me/8801700000000');
    const text = link.searchParams.get('text') ?? '';
    expect(text).toContain(order.id);
    expect(text).toContain('$25');
  });

  it('keeps the link’s own query', () => {
    const link = new URL(chatLinkWithMessage('https://t.me/shop?start=pay', 'hi & bye'));
    expect(link.searchParams.get('start')).toBe('pay');
    expect(link.searchParams.get('text')).toBe('hi & bye');
  });

  it('returns a link it cannot parse unchanged', () => {
    expect(chatLinkWithMessage('not a url', 'hi')).toBe('not a url');
  });
});

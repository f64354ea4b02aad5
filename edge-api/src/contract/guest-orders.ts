import * as z from 'zod';
import { emailText, text, uuid } from './fields.ts';
import { ORDER_NOTE_MAX } from './order-requests.ts';
import type { OrderStatus, PaymentStatus } from './orders.ts';

/**
 * POST /api/guest-orders (decision 177): a signed-out visitor orders with just an email. No coupon: its
 * rules (first order, uses per customer) would tell whoever typed the address about the account's past.
 */
export const guestOrderBody = z
  .object({
    id: uuid.optional(),
    email: emailText,
    productId: uuid,
    note: text(ORDER_NOTE_MAX).optional(),
    paymentMethod: text(40).optional(),
  })
  .strict();

/** What the placing device may know of the order: its state, never what was delivered. */
export interface GuestOrderState {
  id: string;
  title: string;
  price: string;
  paymentMethod: string | null;
  orderStatus: OrderStatus;
  paymentStatus: PaymentStatus;
  createdAt: string;
  /** Until when the token reads this. */
  statusUntil: string;
}

/** The answer to a placement: the state and the token that reads it (header X-Order-Token) until `statusUntil`. */
export interface GuestOrderPlaced {
  order: GuestOrderState;
  statusToken: string;
}

/** The header the order-state token travels in (not the address: addresses end up in logs). */
export const ORDER_TOKEN_HEADER = 'x-order-token';

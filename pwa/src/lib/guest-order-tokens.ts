/**
 * The order-state tokens of orders this device placed with just an email (decision 177), in localStorage:
 * they read the order's state only, never what was delivered, and stop working after a day.
 */
const KEY = 'guest-orders';

interface Kept {
  token: string;
  email: string;
}

function readAll(): Record<string, Kept> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return value && typeof value === 'object' ? (value as Record<string, Kept>) : {};
  } catch {
    return {};
  }
}

export function rememberGuestOrder(orderId: string, token: string, email: string): void {
  // The newest few are enough: the token runs out in a day anyway.
  const kept = Object.entries(readAll()).slice(-9);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries([...kept, [orderId, { token, email }]])));
}

export const guestOrderToken = (orderId: string): Kept | undefined => readAll()[orderId];

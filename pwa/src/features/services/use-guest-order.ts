import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { GuestOrderPlaced } from '../../../../edge-api/src/contract/guest-orders.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { AppError } from '../../lib/app-error.ts';
import { rememberGuestOrder } from '../../lib/guest-order-tokens.ts';

/** What went wrong ordering with an email, in words the visitor can act on. */
function guestOrderProblem(error: unknown): string {
  if (error instanceof AppError) {
    if (error.code === 'network') return 'Could not reach the shop: check your connection and try again.';
    if (error.code === 'rate_limited' || error.code === 'forbidden' || error.code === 'bad_request') return error.message;
  }
  return 'Failed to place order. Please try again.';
}

/**
 * Places a signed-out visitor's order with just an email (decision 177). Online only: there is no account
 * on this device to queue it under. The order-state token is kept on this device, and the visitor goes to
 * the order's state page.
 */
export function useGuestOrder() {
  const navigate = useNavigate();
  const [placing, setPlacing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const place = useCallback(
    async (productId: string, choice: { email: string; note?: string; paymentMethod?: string }) => {
      setPlacing(true);
      setError(null);
      try {
        const placed: GuestOrderPlaced = await unwrap(api['guest-orders'].$post({ json: { id: crypto.randomUUID(), productId, ...choice } }));
        rememberGuestOrder(placed.order.id, placed.statusToken, choice.email);
        navigate(`/order-status/${placed.order.id}`);
      } catch (cause) {
        setError(guestOrderProblem(cause));
        setPlacing(false);
      }
    },
    [navigate],
  );
  return { place, placing, error };
}

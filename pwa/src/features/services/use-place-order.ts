import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../components/toast.tsx';
import { dismissFailed, placeOrder } from '../../db/mutations.ts';
import { failOnServerError } from '../../db/outbox.ts';
import { serverOutcome } from '../../db/server-outcome.ts';
import { couponReason } from './coupon-refusal.ts';

const ORDER_PLACED = 'Order placed successfully!';
const ORDER_FAILED = 'Failed to place order. Please try again.';
const ORDER_QUEUED = 'Your order is saved and will be sent when you are back online.';
const ORDER_SENDING = 'Your order is saved and is still being sent; it shows in My Orders meanwhile.';

/** How long to wait for the server before treating the order as queued (it is sent later, once). */
const CONFIRM_WAIT_MS = 10_000;

/**
 * Places an order through the outbox with a client-made id, so a retry over a flaky network never makes a
 * second order. Goes to My Orders once the server confirms, or at once when the order has to wait for
 * the network; stays put with an error when the server refuses it.
 */
export function usePlaceOrder() {
  const navigate = useNavigate();
  const toast = useToast();
  const [placing, setPlacing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const place = useCallback(
    async (userId: string, productId: string, choice: { note?: string; paymentMethod?: string; couponCode?: string; quantity?: number } = {}) => {
      setPlacing(true);
      setError(null);
      // Online, the customer waits for the server's answer, and a refusal or a server error fails at once.
      const handle = placeOrder(userId, { id: crypto.randomUUID(), productId, ...choice }, { answerNow: navigator.onLine });
      try {
        await handle.saved;
        const outcome = await serverOutcome(handle.done, CONFIRM_WAIT_MS);
        if (outcome !== 'confirmed') failOnServerError(handle.id, false); // queued now: retried like any change
        if (outcome === 'confirmed') toast.success(ORDER_PLACED, 2000);
        else toast.info(outcome === 'offline' ? ORDER_QUEUED : ORDER_SENDING, 5000);
        navigate('/my-orders');
      } catch (cause) {
        // Shown here, with the order button to try again: not listed a second time among failed changes.
        await dismissFailed(userId, handle.id).catch(() => undefined);
        // A coupon taken or ended since it was applied: say so, so the customer can order without it.
        const message = (choice.couponCode && couponReason(cause)) || ORDER_FAILED;
        if (mounted.current) setError(message);
        toast.error(message);
      } finally {
        if (mounted.current) setPlacing(false);
      }
    },
    [navigate, toast],
  );

  return { place, placing, error };
}

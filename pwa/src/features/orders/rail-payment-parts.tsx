import { useEffect, useState } from 'react';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';

/** How often the page asks whether a payment arrived while it waits and is in view. */
const CHECK_EVERY_MS = 5_000;

/**
 * While a payment waits and the page is visible, asks the server every few seconds to check with the
 * rail, and syncs when the answer differs: the order's state updates by itself.
 */
export function usePaymentCheck(orderId: string, waiting: boolean) {
  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    const check = async () => {
      if (stopped || document.visibilityState !== 'visible' || !navigator.onLine) return;
      try {
        const order = await unwrap(api.orders[':id'].payment.check.$post({ param: { id: orderId } }));
        if (!stopped && order.payment?.state !== 'waiting') await requestSync();
      } catch {
        // The next check, or the next sync, tries again.
      }
    };
    const timer = setInterval(() => void check(), CHECK_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [orderId, waiting]);
}

/** The QR code of what to pay to, drawn on the device (the `qr` library, loaded only when a payment shows one). */
export function PaymentQr({ content, label }: { content: string; label: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    void import('qr').then(({ encodeQR }) => {
      if (!cancelled) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(encodeQR(content, 'svg', { ecc: 'medium', border: 2 }))}`);
    });
    return () => {
      cancelled = true;
    };
  }, [content]);
  if (!image) return null;
  return <img src={image} alt={label} className="h-44 w-44 rounded-box bg-white p-1" data-testid="rail-payment-qr" />;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** The time left to pay, to the second. */
export function TimeLeft({ until }: { until: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Date.parse(until) - now);
  const minutes = Math.floor(left / 60_000);
  const seconds = Math.floor((left % 60_000) / 1000);
  return (
    <p className="text-sm" data-testid="rail-payment-time-left">
      Time left: <strong className="font-mono">{left === 0 ? 'none' : `${twoDigits(minutes)}:${twoDigits(seconds)}`}</strong>
    </p>
  );
}

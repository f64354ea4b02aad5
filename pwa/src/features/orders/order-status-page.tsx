import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ORDER_TOKEN_HEADER, type GuestOrderState } from '../../../../edge-api/src/contract/guest-orders.ts';
import { formatDisplayPrice } from '../../../../edge-api/src/contract/currencies.ts';
import { instructionsFor } from '../../../../edge-api/src/contract/settings.ts';
import { LoadingState } from '../../components/page-state.tsx';
import { PaymentInstructionsBox } from '../../components/payment-instructions.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useSettings } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { paymentMethodName } from '../../lib/catalog.ts';
import { useDisplayCurrency } from '../../lib/display-currency.ts';
import { guestOrderToken } from '../../lib/guest-order-tokens.ts';

const REFRESH_MS = 30_000;
const label = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/**
 * The state of an order placed with just an email, on the device that placed it (decision 177): what it
 * costs, how to pay and where it stands, never what was delivered. Everything else is behind the mailed
 * sign-in link.
 */
export function OrderStatusPage() {
  usePageTitle('Order Status');
  const { id = '' } = useParams();
  const kept = guestOrderToken(id);
  const settings = useSettings();
  const currency = useDisplayCurrency(settings.displayCurrencies);
  const [state, setState] = useState<GuestOrderState | 'missing' | null>(kept ? null : 'missing');

  useEffect(() => {
    if (!kept) return;
    let stopped = false;
    const read = () =>
      unwrap(api['guest-orders'][':id'].$get({ param: { id } }, { headers: { [ORDER_TOKEN_HEADER]: kept.token } }))
        .then((value) => !stopped && setState(value))
        .catch(() => !stopped && setState((current) => (current === null ? 'missing' : current)));
    void read();
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [id, kept]);

  if (state === null) return <LoadingState text="Loading your order..." />;
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-8">
      <h1 className="text-3xl font-extrabold">{state === 'missing' ? 'Order status' : 'Order placed'}</h1>
      {state === 'missing' ? (
        <p className="alert">
          This page shows an order&apos;s state only on the device that placed it, for a day. To see your orders, open the sign-in link we mailed you, or sign
          in.
        </p>
      ) : (
        <>
          <p className="alert alert-success" role="status">
            We sent a sign-in link to {kept?.email}. Open it on any device to see this order, pay for it and receive what you ordered.
          </p>
          <dl className="grid gap-2 rounded-box bg-base-200 p-4">
            {[
              ['Service', state.title],
              // Always what is due in USD; a display currency only for reference (decision 241).
              ['Amount due', currency ? `$${state.price} USD (${formatDisplayPrice(state.price, currency)} for reference)` : `$${state.price} USD`],
              ['Payment method', state.paymentMethod ? paymentMethodName(state.paymentMethod) : 'Not chosen'],
              ['Payment', label(state.paymentStatus)],
              ['Order', label(state.orderStatus)],
            ].map(([term, value]) => (
              <div key={term} className="flex justify-between gap-4">
                <dt className="font-semibold">{term}</dt>
                <dd className="text-right">{value}</dd>
              </div>
            ))}
          </dl>
          {state.paymentMethod && state.paymentStatus !== 'paid' && (
            <div className="rounded-box border border-base-300 p-4">
              <PaymentInstructionsBox method={state.paymentMethod} instructions={instructionsFor(settings, state.paymentMethod)} />
            </div>
          )}
        </>
      )}
      <Link to="/login" className="btn btn-primary">
        Sign In
      </Link>
    </div>
  );
}

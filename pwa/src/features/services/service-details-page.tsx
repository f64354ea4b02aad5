import { useState, type ReactNode } from 'react';
import { ExternalLink } from '../../components/external-link.tsx';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import type { DisplayCurrency } from '../../../../edge-api/src/contract/currencies.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { BottomBar } from '../../components/bottom-bar.tsx';
import { CheckIcon } from '../../components/line-icon.tsx';
import { ErrorState, LoadingState } from '../../components/page-state.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useSettings } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { useAuth } from '../../lib/auth.tsx';
import { categoryLabel, deliveryTimeLabel, paymentMethodName } from '../../lib/catalog.ts';
import { useDisplayCurrency } from '../../lib/display-currency.ts';
import { DisplayPrice } from '../../lib/display-currency-price.tsx';
import { shortServiceId } from '../../lib/order-rules.ts';
import { useGoBack } from '../../lib/use-go-back.ts';
import { OrderConfirmDialog } from './order-confirm-dialog.tsx';
import { PaymentMethodSymbol } from './payment-methods.tsx';
import { useGuestCheckout } from './use-guest-checkout.ts';
import { useGuestOrder } from './use-guest-order.ts';
import { usePlaceOrder } from './use-place-order.ts';
import { usePublicService } from './use-public-services.ts';

/** Said on Create Account to a visitor who tapped View Details. */
export const SIGN_UP_REASON =
  'Create a free account, or sign in, to see the full details of this service and order it. You come straight back here afterwards.';

const trustPoints = ['Money-back guarantee', 'Secure payment processing', 'Quality assurance'];

export function ServiceDetailsPage() {
  const auth = useAuth();
  const location = useLocation();
  const guestCheckout = useGuestCheckout(auth.status === 'signedOut');
  // A shop that takes orders with just an email shows signed-out visitors the service (decision 177).
  if (auth.status === 'signedOut' && guestCheckout === undefined) return <LoadingState text="Loading service details..." />;
  if (auth.status === 'signedOut' && guestCheckout) return <ServiceDetails userId={null} />;
  // The spec: signed-out visitors register first, then come back here.
  if (auth.status !== 'signedIn') return <Navigate to="/register" replace state={{ from: location, reason: SIGN_UP_REASON }} />;
  return <ServiceDetails userId={auth.user.id} />;
}

function ServiceDetails({ userId }: { userId: string | null }) {
  const { id = '' } = useParams();
  const service = usePublicService(id);
  usePageTitle(service.state === 'ready' && service.value ? service.value.title : service.state === 'loading' ? 'Service Details' : 'Service not found');
  // Back one step; a page opened directly has none, so it goes to the listing.
  const goBack = useGoBack('/services');

  if (service.state === 'loading') return <LoadingState text="Loading service details..." />;
  if (service.state === 'error' || service.value === null) {
    const failed = service.state === 'error';
    return (
      <ErrorState
        title={failed ? 'Something went wrong' : 'Service not found'}
        message={failed ? 'Failed to load service details. Please try again.' : 'This service may have been removed.'}
        onRetry={failed ? () => void requestSync().catch(() => undefined) : undefined}
      >
        <button type="button" className="btn btn-outline" onClick={goBack}>
          Go Back
        </button>
      </ErrorState>
    );
  }
  return <ServiceView service={service.value} userId={userId} onBack={goBack} />;
}

function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-base-300 py-2 last:border-b-0">
      <dt className="font-medium">{label}</dt>
      <dd className="text-right font-semibold">{children}</dd>
    </div>
  );
}

/** What the service is: its picture, description, features, delivery time and payment methods. */
function ServiceMainColumn({ service, delivery }: { service: Service; delivery: string }) {
  return (
    <div className="space-y-8 lg:col-span-2">
      <div className="overflow-hidden rounded-box bg-base-200">
        {service.image ? (
          <img src={service.image} alt={service.title} className="aspect-video w-full object-cover" />
        ) : (
          <div className="flex aspect-video items-center justify-center text-base-content/70" role="img" aria-label={service.title}>
            <svg viewBox="0 0 24 24" className="h-16 w-16" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
              <rect x="3" y="4" width="18" height="16" rx="2" />
              <path d="M3 16l5-5 4 4 3-3 6 6" />
            </svg>
          </div>
        )}
      </div>
      <div>
        <div className="mb-3 flex flex-wrap items-center gap-2">
          {service.popular && <span className="badge badge-warning font-bold">Popular</span>}
          <span className="badge badge-outline">{categoryLabel(service.category)}</span>
        </div>
        <h1 className="text-3xl font-extrabold md:text-4xl">{service.title}</h1>
        <p className="mt-4 text-lg whitespace-pre-line">{service.description}</p>
      </div>
      {service.features.length > 0 && (
        <section aria-labelledby="details-features">
          <h2 id="details-features" className="mb-3 text-2xl font-bold">
            Key Features
          </h2>
          <ul className="grid gap-2 sm:grid-cols-2">
            {service.features.map((feature, index) => (
              <li key={index} className="flex items-start gap-2 rounded-box bg-base-200 p-3">
                <CheckIcon />
                {feature}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="details-delivery">
        <h2 id="details-delivery" className="mb-3 text-2xl font-bold">
          Delivery Time
        </h2>
        <p className="flex items-center gap-2 text-lg">
          <svg viewBox="0 0 24 24" className="h-6 w-6 text-primary" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7v5l3 2" strokeLinecap="round" />
          </svg>
          {delivery || 'Not specified'}
        </p>
      </section>
      {service.paymentMethods.length > 0 && (
        <section aria-labelledby="details-payment">
          <h2 id="details-payment" className="mb-3 text-2xl font-bold">
            Accepted Payment Methods
          </h2>
          <ul className="flex flex-wrap gap-2">
            {service.paymentMethods.map((method) => (
              <li key={method} className="flex items-center gap-2 rounded-box border border-base-300 px-3 py-2 font-medium">
                <span className="text-primary">
                  <PaymentMethodSymbol method={method} />
                </span>
                {paymentMethodName(method)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The price, the order button (on a wide screen) and the service's facts. */
function OrderAside({
  service,
  delivery,
  providerChatUrl,
  orderButton,
  error,
  currency,
}: {
  service: Service;
  currency: DisplayCurrency | null;
  delivery: string;
  providerChatUrl: string;
  orderButton: ReactNode;
  error: string | null;
}) {
  return (
    <aside className="space-y-6" aria-label="Order this service">
      <div className="card border border-base-300 bg-base-100 shadow-md">
        <div className="card-body gap-4">
          <p className="text-sm font-semibold">Starting From</p>
          <DisplayPrice price={service.price} currency={currency} className="text-4xl font-extrabold" unitClassName="text-lg font-semibold" />
          {/* Below 1024px the order button is in the bar at the bottom of the screen. */}
          {orderButton}
          {error && (
            <p role="alert" className="alert alert-error max-lg:hidden">
              {error}
            </p>
          )}
          <ExternalLink className="btn btn-outline" href={providerChatUrl}>
            Contact Provider
          </ExternalLink>
          <ul className="space-y-2 pt-2">
            {trustPoints.map((point) => (
              <li key={point} className="flex items-center gap-2">
                <CheckIcon />
                {point}
              </li>
            ))}
          </ul>
        </div>
      </div>

      <section aria-labelledby="details-info" className="card border border-base-300 bg-base-100">
        <div className="card-body">
          <h2 id="details-info" className="card-title">
            Service Information
          </h2>
          <dl>
            <InfoRow label="Category">{categoryLabel(service.category)}</InfoRow>
            <InfoRow label="Status">Available</InfoRow>
            <InfoRow label="Delivery">{delivery || 'Not specified'}</InfoRow>
            <InfoRow label="Demand">{service.popular ? 'High' : 'Normal'}</InfoRow>
          </dl>
          <p className="mt-2 text-sm">
            Service ID: <span className="font-mono">{shortServiceId(service.id)}</span>
          </p>
        </div>
      </section>
    </aside>
  );
}

function ServiceView({ service, userId, onBack }: { service: Service; userId: string | null; onBack: () => void }) {
  const settings = useSettings();
  const currency = useDisplayCurrency(settings.displayCurrencies);
  const signedIn = usePlaceOrder();
  const guest = useGuestOrder();
  const { placing, error } = userId ? signedIn : guest;
  // "Place Order Now" opens the summary; its confirm button places the order.
  const [confirming, setConfirming] = useState(false);
  const delivery = deliveryTimeLabel(service.deliveryTime);
  const orderButton = (className: string) => (
    <button type="button" className={`btn btn-primary ${className}`} disabled={placing} onClick={() => setConfirming(true)}>
      {placing && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {placing ? 'Placing Order...' : 'Place Order Now'}
    </button>
  );

  return (
    <div className="mx-auto max-w-6xl px-4 pt-8 pb-28 lg:pb-8">
      <button type="button" className="btn btn-ghost mb-6" onClick={onBack}>
        <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Back to Services
      </button>

      <div className="grid gap-8 lg:grid-cols-3">
        <ServiceMainColumn service={service} delivery={delivery} />
        <OrderAside
          service={service}
          delivery={delivery}
          providerChatUrl={settings.providerChatUrl}
          orderButton={orderButton('btn-lg max-lg:hidden')}
          error={error}
          currency={currency}
        />
      </div>

      {confirming && (
        <OrderConfirmDialog
          service={service}
          settings={settings}
          placing={placing}
          error={error}
          guest={userId === null}
          onConfirm={(choice) => void (userId ? signedIn.place(userId, service.id, choice) : guest.place(service.id, { ...choice, email: choice.email ?? '' }))}
          onClose={() => setConfirming(false)}
        />
      )}

      <BottomBar label="Price and order">
        {error && (
          <p role="alert" className="mb-2 text-sm font-medium text-error">
            {error}
          </p>
        )}
        <div className="flex items-center justify-between gap-3">
          <div className="min-w-0">
            <span className="block text-xs font-semibold">Starting From</span>
            <DisplayPrice price={service.price} currency={currency} className="text-2xl font-extrabold" unitClassName="text-sm font-semibold" />
          </div>
          {orderButton('shrink-0')}
        </div>
      </BottomBar>
    </div>
  );
}
